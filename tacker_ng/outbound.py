"""Outbound HTTP to URLs a caller chose: one policy for all of them.

A subscription's ``callbackUri`` (and its OAuth2 token endpoint) and a
package's ``upload_from_uri`` make the VNFM open connections that an API
caller decided. Without a policy that is a way into the VNFM's own
network: loopback services, link-local cloud metadata, and a port scanner
whose answers are the socket errors. So:

* only the schemes the use allows (http/https);
* the host name is resolved and every address checked against
  ``[DEFAULT] outbound_deny_networks`` before a request, and each TCP
  connection is checked again when it is opened (a name that resolves
  elsewhere the second time - DNS rebinding - or a redirect to a denied
  address is refused there);
* a URL with user info (``user:password@`` or ``user@``) is refused
  (400): SOL013 puts credentials in the ``authentication`` structure,
  where they are sealed and never shown; in a URL they would be stored,
  echoed in every GET and sent as Basic auth;
* failures reach the caller as "could not be reached", one message for
  refused, timed out or unresolvable; the precise reason goes to the log.

:func:`client_cert` reads the client certificate options of a config
section, for the outbound calls that present one (mutual TLS).
"""

from __future__ import annotations

import ipaddress
import os
import socket
import urllib.parse
from collections.abc import Iterable

import requests
from oslo_config import cfg
from oslo_log import log as logging
from requests import adapters
from urllib3 import connection as u3_connection
from urllib3 import connectionpool

from tacker_ng import exceptions

LOG = logging.getLogger(__name__)

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class DeniedAddress(exceptions.BadRequest):
    """The URL's host is, or resolves to, an address the policy denies."""

    message = (
        "{what} points to an address the VNF manager is not allowed to "
        "reach (see [DEFAULT] outbound_deny_networks)."
    )


class BadOutboundUrl(exceptions.BadRequest):
    message = "{what} must be an absolute {schemes} URI with a host."


class CredentialsInUrl(exceptions.BadRequest):
    """The URL carries user info; SOL013 wants it in ``authentication``."""

    message = (
        "{what} must not carry credentials (user:password@ or user@ "
        "before the host): give them in {instead} (SOL013)."
    )


class ClientCertUnreadable(exceptions.TackerNgError):
    """A configured client certificate or key file cannot be read: a
    fault of the VNF manager's configuration, not of the caller."""

    title = "Configuration Error"
    message = (
        "The VNF manager cannot read its client certificate for {what} "
        "([{group}] {option}); see its log."
    )


def deny_networks(conf: cfg.ConfigOpts = cfg.CONF) -> list[Network]:
    """The configured denied networks, parsed."""
    return [
        ipaddress.ip_network(net, strict=False)
        for net in conf.outbound_deny_networks
    ]


def is_denied(address: str, networks: Iterable[Network]) -> bool:
    """True when ``address`` (IPv4/IPv6 text) is in a denied network.

    IPv4-mapped IPv6 addresses (``::ffff:127.0.0.1``) are checked as the
    IPv4 address they carry.
    """
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped:
        ip = ip.ipv4_mapped
    return any(ip.version == net.version and ip in net for net in networks)


def _resolve(host: str, port: int) -> list[str]:
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [info[4][0] for info in infos]


def has_userinfo(url: str) -> bool:
    """Whether ``url`` names a user (and maybe a password) before its
    host: ``scheme://user:password@host/`` or ``scheme://user@host/``."""
    try:
        return "@" in urllib.parse.urlsplit(url).netloc
    except ValueError:
        return False


def check_url(
    url: str,
    what: str,
    schemes: Iterable[str] = ("http", "https"),
    conf: cfg.ConfigOpts = cfg.CONF,
    credentials_in: str = "authentication",
) -> None:
    """400 unless ``url`` has an allowed scheme, no user info (the
    credentials belong in ``credentials_in``) and a host whose every
    address is allowed. An unresolvable name passes here (it fails, in
    the same words as any unreachable host, when used)."""
    schemes = tuple(s.lower() for s in schemes)
    bad = BadOutboundUrl(what=what, schemes=" or ".join(schemes))
    if has_userinfo(url):
        raise CredentialsInUrl(what=what, instead=credentials_in)
    try:
        parts = urllib.parse.urlsplit(url)
        port = parts.port or (443 if parts.scheme.lower() == "https" else 80)
        if parts.hostname:
            # A name that IDNA cannot encode (a label over 63 octets, an
            # empty label) is no host name; connecting would fail oddly.
            parts.hostname.encode("idna")
    except (ValueError, UnicodeError) as exc:
        raise bad from exc
    if parts.scheme.lower() not in schemes or not parts.hostname:
        raise bad
    networks = deny_networks(conf)
    try:
        addresses = _resolve(parts.hostname, port)
    except (OSError, UnicodeError):
        return
    if any(is_denied(a, networks) for a in addresses):
        LOG.warning(
            "Refused %s %s: it resolves to %s, in [DEFAULT] "
            "outbound_deny_networks",
            what,
            parts.hostname,
            ", ".join(sorted(set(addresses))),
        )
        raise DeniedAddress(what=what)


