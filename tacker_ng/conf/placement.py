"""``[placement]`` options: fallbackBestEffort and zone reselection.

Operators coming from OpenStack Tacker may keep their ``[v2_vnfm]``
names; they are read as deprecated aliases.
"""

from oslo_config import cfg

#: Both capacity failures of the spec, for CREATE and UPDATE alike.
DEFAULT_AZ_RESOURCE_ERROR_REGEX = (
    r"No valid host was found"
    r"|Exceeded maximum number of retries\. Exhausted all hosts available "
    r"for retrying build failures for instance [0-9a-fA-F-]+"
)

opts = [
    cfg.BoolOpt(
        "fallback_best_effort",
        default=False,
        deprecated_opts=[
            cfg.DeprecatedOpt(
                "placement_fallback_best_effort", group="v2_vnfm"
            )
        ],
        help="Set fallbackBestEffort in the placement constraints of grant "
        "requests, and re-select another availability zone when a zone "
        "lacks capacity; the Nova server groups of nfvi_node-scope "
        "(anti-)affinity rules get the soft-(anti-)affinity policy. False: "
        "constraints are strict and a capacity failure fails the "
        "operation.",
    ),
    cfg.StrOpt(
        "az_resource_error_regex",
        default=DEFAULT_AZ_RESOURCE_ERROR_REGEX,
        deprecated_opts=[
            cfg.DeprecatedOpt("placement_az_resource_error", group="v2_vnfm")
        ],
        help="Regular expression searched in Heat's resource_status_reason "
        "of a failed resource; a match means the zone lacked capacity and "
        "another zone is tried. Any other failure ends the operation at "
        "once. The default matches Nova's 'No valid host was found' and "
        "'Exceeded maximum number of retries. Exhausted all hosts "
        "available for retrying build failures for instance <uuid>'.",
    ),
    cfg.IntOpt(
        "az_select_retry",
        default=0,
        min=0,
        deprecated_opts=[
            cfg.DeprecatedOpt("placement_az_select_retry", group="v2_vnfm")
        ],
        help="Largest number of zone reselections in one operation. "
        "0: no cap beyond one try per candidate zone.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_opts(opts, group="placement")


def list_opts() -> list[tuple[str, list]]:
    return [("placement", opts)]
