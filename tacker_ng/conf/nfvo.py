"""``[nfvo]`` options: who grants our operations and serves packages."""

from oslo_config import cfg

opts = [
    cfg.StrOpt(
        "mode",
        default="local",
        choices=[
            (
                "local",
                "The built-in NFVO grants every request, assigns "
                "zones and honours placement constraints.",
            ),
            (
                "remote",
                "A real NFVO is asked over SOL003 Grant "
                "(POST {endpoint}/grant/v1/grants).",
            ),
        ],
        help="Where grant requests go.",
    ),
    cfg.StrOpt(
        "package_source",
        default="local",
        choices=[
            ("local", "Packages onboarded through our /vnfpkgm/v1 API."),
            (
                "remote",
                "Packages fetched from the NFVO by vnfdId "
                "(SOL003 VNF package management) and cached.",
            ),
        ],
        help="Where the VNF package behind a vnfdId comes from.",
    ),
    cfg.URIOpt(
        "endpoint",
        schemes=["http", "https"],
        help="Root URL of the NFVO's SOL003 APIs, e.g. "
        "https://nfvo.example.net:9443 (mode = remote).",
    ),
    cfg.StrOpt(
        "auth_type",
        default="none",
        choices=["none", "basic", "oauth2_client_credentials"],
        help="How we authenticate to the NFVO.",
    ),
    cfg.StrOpt("username", help="NFVO user (auth_type = basic)."),
    cfg.StrOpt(
        "password", secret=True, help="NFVO password (auth_type = basic)."
    ),
    cfg.StrOpt(
        "client_id", help="OAuth2 client id (oauth2_client_credentials)."
    ),
    cfg.StrOpt(
        "client_secret",
        secret=True,
        help="OAuth2 client secret (oauth2_client_credentials).",
    ),
    cfg.URIOpt(
        "token_endpoint",
        schemes=["http", "https"],
        help="OAuth2 token endpoint (oauth2_client_credentials).",
    ),
    cfg.BoolOpt(
        "verify_tls", default=True, help="Verify the NFVO's TLS certificate."
    ),
    cfg.StrOpt(
        "ca_file", help="CA bundle for the NFVO's certificate (optional)."
    ),
    cfg.StrOpt(
        "client_cert_file",
        help="PEM file of the client certificate the VNFM presents to the "
        "NFVO on every TLS connection (grant, package management, OAuth2 "
        "token endpoint): mutual TLS (SOL013). It may also hold the "
        "private key. Unset: no client certificate.",
    ),
    cfg.StrOpt(
        "client_key_file",
        help="PEM file of the private key of client_cert_file (unencrypted), "
        "when that file does not hold it.",
    ),
    cfg.IntOpt(
        "timeout",
        default=30,
        min=1,
        help="Seconds for one HTTP request to the NFVO.",
    ),
    cfg.IntOpt(
        "grant_poll_timeout",
        default=300,
        min=1,
        help="Seconds to wait for an asynchronous grant (202 + polling) "
        "before the operation fails.",
    ),
    cfg.ListOpt(
        "local_zones",
        default=[],
        help="Availability zones the local NFVO assigns, in order of "
        "preference. Empty: the zones the VIM reports.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_opts(opts, group="nfvo")


def list_opts() -> list[tuple[str, list]]:
    return [("nfvo", opts)]
