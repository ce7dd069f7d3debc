"""``[convergence]`` options: the observer and what drift leads to."""

from oslo_config import cfg

opts = [
    cfg.BoolOpt(
        "enabled",
        default=True,
        help="Run the observer on the conductors: notice VNFCs that died "
        "behind our back and auto-heal them or raise FM alarms.",
    ),
    cfg.IntOpt(
        "observe_interval",
        default=60,
        min=1,
        help="Seconds between two observations of every VIM. A drift is "
        "seen within one interval.",
    ),
    cfg.IntOpt(
        "page_size",
        default=1000,
        min=1,
        max=10000,
        help="Servers per paged Nova servers/detail call (Nova caps it at "
        "its own osapi max_limit, 1000 by default).",
    ),
    cfg.StrOpt(
        "shard_by",
        default="vim",
        choices=[
            (
                "vim",
                "Each live conductor observes its share of the VIMs: "
                "one listing per VIM and cycle in the whole fleet.",
            ),
            (
                "instance",
                "Every live conductor lists every VIM and judges "
                "its share of the VNF instances: for few VIMs holding many "
                "VNFCs (one listing per VIM, conductor and cycle).",
            ),
        ],
        help="How the observation work is split among live conductors.",
    ),
    cfg.IntOpt(
        "auto_heal_attempts",
        default=3,
        min=1,
        deprecated_name="autoheal_max_failures",
        help="Automatic heals of one VNF instance that may fail in a row. "
        "Each failed automatic heal (FAILED_TEMP) is failed or rolled back "
        "by the VNFM itself (auto_heal_failed_action), raises or updates "
        "the instance's automatic-heal FM alarm and delays the next "
        "attempt (auto_heal_backoff_base); after this many failures no "
        "automatic heal starts for autoheal_backoff seconds.",
    ),
    cfg.IntOpt(
        "auto_heal_backoff_base",
        default=30,
        min=0,
        help="Seconds between a failed automatic heal and the next one: "
        "after the n-th failure in a row the next attempt waits "
        "auto_heal_backoff_base * 2**(n-1) seconds, at most "
        "auto_heal_backoff_max. Drift is alarmed meanwhile.",
    ),
    cfg.IntOpt(
        "auto_heal_backoff_max",
        default=600,
        min=0,
        help="Upper bound in seconds of the exponential delay between two "
        "automatic heal attempts (see auto_heal_backoff_base).",
    ),
    cfg.StrOpt(
        "auto_heal_failed_action",
        default="fail",
        choices=[
            (
                "fail",
                "The VNFM moves its failed automatic heal to FAILED at "
                "once (as POST .../fail would): the instance is free for "
                "the NFVO's next operation.",
            ),
            (
                "rollback",
                "The VNFM rolls its failed automatic heal back (as POST "
                ".../rollback would); a rollback that fails as well is "
                "then failed. Where the infra driver cannot roll a heal "
                "back, the heal is failed.",
            ),
        ],
        help="What the VNFM does with an automatic heal that ended "
        "FAILED_TEMP, so that an automatic operation never holds an "
        "instance.",
    ),
    cfg.IntOpt(
        "autoheal_backoff",
        default=3600,
        min=0,
        help="Seconds the observer starts no automatic heal of a VNF "
        "instance once auto_heal_attempts heals failed in a row (the "
        "automatic-heal alarm stays open, drift is alarmed); then the "
        "count starts again.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_opts(opts, group="convergence")


def list_opts() -> list[tuple[str, list]]:
    return [("convergence", opts)]
