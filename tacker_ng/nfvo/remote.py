"""SOL003 Grant client for a real NFVO (``[nfvo] mode = remote``).

POST {endpoint}/grant/v1/grants answers 201 with the grant, or 202 with
a Location to poll until the grant is ready; 403 means rejected. Auth is
HTTP basic or OAuth2 client credentials (token cached until it expires);
``[nfvo] client_cert_file`` adds a client certificate (mutual TLS).

Failures reach the op occ's ``error`` in the words of
:mod:`tacker_ng.outbound_errors`: "the NFVO ([nfvo] endpoint)", how it
failed or the HTTP status it answered, and the NFVO's own ProblemDetails
detail (scrubbed); never its URL, host or port, nor requests' text,
which is logged with the op occ id.
"""

import threading
import time
import urllib.parse
from typing import Any

import requests
from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng import exceptions, outbound, outbound_errors
from tacker_ng.nfvo.local import GrantRejected

LOG = logging.getLogger(__name__)
GRANT_API_VERSION = "1.4.0"


class NfvoUnavailable(exceptions.ServiceUnavailable):
    """A request to the NFVO failed; ``what`` says which, ``where`` the
    option that names the endpoint."""

    message = "{what} to the NFVO ({where}) failed: {reason}."

    def __init__(
        self,
        detail: str | None = None,
        *,
        reason: str = "see the conductor log",
        what: str = "A request",
        where: str = "[nfvo] endpoint",
        **kwargs: Any,
    ) -> None:
        super().__init__(
            detail, reason=reason, what=what, where=where, **kwargs
        )


def failed(
    what: str,
    exc: BaseException,
    where: str = "[nfvo] endpoint",
    about: str = "",
) -> NfvoUnavailable:
    """NfvoUnavailable for a request that got no answer (``exc`` is
    requests'); its text is logged, with ``about`` (e.g. the op occ)."""
    LOG.warning("%s to the NFVO failed%s: %s", what, about, exc)
    return NfvoUnavailable(
        what=what,
        where=where,
        reason=outbound_errors.transport_failure(exc),
    )


def answered(what: str, resp: requests.Response, about: str = "") -> str:
    """The reason for an unexpected answer: its status and the NFVO's
    detail (scrubbed); the raw body is logged."""
    detail = _problem(resp)
    LOG.warning(
        "%s to the NFVO%s: HTTP %s %s",
        what,
        about,
        resp.status_code,
        resp.text[:1000],
    )
    return f"it answered HTTP {resp.status_code}" + (
        f": {detail}" if detail else ""
    )


class _TokenCache:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._token: str | None = None
        self._expires = 0.0

    def get(self, conf: cfg.ConfigOpts, session: requests.Session) -> str:
        what = "The OAuth2 token request"
        where = "[nfvo] token_endpoint"
        with self._lock:
            if self._token and time.monotonic() < self._expires - 30:
                return self._token
            try:
                resp = session.post(
                    conf.nfvo.token_endpoint,
                    data={"grant_type": "client_credentials"},
                    auth=(conf.nfvo.client_id, conf.nfvo.client_secret),
                    timeout=conf.nfvo.timeout,
                )
            except requests.RequestException as exc:
                raise failed(what, exc, where) from exc
            if resp.status_code != 200:
                raise NfvoUnavailable(
                    what=what,
                    where=where,
                    reason=f"it answered HTTP {resp.status_code}",
                )
            try:
                body = resp.json()
                token = str(body["access_token"])
                expires_in = int(body.get("expires_in", 300))
            except (ValueError, TypeError, KeyError) as exc:
                raise NfvoUnavailable(
                    what=what,
                    where=where,
                    reason="its answer holds no access_token",
                ) from exc
            self._token = token
            self._expires = time.monotonic() + expires_in
            return self._token


_TOKENS = _TokenCache()


def nfvo_session(
    conf: cfg.ConfigOpts = cfg.CONF,
    api_version: str = GRANT_API_VERSION,
    accept: str = "application/json",
) -> requests.Session:
    """A requests session to the NFVO with its TLS settings (CA, client
    certificate) and auth (``[nfvo]``), for any of its SOL003 APIs
    (Grant, package management)."""
    session = outbound.Session()
    session.verify = conf.nfvo.ca_file or conf.nfvo.verify_tls
    session.cert = outbound.client_cert("nfvo", "the NFVO", conf)
    session.headers.update({"Version": api_version, "Accept": accept})
    if conf.nfvo.auth_type == "basic":
        session.auth = (conf.nfvo.username, conf.nfvo.password)
    elif conf.nfvo.auth_type == "oauth2_client_credentials":
        token = _TOKENS.get(conf, session)
        session.headers["Authorization"] = f"Bearer {token}"
    return session


