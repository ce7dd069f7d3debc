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
    cfg.StrOpt(
        "prometheus_url",
        default="",
        help="Base URL of the Prometheus server whose HTTP API "
        "(/api/v1/query, /api/v1/query_range) the conductors read "
        "measurements from, e.g. http://prometheus.example:9090. Empty: "
        "no collection (PM jobs and thresholds can be created, but no "
        "report is made and no threshold is evaluated; automatic scaling "
        "is off).",
    ),
    cfg.FloatOpt(
        "prometheus_timeout",
        default=10.0,
        min=0.1,
        help="Seconds to wait for Prometheus to answer one query.",
    ),
    cfg.StrOpt(
        "prometheus_username",
        default="",
        help="User name for HTTP basic authentication to Prometheus (a "
        "reverse proxy in front of it); empty: none.",
    ),
    cfg.StrOpt(
        "prometheus_password",
        default="",
        secret=True,
        help="Password for HTTP basic authentication to Prometheus.",
    ),
    cfg.StrOpt(
        "prometheus_ca_file",
        default="",
        help="CA bundle (PEM) that verifies an https prometheus_url; "
        "empty: the system's CAs.",
    ),
    cfg.StrOpt(
        "client_cert_file",
        default="",
        help="Client certificate (PEM, may include the key) presented to "
        "an https prometheus_url that requires mutual TLS.",
    ),
    cfg.StrOpt(
        "client_key_file",
        default="",
        help="Private key (PEM) of client_cert_file, when not in it.",
    ),
    cfg.IntOpt(
        "collect_interval",
        default=10,
        min=1,
        help="Seconds between two looks of a conductor for PM jobs whose "
        "reporting period ended and thresholds due for an evaluation (in "
        "its shards). A report is made at most this long after its period "
        "ended.",
    ),
    cfg.StrOpt(
        "file_sd_dir",
        default="",
        help="Folder where the conductors write Prometheus file-based "
        "service discovery files: <file_sd_dir>/openstack/<vnfInstanceId>"
        ".json with the VNFCs (Nova servers) at <address>:scrape_port and "
        "<file_sd_dir>/kubernetes/<vnfInstanceId>.json with the pods, "
        "scraped through the cluster API server's pod proxy; every target "
        "carries the labels vnfInstanceId, vnfcId and vduId. Point one "
        "scrape job's file_sd_configs at each subfolder. Written by the "
        "observer ([convergence] enabled) on each cycle; conductors on "
        "several hosts need a shared folder. Empty: no discovery files.",
    ),
    cfg.PortOpt(
        "scrape_port",
        default=9100,
        help="Port of the exporter in a VNFC (Nova server) that "
        "Prometheus scrapes; 9100 is the node exporter's.",
    ),
    cfg.StrOpt(
        "scrape_network",
        default="",
        help="Name of the Neutron network whose address of a server "
        "Prometheus scrapes; empty: the server's first fixed IPv4 "
        "address.",
    ),
    cfg.StrOpt(
        "kubernetes_metrics_path",
        default="/api/v1/namespaces/{namespace}/pods/{pod}/proxy/metrics",
        help="Path, on a Kubernetes VIM's API server, that serves a pod's "
        "metrics ({namespace} and {pod} are filled in; add ':<port>' "
        "after {pod} for a port other than the pod's first).",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_opts(opts, group=GROUP)


def list_opts() -> list[tuple[str, list]]:
    return [(GROUP, opts)]
