"""``[conductor]`` options: RPC topic, heartbeat and liveness."""

from oslo_config import cfg

opts = [
    cfg.StrOpt(
        "topic",
        default="tacker-ng-conductor",
        help="RPC topic the conductors listen on.",
    ),
    cfg.IntOpt(
        "heartbeat_interval",
        default=10,
        min=1,
        help="Seconds between two heartbeats a conductor writes into the "
        "conductors table.",
    ),
    cfg.IntOpt(
        "heartbeat_timeout",
        default=60,
        min=2,
        help="A conductor whose last heartbeat is older than this many "
        "seconds is considered dead.",
    ),
    cfg.IntOpt(
        "graceful_shutdown_timeout",
        default=60,
        min=0,
        help="Seconds a conductor waits on SIGTERM for running RPC calls "
        "to finish before it exits.",
    ),
    cfg.IntOpt(
        "lost_operation_timeout",
        default=60,
        min=5,
        help="Seconds after which an LCM operation still STARTING and not "
        "taken by any conductor is dispatched again (its start message "
        "was lost). Checked by every conductor every half of this.",
    ),
    cfg.StrOpt(
        "rpc_version_cap",
        help="Highest conductor RPC API version the API may send, e.g. "
        "'1.0'; overrides what [DEFAULT] pin_release_version implies. "
        "Unset means the pinned release's version, or the newest this "
        "code knows.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_opts(opts, group="conductor")


def list_opts() -> list[tuple[str, list]]:
    return [("conductor", opts)]
