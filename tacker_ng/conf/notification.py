"""``[notification]`` options: subscriptions and notification delivery."""

from oslo_config import cfg

opts = [
    cfg.BoolOpt(
        "test_callback_uri",
        default=True,
        help="On subscription create, GET the callbackUri and require 204 "
        "(SOL003 5.4.18.3.1) before accepting it.",
    ),
    cfg.StrOpt(
        "duplicate_subscription",
        default="see_other",
        choices=[
            ("see_other", "Answer 303 See Other with the existing one."),
            ("allow", "Create another identical subscription (201)."),
        ],
        help="What a subscription with the same callbackUri and filter as "
        "an existing one does.",
    ),
    cfg.IntOpt("timeout", default=10, min=1, help="Seconds for one delivery."),
    cfg.IntOpt(
        "max_attempts",
        default=10,
        min=1,
        help="Delivery attempts before a notification is given up (and "
        "logged as lost).",
    ),
    cfg.FloatOpt(
        "initial_backoff",
        default=1.0,
        min=0.1,
        help="Seconds before the first retry; doubles per attempt.",
    ),
    cfg.FloatOpt(
        "max_backoff",
        default=300.0,
        min=1.0,
        help="Longest wait between two delivery attempts, seconds.",
    ),
    cfg.FloatOpt(
        "poll_interval",
        default=1.0,
        min=0.05,
        help="Seconds between two looks of the conductor at the "
        "notification outbox when it was woken by nothing.",
    ),
    cfg.BoolOpt(
        "verify_tls",
        default=True,
        help="Verify the TLS certificate of callback URIs.",
    ),
    cfg.StrOpt(
        "ca_file",
        help="CA bundle to verify the certificates of callback URIs and of "
        "subscriptions' OAuth2 token endpoints with (verify_tls = true). "
        "Unset: the system's trusted CAs.",
    ),
    cfg.StrOpt(
        "client_cert_file",
        help="PEM file of the client certificate the VNFM presents to "
        "notification receivers (callbackUri, its test GET) and their "
        "OAuth2 token endpoints: mutual TLS (SOL013). It may also hold "
        "the private key. Unset: no client certificate.",
    ),
    cfg.StrOpt(
        "client_key_file",
        help="PEM file of the private key of client_cert_file (unencrypted), "
        "when that file does not hold it.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_opts(opts, group="notification")


def list_opts() -> list[tuple[str, list]]:
    return [("notification", opts)]
