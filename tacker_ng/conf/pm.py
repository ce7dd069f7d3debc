"""``[pm]`` options: SOL003 VNF performance management (``/vnfpm/v2``).

The measurement table (SOL003 metric name -> PromQL query) ships in code
(:mod:`tacker_ng.pm.measurements`); ``measurements_file`` lets an
operator replace a query or add a metric without a code change.
"""

from oslo_config import cfg

GROUP = "pm"

opts = [
    cfg.StrOpt(
        "measurements_file",
        help="YAML (or JSON) file that overrides or extends the built-in "
        "measurement table. Each key is a performance metric name; its "
        "value is a PromQL query template, or a mapping with 'query', "
        "'objectTypes' (Vnf, Vnfc, VnfIntCp, VnfExtCp), 'group' and "
        "'subObjectLabel' for a metric the table does not know. Templates "
        "may use {vnf_instance_ids} (a regular expression matching the "
        "VNF instance ids measured) and {collection_period} (seconds); "
        "the query's series must carry the labels vnfInstanceId and the "
        "sub-object label (vnfcId for VNFC metrics, cpId for connection "
        "point metrics). Read again when the file changes.",
    ),
    cfg.IntOpt(
        "min_collection_period",
        default=10,
        min=1,
        help="Shortest collectionPeriod (seconds) a PM job may ask for; "
        "shorter is refused (422). Prometheus cannot answer a query over a "
        "window shorter than its scrape interval meaningfully.",
    ),
    cfg.IntOpt(
        "max_reporting_period",
        default=7 * 24 * 3600,
        min=1,
        help="Longest reportingPeriod (seconds) a PM job may ask for.",
    ),
    cfg.IntOpt(
        "report_retention",
        default=7 * 24 * 3600,
        min=60,
        help="Seconds a performance report is kept after it is ready: its "
        "expiryTime; expired reports are deleted.",
    ),
    cfg.IntOpt(
        "threshold_interval",
        default=60,
        min=5,
        help="Seconds between two evaluations of a threshold; also the "
        "window its measurement is taken over.",
    ),
    cfg.FloatOpt(
        "min_hysteresis",
        default=0.0,
        min=0.0,
        help="Smallest hysteresis a threshold may have; a smaller one is "
        "refused (422). SOL003 asks for a suitable minimum to prevent "
        "storms of threshold crossing notifications.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_opts(opts, group=GROUP)


def list_opts() -> list[tuple[str, list]]:
    return [(GROUP, opts)]
