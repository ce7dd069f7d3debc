"""``[api]`` options: the REST API server, authentication and paging."""

from oslo_config import cfg

AUTH_STRATEGIES = (
    "noauth",
    "http_basic",
    "keystone",
    "oauth2",
    "external_oauth2",
)

opts = [
    cfg.HostAddressOpt(
        "host_ip",
        default="127.0.0.1",
        help="IP address the API server listens on.",
    ),
    cfg.PortOpt(
        "port",
        default=9890,
        help="TCP port the API server listens on.",
    ),
    cfg.IntOpt(
        "workers",
        default=2,
        min=1,
        help="Number of API worker processes of tacker-ng-api. tacker-ng-all "
        "always serves from one process.",
    ),
    cfg.IntOpt(
        "threads",
        default=8,
        min=1,
        help="Request threads per API worker process.",
    ),
    cfg.StrOpt(
        "auth_strategy",
        default="http_basic",
        choices=[
            (
                "noauth",
                "No authentication; every caller gets the roles in "
                "[api] noauth_roles. For tests and demos only.",
            ),
            (
                "http_basic",
                "HTTP basic authentication against the htpasswd "
                "file [oslo_middleware] http_basic_auth_user_file (bcrypt).",
            ),
            (
                "keystone",
                "Keystone tokens checked by keystonemiddleware "
                "(configure [keystone_authtoken]).",
            ),
            (
                "oauth2",
                "OAuth 2.0 bearer tokens from Keystone's token endpoint "
                "(/v3/OS-OAUTH2/token, client credentials of an "
                "application credential), checked by keystonemiddleware "
                "(configure [keystone_authtoken]).",
            ),
            (
                "external_oauth2",
                "OAuth 2.0 bearer tokens of another authorization server, "
                "checked by RFC 7662 introspection (configure "
                "[external_oauth2]).",
            ),
        ],
        help="How API callers are authenticated.",
    ),
    cfg.ListOpt(
        "noauth_roles",
        default=["admin", "member", "reader"],
        help="Roles given to every caller when auth_strategy is noauth.",
    ),
    cfg.ListOpt(
        "http_basic_roles",
        default=["member", "reader"],
        help="Roles given to a user authenticated by HTTP basic auth "
        "(admin only to the users in http_basic_admin_users). Putting "
        "admin here makes every user an admin of every project; "
        "tacker-ng-status upgrade check warns about it.",
    ),
    cfg.ListOpt(
        "http_basic_admin_users",
        default=[],
        help="HTTP basic users who are also admin (see every project, "
        "manage conductors and reservation hosts). tacker-ng-all makes "
        "the admin user it generates one of them.",
    ),
    cfg.DictOpt(
        "http_basic_user_projects",
        default={},
        help="user:project_id pairs: the project each HTTP basic user "
        "acts in; users not listed act in http_basic_project_id.",
    ),
    cfg.StrOpt(
        "http_basic_project_id",
        default="default",
        help="Project (tenant) id that HTTP basic and noauth callers act in.",
    ),
    cfg.BoolOpt(
        "oauth2_require_bound_tokens",
        default=False,
        help="With auth_strategy oauth2 or external_oauth2, refuse access "
        "tokens that are not bound to the client's TLS certificate "
        "(RFC 8705). Bound tokens are always refused with any other "
        "certificate.",
    ),
    cfg.StrOpt(
        "ssl_cert_file",
        help="PEM certificate (chain) of the API server. When set, the "
        "API serves HTTPS only.",
    ),
    cfg.StrOpt(
        "ssl_key_file",
        help="PEM private key of ssl_cert_file (if not in that file).",
    ),
    cfg.StrOpt(
        "ssl_client_ca_file",
        help="PEM CA bundle for mutual TLS: when set, every client must "
        "present a certificate signed by one of these CAs, or the TLS "
        "handshake fails. Needs ssl_cert_file.",
    ),
    cfg.URIOpt(
        "public_endpoint",
        help="Public URL of this API (e.g. https://vnfm.example.net:9890) "
        "used in Location and Link headers and in notifications. Defaults "
        "to the URL the request came in on.",
    ),
    cfg.IntOpt(
        "max_page_size",
        default=100,
        min=1,
        help="Largest number of items in one page of a list response; "
        "larger lists carry a Link header to the next page.",
    ),
    cfg.IntOpt(
        "max_json_depth",
        default=32,
        min=2,
        max=500,
        help="Deepest nesting of objects and arrays accepted in a JSON "
        "request body (SOL003 bodies need about 10; additionalParams "
        "more). Deeper bodies get 400.",
    ),
    cfg.IntOpt(
        "max_json_values",
        default=20000,
        min=10,
        help="Most values (objects, arrays, strings, numbers, ...) "
        "accepted in one JSON request body; more get 400.",
    ),
    cfg.IntOpt(
        "max_json_string_length",
        default=65536,
        min=64,
        help="Longest string (key or value, in characters) accepted in a "
        "JSON request body; longer ones get 400. The body as a whole is "
        "limited by [oslo_middleware] max_request_body_size.",
    ),
    cfg.BoolOpt(
        "enable_proxy_headers_parsing",
        default=False,
        help="Honour the X-Forwarded-For, -Proto and -Host headers set by a "
        "trusted proxy.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_opts(opts, group="api")


def list_opts() -> list[tuple[str, list]]:
    return [("api", opts)]
