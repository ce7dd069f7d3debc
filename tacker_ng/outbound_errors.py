"""What an API caller is told when a call of the VNF manager to another
system fails: one rule for every outbound call (NFVO, VIMs, callbacks,
package URIs).

SOL013 wants errors that reveal nothing of the VNF manager's network, and
a library's exception text reveals it all:
``HTTPConnectionPool(host='10.0.0.7', port=9443): Read timed out`` or
``[Errno 111] Connection refused``. So an error that reaches an API
caller (an op occ's ``error``, a ProblemDetails answer, a package's
``onboardingFailureDetails``) says only:

* what failed, in our words ("the grant request", "Heat stack create");
* which endpoint, by its configured *name*: "the NFVO ([nfvo]
  endpoint)", "VIM <vimId>", "the callbackUri", "the package's
  addressInformation" - never its host, port, address or URL;
* how it failed, in our words (:func:`transport_failure`: no answer in
  time, connection refused, TLS handshake failed, ...), or the HTTP
  status the other side answered;
* for an answer of a VIM or of the NFVO (never of a URL an API caller
  chose: that would make the VNF manager a proxy to read other servers),
  the service's own message - its verdict, e.g. Nova's "No valid host was
  found", "Quota exceeded for instances", an NFVO's rejection detail -
  after :func:`scrub` removed whatever looks like a URL, an IP address, a
  ``host:port``, a connection-pool or object dump or an errno.

The library's text goes to the log only (WARNING, with the op occ or
resource id), for operators. Code that *classifies* a foreign text (AZ
reselection reads Heat's raw resource status reasons) reads it before
this module rewords it; only what is shown is scrubbed.
"""

from __future__ import annotations

import http.client
import ipaddress
import re
import socket
import ssl
from collections.abc import Iterator

#: Longest service message shown to a caller (the rest is in the log).
MAX_MESSAGE = 400

_URL = re.compile(r"\b[A-Za-z][A-Za-z0-9+.-]*://[^\s'\"<>)\]]+")
_POOL = re.compile(r"\b\w*ConnectionPool\([^)]*\)")
_OBJECT = re.compile(r"<[\w.]+ object at 0x[0-9A-Fa-f]+>")
_ERRNO = re.compile(r"\[Errno -?\d+\]\s*")
_KEYWORDS = re.compile(r"\b(?:host|port)=(?:'[^']*'|\"[^\"]*\"|[^\s,)]+)")
_USERINFO = re.compile(r"[^\s/@:'\"]+:[^\s/@'\"]+@(?=\S)")
_IPV4 = re.compile(r"(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?::\d{1,5})?(?!\.?\w)")
_IPV6 = re.compile(
    r"\[?(?<![\w:])(?:[0-9A-Fa-f]{0,4}:){2,7}[0-9A-Fa-f]{0,4}"
    r"(?:%\w+)?(?![\w:])\]?(?::\d{1,5}\b)?"
)
_HOST_PORT = re.compile(
    r"(?<![\w.-])(?:localhost|(?:[A-Za-z0-9-]+\.)+[A-Za-z0-9-]+):\d{1,5}\b"
)
#: What client libraries append to a service's message.
_DECORATION = re.compile(r"\s*\((?:HTTP \d{3}|Request-ID: [^)]*)\)")
ADDRESS = "<address>"


def _ipv6(match: re.Match[str]) -> str:
    text = match.group(0)
    core = text.lstrip("[").split("]")[0].split("%")[0]
    if not re.search(r"[0-9A-Fa-f]", core):
        return text
    try:
        ipaddress.IPv6Address(core)
    except ValueError:
        return text
    return ADDRESS


def scrub(text: object, limit: int = MAX_MESSAGE) -> str:
    """``text`` (a service's message) without network addresses, URLs,
    credentials in URLs, connection-pool or object dumps and errnos,
    whitespace collapsed and cut to ``limit`` characters."""
    if text is None:
        return ""
    out = str(text)
    out = _URL.sub("<URL>", out)
    out = _POOL.sub("<connection>", out)
    out = _OBJECT.sub("<object>", out)
    out = _ERRNO.sub("", out)
    out = _KEYWORDS.sub(lambda m: m.group(0).split("=")[0] + "=?", out)
    out = _USERINFO.sub("", out)
    out = _IPV4.sub(ADDRESS, out)
    out = _IPV6.sub(_ipv6, out)
    out = _HOST_PORT.sub(ADDRESS, out)
    out = " ".join(out.split())
    if len(out) > limit:
        out = out[: limit - 3].rstrip() + "..."
    return out