class _DeniedConnection(OSError):
    """Raised inside urllib3 when a connection's peer is denied."""


def _guarded_connect(
    address: tuple[str, int],
    timeout: float | None,
    source_address: tuple[str, int] | None,
    socket_options,
    networks: list[Network],
) -> socket.socket:
    host, port = address
    last: OSError | None = None
    for family, kind, proto, _, sockaddr in socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM
    ):
        if is_denied(sockaddr[0], networks):
            last = _DeniedConnection(f"{sockaddr[0]} is denied by policy")
            continue
        sock = socket.socket(family, kind, proto)
        try:
            for opt in socket_options or ():
                sock.setsockopt(*opt)
            if timeout is not None:
                sock.settimeout(timeout)
            if source_address:
                sock.bind(source_address)
            sock.connect(sockaddr)
            return sock
        except OSError as exc:
            last = exc
            sock.close()
    raise last or OSError(f"no address for {host}")


def _connection_classes(networks: list[Network]):
    class GuardedHTTPConnection(u3_connection.HTTPConnection):
        def _new_conn(self) -> socket.socket:
            return _guarded_connect(
                (self._dns_host, self.port),
                self.timeout,
                self.source_address,
                self.socket_options,
                networks,
            )

    class GuardedHTTPSConnection(u3_connection.HTTPSConnection):
        def _new_conn(self) -> socket.socket:
            return _guarded_connect(
                (self._dns_host, self.port),
                self.timeout,
                self.source_address,
                self.socket_options,
                networks,
            )

    class GuardedHTTPPool(connectionpool.HTTPConnectionPool):
        ConnectionCls = GuardedHTTPConnection

    class GuardedHTTPSPool(connectionpool.HTTPSConnectionPool):
        ConnectionCls = GuardedHTTPSConnection

    return {"http": GuardedHTTPPool, "https": GuardedHTTPSPool}


class GuardedAdapter(adapters.HTTPAdapter):
    """requests adapter whose every TCP connection obeys the policy."""

    def __init__(self, networks: list[Network], **kwargs) -> None:
        self._pools = _connection_classes(networks)
        super().__init__(**kwargs)

    def init_poolmanager(self, *args, **kwargs) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = dict(self._pools)


class Session(requests.Session):
    """A requests session whose own ``verify`` (a configured CA file)
    is obeyed: plain requests lets ``REQUESTS_CA_BUNDLE`` or
    ``CURL_CA_BUNDLE`` in the environment win over ``session.verify``
    (psf/requests#3829), which silently ignored ``[nfvo] ca_file`` and
    ``[vnf_package] upload_from_uri_ca_file`` on such hosts."""

    def merge_environment_settings(self, url, proxies, stream, verify, cert):
        if verify is None:
            verify = self.verify
        return super().merge_environment_settings(
            url, proxies, stream, verify, cert
        )


def session(conf: cfg.ConfigOpts = cfg.CONF) -> requests.Session:
    """A requests session for caller-chosen URLs (policy enforced)."""
    sess = Session()
    adapter = GuardedAdapter(deny_networks(conf))
    sess.mount("http://", adapter)
    sess.mount("https://", adapter)
    return sess


def is_policy_refusal(exc: BaseException) -> bool:
    """True when ``exc``, or an error it wraps (requests wraps urllib3,
    which wraps the socket's), is a refusal by the policy."""
    pending: list[object] = [exc]
    seen: set[int] = set()
    while pending:
        err = pending.pop()
        if not isinstance(err, BaseException) or id(err) in seen:
            continue
        seen.add(id(err))
        if isinstance(err, _DeniedConnection):
            return True
        pending.extend(
            [err.__cause__, err.__context__, getattr(err, "reason", None)]
        )
        pending.extend(err.args)
    return False


def client_cert(
    group: str,
    what: str,
    conf: cfg.ConfigOpts = cfg.CONF,
    cert_option: str = "client_cert_file",
    key_option: str = "client_key_file",
) -> str | tuple[str, str] | None:
    """The client certificate of ``[group]`` as requests and keystoneauth
    take it (``cert=``): the PEM file, or (certificate, key) when the key
    is a file of its own; None when none is configured. A file that
    cannot be read is :class:`ClientCertUnreadable` (500) before any
    connection, logged with its path (the caller learns the option)."""
    section = conf[group]
    cert, key = section[cert_option], section[key_option]
    if not cert:
        if key:
            LOG.warning(
                "[%s] %s is set without %s", group, key_option, cert_option
            )
        return None
    for option, path in ((cert_option, cert), (key_option, key)):
        if path and not os.access(path, os.R_OK):
            LOG.error(
                "[%s] %s: %s is not a readable file", group, option, path
            )
            raise ClientCertUnreadable(what=what, group=group, option=option)
    return (cert, key) if key else cert
