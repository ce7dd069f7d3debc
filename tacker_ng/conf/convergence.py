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
        "autoheal_max_failures",
        default=3,
        min=1,
        help="Automatic heals of one VNF instance that may fail in a row "
        "before the observer backs off (logs it and raises an alarm).",
    ),
    cfg.IntOpt(
        "autoheal_backoff",
        default=3600,
        min=0,
        help="Seconds the observer starts no automatic heal of a VNF "
        "instance after autoheal_max_failures failures.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_opts(opts, group="convergence")


def list_opts() -> list[tuple[str, list]]:
    return [("convergence", opts)]