def chain(exc: BaseException) -> Iterator[BaseException]:
    """``exc`` and every error it wraps: ``__cause__``/``__context__``,
    urllib3's ``reason``, requests' ``args``, paramiko's ``errors``."""
    pending: list[object] = [exc]
    seen: set[int] = set()
    while pending:
        err = pending.pop()
        if not isinstance(err, BaseException) or id(err) in seen:
            continue
        seen.add(id(err))
        yield err
        pending.extend(
            [err.__cause__, err.__context__, getattr(err, "reason", None)]
        )
        pending.extend(err.args)
        errors = getattr(err, "errors", None)
        if isinstance(errors, dict):
            pending.extend(errors.values())


def _named(err: BaseException, *names: str) -> bool:
    """Whether ``err``'s class (or a base) has one of ``names`` - the
    libraries' own classes, without importing each library here."""
    return any(cls.__name__ in names for cls in type(err).__mro__)


def transport_failure(exc: BaseException) -> str:
    """How a connection failed, in our words, for an endpoint the
    operator configured (the NFVO, a VIM): an operator can act on
    "refused" or "TLS" where "could not be reached" says nothing."""
    errs = list(chain(exc))
    if any(_named(e, "CatalogException") for e in errs):
        return "its service catalog has no such endpoint"
    if any(_named(e, "DiscoveryFailure") for e in errs):
        return "its API version discovery failed"
    if any(isinstance(e, ssl.SSLError) or _named(e, "SSLError") for e in errs):
        return "the TLS handshake failed"
    if any(isinstance(e, ConnectionRefusedError) for e in errs):
        return "the connection was refused"
    if any(isinstance(e, socket.gaierror) for e in errs):
        return "its host name could not be resolved"
    if any(
        isinstance(
            e,
            ConnectionResetError
            | BrokenPipeError
            | ConnectionAbortedError
            | http.client.RemoteDisconnected,
        )
        or _named(e, "ProtocolError", "ChunkedEncodingError")
        for e in errs
    ):
        return "the connection was closed before an answer"
    if any(
        isinstance(e, TimeoutError)
        or _named(e, "Timeout", "TimeoutError", "ReadTimeoutError")
        for e in errs
    ):
        return "there was no answer in time"
    return "the connection failed"


def http_status(exc: BaseException) -> int | None:
    """The HTTP status a library exception carries (heatclient ``code``,
    novaclient ``code``, keystoneauth ``http_status``, kubernetes
    ``status``, requests' response), else None."""
    for attr in ("http_status", "code", "status", "status_code"):
        value = getattr(exc, attr, None)
        if isinstance(value, int) and 100 <= value <= 599:
            return value
    response = getattr(exc, "response", None)
    value = getattr(response, "status_code", None)
    return value if isinstance(value, int) else None


def service_message(exc: BaseException) -> str:
    """The message the service put in its error answer (scrubbed), as a
    client library parsed it: heatclient's ``error.error.message``, the
    ``message`` of novaclient and keystoneauth; "" when there is none."""
    error = getattr(exc, "error", None)
    message = getattr(exc, "message", None)
    if isinstance(error, dict):
        inner = error.get("error")
        if isinstance(inner, dict) and inner.get("message"):
            message = inner["message"]
    if not isinstance(message, str):
        return ""
    return scrub(_DECORATION.sub("", message))


def answer(exc: BaseException) -> str:
    """ "HTTP <status>[: <service message>]" of an error answer, or how
    the connection failed when there was no answer."""
    status = http_status(exc)
    if status is None:
        return transport_failure(exc)
    message = service_message(exc)
    return f"HTTP {status}: {message}" if message else f"HTTP {status}"
