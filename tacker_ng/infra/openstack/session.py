"""Keystone v3 sessions from vimConnectionInfo (OPENSTACK_KEYSTONE.V_3).

``interfaceInfo.endpoint`` is the Keystone URL; ``accessInfo`` carries
``username``/``password``, ``project`` (or ``projectId``),
``projectDomain``, ``userDomain`` and ``region``. TLS: ``interfaceInfo.
skipCertificateVerification`` or a PEM ``interfaceInfo.ssl_ca_cert``;
``[openstack] client_cert_file`` is presented to every VIM (mutual TLS).
Passwords are never logged. A failure names the VIM by its vimId and the
service, never its URL (:mod:`tacker_ng.outbound_errors`). Sessions of
the same credentials share one token (auth_cache). The session times
every HTTP call so that the driver's own overhead can be measured
(tools/bench).
"""

import dataclasses
import os
import tempfile
import threading
import time
import weakref
from typing import Any

from keystoneauth1 import exceptions as ks_exc
from keystoneauth1 import session as ks_session
from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng import outbound, outbound_errors
from tacker_ng.infra import base
from tacker_ng.infra.openstack import auth_cache, errors
from tacker_ng.objects import vim_refs

LOG = logging.getLogger(__name__)
VIM_TYPE = "ETSINFV.OPENSTACK_KEYSTONE.V_3"
#: Attempts after a refused or reset connection (a reused keep-alive
#: connection the server just closed fails that way). Timeouts are not
#: retried: the configured timeout is the whole wait.
CONNECT_RETRIES = 3
#: First pause before such a retry (doubled each time), seconds.
CONNECT_RETRY_DELAY = 0.2
#: Catalog service types, as an operator names the services.
_SERVICES = {
    "identity": "Keystone",
    "compute": "Nova",
    "orchestration": "Heat",
    "image": "Glance",
    "volumev3": "Cinder",
    "block-storage": "Cinder",
    "volume": "Cinder",
    "placement": "Placement",
}


def _service(kwargs: dict[str, Any]) -> str:
    """Which service of the VIM a request goes to (Keystone for the
    token requests, which name no catalog entry)."""
    wanted = kwargs.get("endpoint_filter") or {}
    kind = wanted.get("service_type") or kwargs.get("service_type")
    return _SERVICES.get(kind, kind) if kind else "Keystone"


@dataclasses.dataclass
class CallTimer:
    """Seconds spent inside HTTP calls to the VIM, and how many."""

    seconds: float = 0.0
    calls: int = 0
    _lock: threading.Lock = dataclasses.field(
        default_factory=threading.Lock, repr=False
    )

    def add(self, seconds: float) -> None:
        with self._lock:
            self.seconds += seconds
            self.calls += 1


class TimedSession(ks_session.Session):
    """A keystoneauth1 session that adds each request's time to a timer.

    Only the outermost request of a thread is timed: fetching a token
    happens inside the request that needs it and must not count twice.
    """

    def __init__(
        self,
        *args: Any,
        timer: CallTimer | None = None,
        timeouts: tuple[float, float] | None = None,
        vim_name: str = "the VIM",
        **kw,
    ):
        super().__init__(*args, **kw)
        #: How errors name the VIM ("VIM <vimId>"), never by its URL.
        self.vim_name = vim_name
        self.timer = timer or CallTimer()
        #: (connect, read) seconds of every request (requests' pair).
        self.timeouts = timeouts
        self._depth = threading.local()

    def request(self, *args: Any, **kwargs: Any):
        depth = getattr(self._depth, "n", 0)
        self._depth.n = depth + 1
        start = time.perf_counter()
        try:
            return self._bounded(*args, **kwargs)
        finally:
            self._depth.n = depth
            if depth == 0:
                self.timer.add(time.perf_counter() - start)

    def _bounded(self, *args: Any, **kwargs: Any):
        """The request with the configured timeouts; a VIM that does not
        answer in time (or keeps refusing) is :class:`VimUnreachable`.
        keystoneauth's text (it holds the URL) is logged only."""
        if self.timeouts is not None:
            kwargs.setdefault("timeout", self.timeouts)
        service = f"{_service(kwargs)} of {self.vim_name}"
        delay = CONNECT_RETRY_DELAY
        for attempt in range(CONNECT_RETRIES + 1):
            try:
                return super().request(*args, **kwargs)
            except ks_exc.Unauthorized as exc:
                LOG.warning("%s refused the credentials: %s", service, exc)
                raise errors.VimAuthRefused(
                    vim=self.vim_name,
                    reason=f"Keystone answered HTTP {exc.http_status or 401}",
                ) from exc
            except ks_exc.http.HttpError as exc:
                if (exc.http_status or 0) < 500:
                    raise
                LOG.warning("%s failed: %s", service, exc)
                raise errors.VimError(
                    reason=f"{service} answered {outbound_errors.answer(exc)}"
                ) from exc
            except ks_exc.ConnectTimeout as exc:
                LOG.warning("%s did not answer: %s", service, exc)
                raise errors.VimUnreachable(
                    vim=self.vim_name,
                    reason=f"{_service(kwargs)} gave no answer within "
                    f"{_seconds(self.timeouts)}",
                ) from exc
            except ks_exc.SSLError as exc:
                LOG.warning("%s: TLS failed: %s", service, exc)
                raise errors.VimUnreachable(
                    vim=self.vim_name,
                    reason=f"the TLS handshake with {_service(kwargs)} failed",
                ) from exc
            except ks_exc.ConnectionError as exc:
                if attempt == CONNECT_RETRIES:
                    LOG.warning("%s could not be reached: %s", service, exc)
                    raise errors.VimUnreachable(
                        vim=self.vim_name,
                        reason=f"the connection to {_service(kwargs)} "
                        f"failed {attempt + 1} times "
                        f"({outbound_errors.transport_failure(exc)})",
                    ) from exc
                LOG.debug("VIM connection failed (%s); retrying", exc)
                time.sleep(delay)
                delay *= 2
        raise AssertionError("unreachable")


