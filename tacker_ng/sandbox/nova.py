"""The sandbox's simulated Nova (tools/simcloud/nova_lite) as the
reservation service's Nova: one compute host per zone, every host in the
freepool, so that a first lease can start at once.

The ``[reservation_nova]`` keystoneauth options are set as overrides of
this process only (never written to a file): the simulator's admin
password is new at each start.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from keystoneauth1 import loading as ks_loading
from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng import context as tcontext
from tacker_ng.conf import reservation as reservation_conf
from tacker_ng.reservation import exceptions as rsv_exc
from tacker_ng.reservation import hosts as rsv_hosts
from tacker_ng.reservation import nova as rsv_nova
from tacker_ng.sandbox import children

LOG = logging.getLogger(__name__)

SERVE = (
    Path(__file__).resolve().parents[2]
    / "tools"
    / "simcloud"
    / "nova_lite"
    / "serve.py"
)
GROUP = reservation_conf.NOVA_GROUP


def host_names(conf: cfg.ConfigOpts) -> list[str]:
    """``compute-1``.. one per ``[sandbox] zones`` entry."""
    return [f"compute-{i}" for i in range(1, len(conf.sandbox.zones) + 1)]


def start(conf: cfg.ConfigOpts, state: Path) -> tuple:
    """The simulator's child and its ready document."""
    project = conf.api.http_basic_project_id
    argv = [
        sys.executable,
        str(SERVE),
        "--port",
        "0",
        "--project",
        f"{project}={project}",
    ]
    for name, zone in zip(host_names(conf), conf.sandbox.zones, strict=True):
        argv += ["--host", f"{name}:{zone}"]
    child = children.Child("nova_lite", argv, state / "nova_lite.log")
    info = child.ready("NOVA_LITE READY", conf.sandbox.start_timeout)
    return child, info


def use(conf: cfg.ConfigOpts, info: dict[str, Any]) -> None:
    """Point the reservation service at the simulator, with every one of
    its hosts in the freepool (known hosts put back, new ones
    registered)."""
    options = info["reservation_nova"]
    conf.register_opts(
        ks_loading.get_auth_plugin_conf_options(options["auth_type"]),
        group=GROUP,
    )
    for name, value in options.items():
        conf.set_override(name, value, group=GROUP)
    rsv_nova.reset()
    nova = rsv_nova.get_gateway()
    known = {
        h["hypervisor_hostname"]
        for h in rsv_hosts.list_hosts(tcontext.get_admin_context())
    }
    for name in host_names(conf):
        if name in known:
            rsv_hosts.return_to_freepool(nova, name)
            continue
        try:
            rsv_hosts.register(nova, name, {})
        except rsv_exc.HostExists:
            rsv_hosts.return_to_freepool(nova, name)
    LOG.info(
        "Sandbox: simulated Nova hosts %s in the freepool", host_names(conf)
    )
