"""``[metrics]`` options: tacker-ng's own metrics (``GET /metrics``)."""

from oslo_config import cfg

opts = [
    cfg.BoolOpt(
        "enabled",
        default=True,
        help="Count and time API requests and serve GET /metrics "
        "(Prometheus text format) on the API, behind its authentication "
        "and the policy tacker_ng:metrics:show (admins by default).",
    ),
    cfg.PortOpt(
        "listen_port",
        default=0,
        help="Also serve the same metrics without authentication on this "
        "port of listen_address (0: not at all), for a Prometheus that "
        "cannot log in to the API (e.g. with auth_strategy keystone). "
        "tacker-ng-api serves it from its master process, tacker-ng-all "
        "from a thread.",
    ),
    cfg.HostAddressOpt(
        "listen_address",
        default="127.0.0.1",
        help="Address of the unauthenticated metrics listener "
        "(listen_port). Anyone who reaches it reads the fleet's figures "
        "(counts, no identifiers of VNFs or users): keep it on loopback "
        "or a management network.",
    ),
    cfg.IntOpt(
        "duration_window",
        default=86400,
        min=60,
        help="Seconds back over which tacker_ng_vnf_lcm_op_occ_duration_"
        "seconds counts finished op occs (those that reached COMPLETED, "
        "FAILED or ROLLED_BACK since): a histogram of the recent ones, "
        "computed per scrape from the ones in that window only.",
    ),
    cfg.StrOpt(
        "multiprocess_dir",
        help="Where tacker-ng-api's worker processes share their metric "
        "values (prometheus-client's multiprocess files); emptied when "
        "tacker-ng-api starts. Default: $state_path/api-metrics-<port>.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_opts(opts, group="metrics")


def list_opts() -> list[tuple[str, list]]:
    return [("metrics", opts)]