def _seconds(timeouts: tuple[float, float] | None) -> str:
    if timeouts is None:
        return "the HTTP timeout"
    return (
        f"{timeouts[0]:g} s to connect and {timeouts[1]:g} s to reply "
        "([openstack] connect_timeout, read_timeout)"
    )


def _default_vim(conf: cfg.ConfigOpts) -> dict[str, Any] | None:
    if not conf.vim.auth_url:
        return None
    access = {
        "username": conf.vim.username,
        "password": conf.vim.password,
        "project": conf.vim.project_name,
        "userDomain": conf.vim.user_domain_name,
        "projectDomain": conf.vim.project_domain_name,
    }
    if conf.vim.region_name:
        access["region"] = conf.vim.region_name
    return {
        "vimId": "default",
        "vimType": conf.vim.default_vim_type,
        "interfaceInfo": {
            "endpoint": conf.vim.auth_url,
            "skipCertificateVerification": not conf.vim.verify_tls,
        },
        "accessInfo": access,
    }


def vim_of(
    task: base.LcmTask, conf: cfg.ConfigOpts = cfg.CONF
) -> tuple[str, dict[str, Any]]:
    """(vimConnectionId, VimConnectionInfo) the operation runs on.

    The Grant's vimConnectionInfo wins (a remote NFVO may give one), then
    the instance's (the one the grant names, else the first id), then
    the ``[vim]`` default.
    """
    named = None
    for item in (task.grant.get("zones") or []) + (
        task.grant.get("addResources") or []
    ):
        named = named or item.get("vimConnectionId")
    for source in (
        task.grant.get("vimConnectionInfo"),
        vim_refs.runs_on(task.instance.get("vimConnectionInfo")),
    ):
        if source:
            vim_id = named if named in source else sorted(source)[0]
            return vim_id, source[vim_id]
    vim = _default_vim(conf)
    if vim is None:
        raise errors.InvalidVimConnection(
            reason="the instance has no vimConnectionInfo and [vim] "
            "auth_url is not set"
        )
    return "default", vim


def _verify(interface: dict[str, Any], owner: object) -> bool | str:
    if interface.get("skipCertificateVerification"):
        return False
    pem = interface.get("ssl_ca_cert")
    if not pem:
        return True
    fd, path = tempfile.mkstemp(prefix="tacker-ng-ca-", suffix=".pem")
    with os.fdopen(fd, "w") as out:
        out.write(pem)
    weakref.finalize(owner, os.unlink, path)
    return path


def make_session(
    vim: dict[str, Any],
    timer: CallTimer | None = None,
    conf: cfg.ConfigOpts = cfg.CONF,
) -> tuple[TimedSession, str | None]:
    """A session (and the region) for a VimConnectionInfo."""
    vim_type = vim.get("vimType")
    if vim_type not in (None, VIM_TYPE):
        raise errors.InvalidVimConnection(
            reason=f"vimType {vim_type} is not {VIM_TYPE}"
        )
    interface = vim.get("interfaceInfo") or {}
    access = vim.get("accessInfo") or {}
    endpoint = interface.get("endpoint")
    missing = [k for k in ("username", "password") if not access.get(k)] + (
        [] if endpoint else ["interfaceInfo.endpoint"]
    )
    if not (access.get("project") or access.get("projectId")):
        missing.append("project")
    if missing:
        raise errors.InvalidVimConnection(
            reason=f"missing {', '.join(missing)}"
        )
    auth_args = {
        "auth_url": endpoint,
        "username": access["username"],
        "password": access["password"],
        "user_domain_name": access.get("userDomain", "Default"),
    }
    if access.get("projectId"):
        auth_args["project_id"] = access["projectId"]
    else:
        auth_args["project_name"] = access["project"]
        auth_args["project_domain_name"] = access.get(
            "projectDomain", "Default"
        )
    holder = _Holder()
    cert = outbound.client_cert("openstack", "OpenStack VIMs", conf)
    tls = [
        bool(interface.get("skipCertificateVerification")),
        interface.get("ssl_ca_cert") or "",
        cert or "",
    ]
    session = TimedSession(
        auth=auth_cache.password_plugin(auth_args, tls),
        verify=_verify(interface, holder),
        cert=cert,
        vim_name=f"VIM {vim['vimId']}" if vim.get("vimId") else "the VIM",
        timer=timer,
        # Connection failures are retried by TimedSession (not timeouts).
        timeouts=(conf.openstack.connect_timeout, conf.openstack.read_timeout),
        app_name="tacker-ng",
    )
    session._tacker_ng_holder = holder
    LOG.debug(
        "Keystone session for %s as %s in project %s",
        endpoint,
        access["username"],
        access.get("project") or access.get("projectId"),
    )
    return session, access.get("region")


class _Holder:
    """Lives as long as the session; removes a temporary CA file after."""
