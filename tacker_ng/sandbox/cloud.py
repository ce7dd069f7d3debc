"""Start the sandbox's simulated cloud and make it tacker-ng's default.

* simk8s (tools/simcloud/k8s): a Kubernetes API with ``[sandbox]
  kubernetes_nodes`` nodes labelled with the zones in turn, registered as
  the default VIM ``sandbox`` of the embedded project (replaced at each
  start: the simulator's certificate and token are new each time).
* a simulated Nova (tools/simcloud/nova_lite) with one compute host per
  zone, set as the reservation service's Nova (``[reservation_nova]``).
"""

from __future__ import annotations

import dataclasses
import importlib.util
import sys
from pathlib import Path
from typing import Any

from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng import context as tcontext
from tacker_ng import crypto
from tacker_ng.db import api as db_api
from tacker_ng.db import vim_registry
from tacker_ng.objects import tacker_vim
from tacker_ng.sandbox import children, nova

LOG = logging.getLogger(__name__)

#: The sandbox VIM's id and name in the registry.
VIM_ID = "sandbox-kubernetes"
VIM_NAME = "sandbox"
#: The source checkout (an editable install) holds the simulators.
REPO = Path(__file__).resolve().parents[2]
SIMK8S = REPO / "tools" / "simcloud" / "k8s" / "simk8s.py"


class SandboxUnavailable(RuntimeError):
    """The sandbox cannot start here (said in the operator's terms)."""


@dataclasses.dataclass
class Sandbox:
    """The running simulators and what tacker-ng was told about them."""

    state_dir: Path
    kubernetes: dict[str, Any]
    nova: dict[str, Any] | None
    running: list[children.Child]

    def stop(self) -> None:
        for child in reversed(self.running):
            child.stop()


def _check_checkout() -> None:
    if not SIMK8S.exists():
        raise SandboxUnavailable(
            "the sandbox needs a source checkout of tacker-ng (its "
            f"simulators live in tools/simcloud; {SIMK8S} is missing)"
        )
    if not nova.SERVE.exists():
        raise SandboxUnavailable(
            f"the sandbox's simulated Nova is missing ({nova.SERVE})"
        )
    for module in ("aiohttp", "kubernetes_validate"):
        # Looked up, not imported: only the simulators use them.
        if importlib.util.find_spec(module) is None:
            raise SandboxUnavailable(
                f"the sandbox's simulators need {module}: install "
                "tacker-ng with its 'sandbox' extra (pip install -e "
                ".[sandbox]; tools/run-embedded.sh --sandbox does)"
            )


def _start_kubernetes(conf: cfg.ConfigOpts, state: Path) -> tuple:
    opts = conf.sandbox
    argv = [
        sys.executable,
        str(SIMK8S),
        "serve",
        "--state-dir",
        str(state / "k8s"),
        "--bind",
        "127.0.0.1",
        "--port",
        "0",
        "--nodes",
        str(opts.kubernetes_nodes),
        "--label",
        "kubernetes.io/zone=" + ",".join(opts.zones),
    ]
    child = children.Child("simk8s", argv, state / "simk8s.log")
    info = child.ready("SIMK8S READY", opts.start_timeout)
    return child, info


def kubernetes_vim(info: dict[str, Any]) -> dict[str, Any]:
    """The simulated cluster as a VimConnectionInfo (secrets in clear)."""
    return {
        "vimType": tacker_vim.KUBERNETES,
        "interfaceInfo": {
            "endpoint": info["endpoint"],
            "ssl_ca_cert": Path(info["ca_path"]).read_text(),
        },
        "accessInfo": {
            "bearer_token": Path(info["token_file"]).read_text().strip()
        },
    }


def register_vim(conf: cfg.ConfigOpts, vim: dict[str, Any]) -> None:
    """Make ``vim`` the embedded project's default VIM ``sandbox``."""
    ctx = tcontext.get_admin_context()
    for attempt in db_api.retrying():
        with attempt, db_api.writer(ctx) as session:
            vim_registry.discard(session, VIM_ID)
            vim_registry.create(
                session,
                VIM_ID,
                crypto.seal(vim),
                conf.api.http_basic_project_id,
                VIM_NAME,
                "Simulated Kubernetes cluster of the tacker-ng sandbox",
                True,
            )


def start(conf: cfg.ConfigOpts) -> Sandbox:
    """Start the simulators and point tacker-ng at them."""
    _check_checkout()
    state = Path(conf.sandbox.state_dir)
    state.mkdir(parents=True, exist_ok=True, mode=0o700)
    running: list[children.Child] = []
    try:
        k8s_child, k8s_info = _start_kubernetes(conf, state)
        running.append(k8s_child)
        register_vim(conf, kubernetes_vim(k8s_info))
        LOG.info(
            "Sandbox: simulated Kubernetes (%d nodes in %s) is the default "
            "VIM '%s'",
            conf.sandbox.kubernetes_nodes,
            ", ".join(conf.sandbox.zones),
            VIM_NAME,
        )
        nova_child, nova_info = nova.start(conf, state)
        running.append(nova_child)
        nova.use(conf, nova_info)
    except Exception:
        for child in reversed(running):
            child.stop()
        raise
    return Sandbox(state, k8s_info, nova_info, running)
