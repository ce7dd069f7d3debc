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
        "jobboard_url",
        default="",
        help="taskflow jobboard through which conductors hand LCM "
        "operations to each other, e.g. 'redis://127.0.0.1:6379/0'. The "
        "conductor that receives an operation posts it as a job; any live "
        "conductor claims and runs it; the claim of a conductor that dies "
        "expires after claim_timeout and another one resumes the flow from "
        "its last finished task. Empty (the embedded default): flows run "
        "in the process that received them and a restarted conductor "
        "resumes the operations it owned.",
    ),
    cfg.IntOpt(
        "claim_timeout",
        default=20,
        min=3,
        max=300,
        help="Seconds after which the jobboard claim of a conductor that "
        "stopped renewing it (killed, host lost, cut off from the "
        "jobboard) expires, so another conductor takes its operations "
        "over. Renewed every third of this.",
    ),
    cfg.IntOpt(
        "job_workers",
        default=8,
        min=1,
        help="LCM operations one conductor runs at the same time when "
        "jobs come from the jobboard.",
    ),
    cfg.IntOpt(
        "cast_retries",
        default=2,
        min=0,
        help="Times a cast to the conductors (an LCM operation's start, "
        "retry or rollback, a package upload) reconnects to an unreachable "
        "message bus before it gives up; the request then fails at once "
        "(an LCM op occ goes FAILED_TEMP with a 503 ProblemDetails and can "
        "be retried) instead of holding an API worker for the whole "
        "outage. Reconnections wait [oslo_messaging_rabbit] "
        "rabbit_retry_interval, then longer by rabbit_retry_backoff.",
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
