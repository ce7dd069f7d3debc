"""``[kubernetes]`` options of the Kubernetes infra driver.

How long the driver waits for workloads to become ready or to go away,
how often it looks, and how long a pod may stay unschedulable before the
operation fails with the scheduler's reason.
"""

from oslo_config import cfg

opts = [
    cfg.IntOpt(
        "ready_timeout",
        default=600,
        min=1,
        help="Seconds the workloads of an LCM operation (instantiate, "
        "scale, heal, change_vnfpkg) may take to become ready before the "
        "operation fails (FAILED_TEMP).",
    ),
    cfg.IntOpt(
        "unschedulable_timeout",
        default=60,
        min=0,
        help="Seconds a pod may stay unschedulable (PodScheduled=False, "
        "reason Unschedulable) before the operation fails with the "
        "scheduler's message. 0 fails at the first sight of it; a "
        "cluster autoscaler may need longer.",
    ),
    cfg.IntOpt(
        "delete_timeout",
        default=300,
        min=1,
        help="Seconds terminate, rollback and heal wait for deleted "
        "objects to be gone, beyond the grace period of the request.",
    ),
    cfg.IntOpt(
        "default_grace_period",
        default=30,
        min=0,
        help="Grace period in seconds of pods deleted by a GRACEFUL "
        "terminate without gracefulTerminationTimeout, and by heal.",
    ),
    cfg.FloatOpt(
        "poll_interval",
        default=0.2,
        min=0.01,
        help="First wait in seconds between two reads of the workloads' "
        "state; each further wait grows by half, up to poll_max_interval.",
    ),
    cfg.FloatOpt(
        "poll_max_interval",
        default=2.0,
        min=0.01,
        help="Longest wait in seconds between two reads of the workloads' "
        "state (the backoff's cap).",
    ),
    cfg.IntOpt(
        "request_timeout",
        default=60,
        min=1,
        help="Seconds one HTTP request to the Kubernetes API may take.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_opts(opts, group="kubernetes")


def list_opts() -> list[tuple[str, list]]:
    return [("kubernetes", opts)]
