"""Download a CSAR over HTTP(S) into the store, within size and time limits.

Used by the conductor for ``upload_from_uri`` and for packages fetched
from the NFVO. The body is streamed to a file while counting the bytes
actually received (a lying or missing Content-Length changes nothing)
and hashing them; a download that is too large, too slow or refused
leaves no file behind. Messages name the source ("its
addressInformation", "the NFVO ([nfvo] endpoint)"), never its URL; the
URL (without credentials) and the library's text go to the log
(:mod:`tacker_ng.outbound_errors`).
"""

import hashlib
import os
import time
import urllib.parse
from collections.abc import Callable
from pathlib import Path

import requests
import urllib3
from oslo_log import log as logging

from tacker_ng import exceptions, outbound
from tacker_ng.packages.exceptions import InvalidPackage
from tacker_ng.packages.exceptions import PackageProblem as P
from tacker_ng.packages.store import CHECKSUM_ALGORITHM

LOG = logging.getLogger(__name__)
_CHUNK = 256 * 1024
MAX_REDIRECTS = 5


class FetchFailed(exceptions.UnprocessableEntity):
    """The package could not be downloaded."""

    title = "VNF package download failed"
    message = "Downloading the VNF package from {source} failed: {reason}"

    @property
    def http_status(self) -> int | None:
        """The server's answer when it answered something but 200."""
        return self.kwargs.get("http_status")


def safe_url(url: str) -> str:
    """``url`` without user info, query or fragment (for messages)."""
    parts = urllib.parse.urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urllib.parse.urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def _too_large(limit: int) -> InvalidPackage:
    return InvalidPackage(
        f"archive is larger than {limit} bytes", code=P.ARCHIVE_TOO_LARGE
    )


def download(
    session: requests.Session,
    url: str,
    dest: Path,
    limit: int,
    timeout: float,
    max_duration: float,
    renew: Callable[[], None] | None = None,
    renew_every: float = 60.0,
    schemes: tuple[str, ...] = ("http", "https"),
    source: str = "its addressInformation",
) -> tuple[int, dict[str, str]]:
    """GET ``url`` into ``dest``; return ``(size, checksum)``.

    Redirects are followed (at most :data:`MAX_REDIRECTS`) only to
    ``schemes``. Raises :class:`FetchFailed` (unreachable, non-200, too
    slow, bad redirect; naming ``source``, not the URL) or
    :class:`InvalidPackage` (``archive_too_large``).
    """
    shown = source

    def check_redirect(resp: requests.Response, *args, **kwargs) -> None:
        if resp.is_redirect:
            target = urllib.parse.urljoin(
                resp.url, resp.headers.get("Location", "")
            )
            scheme = urllib.parse.urlsplit(target).scheme.lower()
            if scheme not in schemes:
                raise FetchFailed(
                    source=shown,
                    reason=f"it redirects to a {scheme or 'relative'} URI "
                    f"(allowed: {', '.join(schemes)})",
                )

    deadline = time.monotonic() + max_duration
    digest = hashlib.sha512()
    size = 0
    session.max_redirects = MAX_REDIRECTS
    try:
        with session.get(
            url,
            stream=True,
            timeout=(timeout, timeout),
            allow_redirects=True,
            hooks={"response": check_redirect},
            # Bytes as sent: counted and hashed, never inflated by us.
            headers={"Accept-Encoding": "identity"},
        ) as resp:
            if resp.status_code != 200:
                raise FetchFailed(
                    source=shown,
                    reason=f"the server answered {resp.status_code}",
                    http_status=resp.status_code,
                )
            declared = resp.headers.get("Content-Length")
            if declared and declared.isdigit() and int(declared) > limit:
                raise _too_large(limit)
            last_renew = time.monotonic()
            fd = os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o640)
            with os.fdopen(fd, "wb") as out:
                # read1: one socket read at most, so the deadline is
                # checked at least every ``timeout`` seconds even when
                # the server trickles bytes.
                while chunk := resp.raw.read1(_CHUNK, decode_content=False):
                    size += len(chunk)
                    if size > limit:
                        raise _too_large(limit)
                    if time.monotonic() > deadline:
                        raise FetchFailed(
                            source=shown,
                            reason=f"it took longer than {max_duration:g} s",
                        )
                    digest.update(chunk)
                    out.write(chunk)
                    if renew and time.monotonic() - last_renew >= renew_every:
                        renew()
                        last_renew = time.monotonic()
    except (requests.RequestException, urllib3.exceptions.HTTPError) as exc:
        dest.unlink(missing_ok=True)
        LOG.warning(
            "Download of a VNF package from %s failed: %s", safe_url(url), exc
        )
        raise FetchFailed(source=shown, reason=_describe(exc)) from None
    except BaseException:
        dest.unlink(missing_ok=True)
        raise
    return size, {"algorithm": CHECKSUM_ALGORITHM, "hash": digest.hexdigest()}


def _describe(exc: Exception) -> str:
    """A reason without URLs (they may carry credentials), and without
    telling a refused connection from an unanswered one (the caller
    chose the URL: no port scanning through the VNFM)."""
    if outbound.is_policy_refusal(exc):
        return "its address is not allowed by the outbound policy"
    if isinstance(exc, requests.exceptions.SSLError):
        return "TLS verification failed"
    if isinstance(exc, requests.ConnectionError):
        return "the server could not be reached"
    if isinstance(exc, requests.Timeout | urllib3.exceptions.TimeoutError):
        return "the server did not answer in time"
    if isinstance(exc, requests.TooManyRedirects):
        return f"more than {MAX_REDIRECTS} redirects"
    if isinstance(exc, requests.exceptions.InvalidSchema):
        return "a redirect led to an unsupported URI scheme"
    if isinstance(exc, urllib3.exceptions.ProtocolError):
        return "the connection broke during the download"
    return "the download failed"
