"""``[sandbox]`` options: a simulated cloud for trying tacker-ng out
(tacker-ng-all only; never on unless asked)."""

from oslo_config import cfg

opts = [
    cfg.BoolOpt(
        "enabled",
        default=False,
        help="Start a simulated Kubernetes cluster and a simulated Nova "
        "as child processes of tacker-ng-all, register the cluster as the "
        "default VIM and the Nova as the reservation backend, and print "
        "the commands of a first VNF. For trying tacker-ng out; every API "
        "response then carries 'X-Tacker-Ng-Sandbox: true'. Needs a "
        "source checkout (the simulators live in its tools/ directory) "
        "and the 'sandbox' extra (pip install -e .[sandbox]).",
    ),
    cfg.IntOpt(
        "kubernetes_nodes",
        default=3,
        min=1,
        max=50,
        help="Nodes of the simulated Kubernetes cluster.",
    ),
    cfg.ListOpt(
        "zones",
        default=["zone-a", "zone-b", "zone-c"],
        help="Availability zones: the simulated cluster's nodes carry "
        "them as kubernetes.io/zone labels (in turn) and the simulated "
        "Nova has one compute host in each.",
    ),
    cfg.StrOpt(
        "state_dir",
        default="$state_path/sandbox",
        help="Where the simulators keep their certificates, tokens and "
        "logs, and where the walkthrough's files are written.",
    ),
    cfg.FloatOpt(
        "start_timeout",
        default=60.0,
        min=5.0,
        help="Seconds a simulator may take to report it is ready.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_opts(opts, group="sandbox")


def list_opts() -> list[tuple[str, list]]:
    return [("sandbox", opts)]
