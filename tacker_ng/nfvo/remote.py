"""SOL003 Grant client for a real NFVO (``[nfvo] mode = remote``).

POST {endpoint}/grant/v1/grants answers 201 with the grant, or 202 with
a Location to poll until the grant is ready; 403 means rejected. Auth is
HTTP basic or OAuth2 client credentials (token cached until it expires).
"""

import threading
import time
import urllib.parse
from typing import Any

import requests
from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng import exceptions
from tacker_ng.nfvo.local import GrantRejected

LOG = logging.getLogger(__name__)
GRANT_API_VERSION = "1.4.0"


class NfvoUnavailable(exceptions.ServiceUnavailable):
    message = "The NFVO could not be reached or failed: {reason}"


class _TokenCache:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._token: str | None = None
        self._expires = 0.0

    def get(self, conf: cfg.ConfigOpts, session: requests.Session) -> str:
        with self._lock:
            if self._token and time.monotonic() < self._expires - 30:
                return self._token
            resp = session.post(
                conf.nfvo.token_endpoint,
                data={"grant_type": "client_credentials"},
                auth=(conf.nfvo.client_id, conf.nfvo.client_secret),
                timeout=conf.nfvo.timeout,
            )
            if resp.status_code != 200:
                raise NfvoUnavailable(
                    reason=f"token endpoint answered {resp.status_code}"
                )
            body = resp.json()
            self._token = body["access_token"]
            self._expires = time.monotonic() + int(body.get("expires_in", 300))
            return self._token


_TOKENS = _TokenCache()


def nfvo_session(
    conf: cfg.ConfigOpts = cfg.CONF,
    api_version: str = GRANT_API_VERSION,
    accept: str = "application/json",
) -> requests.Session:
    """A requests session to the NFVO with its TLS settings and auth
    (``[nfvo]``), for any of its SOL003 APIs (Grant, package management).
    """
    session = requests.Session()
    session.verify = conf.nfvo.ca_file or conf.nfvo.verify_tls
    session.headers.update({"Version": api_version, "Accept": accept})
    if conf.nfvo.auth_type == "basic":
        session.auth = (conf.nfvo.username, conf.nfvo.password)
    elif conf.nfvo.auth_type == "oauth2_client_credentials":
        token = _TOKENS.get(conf, session)
        session.headers["Authorization"] = f"Bearer {token}"
    return session


def _problem(resp: requests.Response) -> str:
    try:
        body = resp.json()
        return body.get("detail") or body.get("title") or resp.text[:300]
    except ValueError:
        return resp.text[:300] or resp.reason


def request_grant(
    grant_request: dict[str, Any], conf: cfg.ConfigOpts = cfg.CONF
) -> dict[str, Any]:
    """Ask the NFVO for a grant; return it or raise (403 -> rejected)."""
    if not conf.nfvo.endpoint:
        raise NfvoUnavailable(reason="[nfvo] endpoint is not set")
    url = conf.nfvo.endpoint.rstrip("/") + "/grant/v1/grants"
    session = nfvo_session(conf)
    try:
        resp = session.post(url, json=grant_request, timeout=conf.nfvo.timeout)
        if resp.status_code == 201:
            return _located(resp.json(), resp.headers.get("Location"), conf)
        if resp.status_code == 202:
            location = resp.headers.get("Location")
            grant = _poll(session, location, url, conf)
            return _located(grant, location, conf)
    except requests.RequestException as exc:
        raise NfvoUnavailable(reason=str(exc)) from exc
    if resp.status_code == 403:
        raise GrantRejected(reason=_problem(resp))
    raise NfvoUnavailable(
        reason=f"POST {url} answered {resp.status_code}: {_problem(resp)}"
    )


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


def _poll(session, location, url, conf) -> dict[str, Any]:
    if not location:
        raise NfvoUnavailable(reason="202 without a Location header")
    location = _absolute(location, conf)
    deadline = time.monotonic() + conf.nfvo.grant_poll_timeout
    delay = 0.5
    while time.monotonic() < deadline:
        resp = session.get(location, timeout=conf.nfvo.timeout)
        if resp.status_code in (200, 201):
            return resp.json()
        if resp.status_code == 403:
            raise GrantRejected(reason=_problem(resp))
        if resp.status_code != 202:
            raise NfvoUnavailable(
                reason=f"GET {location} answered {resp.status_code}"
            )
        time.sleep(min(delay, max(0.0, deadline - time.monotonic())))
        delay = min(delay * 2, 10.0)
    raise NfvoUnavailable(
        reason=f"grant not ready after {conf.nfvo.grant_poll_timeout}s"
    )
