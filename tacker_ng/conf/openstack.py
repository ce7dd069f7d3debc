"""``[openstack]`` options of the OpenStack infra driver (Heat + Nova).

How long and how often the driver waits for Heat stacks, which zones it
may use, and the seed of the zone reselection's random pick (for
reproducible tests).
"""

from oslo_config import cfg

opts = [
    cfg.IntOpt(
        "stack_timeout",
        default=1800,
        min=1,
        help="Seconds a Heat stack create, update or delete may take "
        "before the LCM operation fails (FAILED_TEMP). Also passed to "
        "Heat as the stack timeout (rounded up to minutes).",
    ),
    cfg.FloatOpt(
        "stack_poll_interval",
        default=0.2,
        min=0.05,
        help="First wait in seconds between two reads of a stack's status "
        "(and of a server's, image's or volume's during an operation); "
        "each further wait grows by half, up to stack_poll_max_interval. "
        "Short, so that a quick stack action is seen done at once; the "
        "backoff keeps the reads of a long one few.",
    ),
    cfg.FloatOpt(
        "stack_poll_max_interval",
        default=1.0,
        min=0.05,
        help="Longest wait in seconds between two reads of a stack's "
        "status (the backoff's cap). Heat itself checks a building "
        "server once a second; a longer cap mostly adds to the "
        "operation's time (tools/bench/lcm_wait.py: 2.0 s left 7.7 % of "
        "a lifecycle operation's stack time to polling, 1.0 s 4.9 %).",
    ),
    cfg.IntOpt(
        "stack_settle_timeout",
        default=60,
        min=0,
        help="After a failed stack create/update, seconds to wait until "
        "no nested resource is still in progress and no server of the "
        "attempt is still building in Nova, so that every failure of that "
        "attempt is known before a zone is reselected.",
    ),
    cfg.IntOpt(
        "power_state_timeout",
        default=300,
        min=1,
        help="Seconds an operate (start or stop VNFCs) waits for Nova to "
        "report each server ACTIVE or SHUTOFF when the request gives no "
        "gracefulStopTimeout; past it the operation is FAILED_TEMP.",
    ),
    cfg.IntOpt(
        "snapshot_timeout",
        default=900,
        min=1,
        help="Seconds a VNF snapshot waits for each VNFC's Glance image to "
        "become active (and each Cinder snapshot of its volumes "
        "available), and a revert for each server rebuilt from its "
        "image to be ACTIVE (or SHUTOFF) again and for each volume step "
        "(detach, revert, attach); past it the operation is FAILED_TEMP.",
    ),
    cfg.ListOpt(
        "availability_zones",
        default=[],
        help="Availability zones the VNFM may place VNFCs in, on every "
        "OpenStack VIM: the zones the local NFVO grants (when "
        "[nfvo] local_zones is empty) and the candidates of AZ "
        "reselection. Zones Nova reports that are not listed are never "
        "chosen by the VNFM (a grant from a remote NFVO is still "
        "followed). Empty: every usable zone Nova reports. Use it when a "
        "cloud's zones are not all meant for VNFs (zones of other "
        "tenants, of special hardware, or of another VNFM).",
    ),
    cfg.IntOpt(
        "zone_choice_seed",
        help="Seed of the random zone choice of AZ reselection. Unset: a "
        "fresh random choice each time (production). Set it only to "
        "make tests reproducible.",
    ),
    cfg.FloatOpt(
        "connect_timeout",
        default=10.0,
        min=0.1,
        help="Seconds a TCP (and TLS) connection to Keystone, Heat or Nova "
        "may take to open. A VIM that cannot be reached in time fails the "
        "step (FAILED_TEMP, VIM unreachable) after a few retries.",
    ),
    cfg.FloatOpt(
        "read_timeout",
        default=120.0,
        min=0.1,
        help="Seconds Keystone, Heat or Nova may take to answer one HTTP "
        "request once connected. A VIM that accepts the connection and "
        "never answers fails the step (FAILED_TEMP, VIM unreachable) "
        "after this long, instead of holding the operation for ever.",
    ),
    cfg.StrOpt(
        "endpoint_interface",
        default="public",
        choices=[
            ("public", "the catalog's public endpoints"),
            ("internal", "the catalog's internal endpoints"),
            ("admin", "the catalog's admin endpoints"),
        ],
        help="Keystone catalog interface of the Heat and Nova endpoints.",
    ),
    cfg.StrOpt(
        "client_cert_file",
        help="PEM file of the client certificate the VNFM presents to every "
        "OpenStack VIM (Keystone, Heat, Nova, Cinder, Glance) on TLS "
        "connections: mutual TLS toward VIMs that require it. It may also "
        "hold the private key. Unset: no client certificate. (A Kubernetes "
        "VIM's client certificate is part of its vimConnectionInfo: "
        "accessInfo.client_cert and client_key.)",
    ),
    cfg.StrOpt(
        "client_key_file",
        help="PEM file of the private key of client_cert_file (unencrypted), "
        "when that file does not hold it.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_opts(opts, group="openstack")


def list_opts() -> list[tuple[str, list]]:
    return [("openstack", opts)]
