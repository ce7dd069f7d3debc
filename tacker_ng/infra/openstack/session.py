"""Keystone v3 sessions from vimConnectionInfo (OPENSTACK_KEYSTONE.V_3).

``interfaceInfo.endpoint`` is the Keystone URL; ``accessInfo`` carries
``username``/``password``, ``project`` (or ``projectId``),
``projectDomain``, ``userDomain`` and ``region``. TLS: ``interfaceInfo.
skipCertificateVerification`` or a PEM ``interfaceInfo.ssl_ca_cert``.
Passwords are never logged. The session times every HTTP call so that
the driver's own overhead can be measured (tools/bench).
"""

import dataclasses
import os
import tempfile
import threading
import time
import weakref
from typing import Any

from keystoneauth1 import session as ks_session
from keystoneauth1.identity import v3
from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng.infra import base
from tacker_ng.infra.openstack import errors

LOG = logging.getLogger(__name__)
VIM_TYPE = "ETSINFV.OPENSTACK_KEYSTONE.V_3"
CONNECT_RETRIES = 3
#: Seconds one HTTP request to Keystone, Heat or Nova may take.
HTTP_TIMEOUT = 120


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

    def __init__(self, *args: Any, timer: CallTimer | None = None, **kw):
        super().__init__(*args, **kw)
        self.timer = timer or CallTimer()
        self._depth = threading.local()

    def request(self, *args: Any, **kwargs: Any):
        depth = getattr(self._depth, "n", 0)
        self._depth.n = depth + 1
        start = time.perf_counter()
        try:
            return super().request(*args, **kwargs)
        finally:
            self._depth.n = depth
            if depth == 0:
                self.timer.add(time.perf_counter() - start)


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
        task.instance.get("vimConnectionInfo"),
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
    vim: dict[str, Any], timer: CallTimer | None = None
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
    session = TimedSession(
        auth=v3.Password(**auth_args),
        verify=_verify(interface, holder),
        timer=timer,
        # A reused keep-alive connection the server just closed fails with
        # "Remote end closed connection"; retry such connection errors.
        connect_retries=CONNECT_RETRIES,
        timeout=HTTP_TIMEOUT,
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
