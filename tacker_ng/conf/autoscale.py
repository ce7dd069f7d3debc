"""``[autoscale]`` options: the closed loop from PM measurements to SCALE.

Scaling rules are declared per VNF (instantiate ``additionalParams.
scalingRules``, see :mod:`tacker_ng.pm.scaling_rules`); these options set
how often the conductors measure and decide, and what the VNFM does when
one of its automatic scales fails.
"""

from oslo_config import cfg

GROUP = "autoscale"

opts = [
    cfg.BoolOpt(
        "enabled",
        default=True,
        help="Run automatic scaling on the conductors: VNF instances whose "
        "instantiate request declared scalingRules are measured through "
        "Prometheus and scaled out or in by automatic SCALE operations.",
    ),
    cfg.IntOpt(
        "interval",
        default=30,
        min=1,
        help="Seconds between two automatic-scaling passes. A load that "
        "crosses a rule's threshold starts a SCALE within one interval "
        "(plus the measurement window to show in the mean).",
    ),
    cfg.IntOpt(
        "window",
        default=60,
        min=1,
        help="Seconds of measurement a decision reads: each rule's metric "
        "is measured over the last window seconds (the collection period "
        "of the measurement table's PromQL). Keep it at least twice "
        "Prometheus's scrape interval.",
    ),
    cfg.IntOpt(
        "default_cooldown",
        default=300,
        min=0,
        help="Seconds after the last SCALE of a VNF instance ended "
        "(automatic or requested by the NFVO) during which a scaling rule "
        "without its own 'cooldown' decides nothing, so that the new VNFCs "
        "take their share of the load before it is measured again.",
    ),
    cfg.IntOpt(
        "attempts",
        default=3,
        min=1,
        help="Automatic scales of one VNF instance that may fail in a row. "
        "Each failed automatic scale (FAILED_TEMP) is failed or rolled "
        "back by the VNFM itself (failed_action), raises or updates the "
        "instance's automatic-scale FM alarm and delays the next attempt "
        "(backoff_base); after this many failures none starts for "
        "backoff_max seconds, then the count starts again.",
    ),
    cfg.IntOpt(
        "backoff_base",
        default=60,
        min=0,
        help="Seconds between a failed automatic scale and the next one: "
        "after the n-th failure in a row the next attempt waits "
        "backoff_base * 2**(n-1) seconds, at most backoff_max.",
    ),
    cfg.IntOpt(
        "backoff_max",
        default=3600,
        min=0,
        help="Upper bound in seconds of the delay between two automatic "
        "scale attempts, and the pause once 'attempts' failed in a row.",
    ),
    cfg.StrOpt(
        "failed_action",
        default="fail",
        choices=[
            (
                "fail",
                "The VNFM moves its failed automatic scale to FAILED at "
                "once (as POST .../fail would): the instance is free.",
            ),
            (
                "rollback",
                "The VNFM rolls its failed automatic scale back (as POST "
                ".../rollback would); a rollback that fails as well is then "
                "failed. Where the infra driver cannot roll a scale back, "
                "the scale is failed.",
            ),
        ],
        help="What the VNFM does with an automatic scale that ended "
        "FAILED_TEMP, so that an automatic operation never holds an "
        "instance.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_opts(opts, group=GROUP)


def list_opts() -> list[tuple[str, list]]:
    return [(GROUP, opts)]