def _problem(resp: requests.Response) -> str:
    """The NFVO's ProblemDetails ``detail`` (or ``title``), scrubbed; an
    answer that is no ProblemDetails (a proxy's page) is not shown."""
    try:
        body = resp.json()
    except ValueError:
        return ""
    if not isinstance(body, dict):
        return ""
    return outbound_errors.scrub(body.get("detail") or body.get("title"))


def request_grant(
    grant_request: dict[str, Any], conf: cfg.ConfigOpts = cfg.CONF
) -> dict[str, Any]:
    """Ask the NFVO for a grant; return it or raise (403 -> rejected)."""
    what = "The grant request"
    about = f" (op occ {grant_request.get('vnfLcmOpOccId')})"
    if not conf.nfvo.endpoint:
        raise NfvoUnavailable(what=what, reason="the option is not set")
    url = conf.nfvo.endpoint.rstrip("/") + "/grant/v1/grants"
    session = nfvo_session(conf)
    try:
        resp = session.post(url, json=grant_request, timeout=conf.nfvo.timeout)
        if resp.status_code == 201:
            return _located(resp.json(), resp.headers.get("Location"), conf)
        if resp.status_code == 202:
            location = resp.headers.get("Location")
            grant = _poll(session, location, about, conf)
            return _located(grant, location, conf)
    except requests.exceptions.JSONDecodeError as exc:
        LOG.warning("%s to the NFVO%s: not JSON: %s", what, about, exc)
        raise NfvoUnavailable(
            what=what, reason="its answer is not a JSON grant"
        ) from exc
    except requests.RequestException as exc:
        raise failed(what, exc, about=about) from exc
    if resp.status_code == 403:
        raise GrantRejected(reason=_problem(resp) or "no reason given")
    raise NfvoUnavailable(what=what, reason=answered(what, resp, about))


def _absolute(href: str, conf: cfg.ConfigOpts) -> str:
    """``href`` made absolute: a path is taken under ``[nfvo] endpoint``
    (which may carry a path prefix)."""
    endpoint = conf.nfvo.endpoint.rstrip("/")
    if href.startswith("/"):
        return endpoint + href
    return urllib.parse.urljoin(endpoint + "/", href)


def grant_href(
    grant: dict[str, Any], conf: cfg.ConfigOpts = cfg.CONF
) -> str | None:
    """Where the NFVO keeps ``grant`` (what an op occ's ``_links.grant``
    points at): its ``_links.self`` as :func:`request_grant` left it,
    else the SOL003 resource URI under ``[nfvo] endpoint``."""
    href = ((grant.get("_links") or {}).get("self") or {}).get("href")
    if href:
        return _absolute(href, conf)
    if grant.get("id"):
        return _absolute(f"/grant/v1/grants/{grant['id']}", conf)
    return None


def _located(
    grant: dict[str, Any], location: str | None, conf: cfg.ConfigOpts
) -> dict[str, Any]:
    """The grant with ``_links.self`` set to the absolute Location the
    NFVO answered (SOL003: the URI of the individual grant it created),
    so that the op occ can link to it; a relative self link is made
    absolute. Kept in the stored grant."""
    links = grant.get("_links")
    if not isinstance(links, dict):
        links = grant["_links"] = {}
    self_link = links.get("self") or {}
    href = location or self_link.get("href")
    if href:
        links["self"] = {**self_link, "href": _absolute(href, conf)}
    return grant


def _poll(session, location, about, conf) -> dict[str, Any]:
    what = "Polling the grant"
    if not location:
        raise NfvoUnavailable(
            what="The grant request",
            reason="it answered 202 without a Location header",
        )
    location = _absolute(location, conf)
    deadline = time.monotonic() + conf.nfvo.grant_poll_timeout
    delay = 0.5
    while time.monotonic() < deadline:
        resp = session.get(location, timeout=conf.nfvo.timeout)
        if resp.status_code in (200, 201):
            return resp.json()
        if resp.status_code == 403:
            raise GrantRejected(reason=_problem(resp) or "no reason given")
        if resp.status_code != 202:
            raise NfvoUnavailable(
                what=what, reason=answered(what, resp, about)
            )
        time.sleep(min(delay, max(0.0, deadline - time.monotonic())))
        delay = min(delay * 2, 10.0)
    raise NfvoUnavailable(
        what=what,
        reason=f"the grant was not ready after "
        f"{conf.nfvo.grant_poll_timeout} s ([nfvo] grant_poll_timeout)",
    )
