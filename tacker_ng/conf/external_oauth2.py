"""``[external_oauth2]`` options: access tokens of an external
authorization server, validated by RFC 7662 introspection
(``[api] auth_strategy = external_oauth2``)."""

from oslo_config import cfg

opts = [
    cfg.URIOpt(
        "introspection_endpoint",
        schemes=["https", "http"],
        help="The authorization server's RFC 7662 token introspection "
        "endpoint, e.g. https://idp.example.net/oauth2/introspect. "
        "Required with auth_strategy = external_oauth2.",
    ),
    cfg.StrOpt(
        "client_id",
        help="tacker-ng's client id at the authorization server, used to "
        "authenticate its introspection requests.",
    ),
    cfg.StrOpt(
        "client_secret",
        secret=True,
        help="tacker-ng's client secret at the authorization server "
        "(client_secret_basic and client_secret_post).",
    ),
    cfg.StrOpt(
        "client_auth_method",
        default="client_secret_basic",
        choices=[
            ("client_secret_basic", "HTTP basic with id and secret."),
            ("client_secret_post", "Id and secret in the form body."),
            (
                "tls_client_auth",
                "The client certificate in client_cert_file (RFC 8705 "
                "section 2); client_id is sent in the body.",
            ),
        ],
        help="How tacker-ng authenticates to the introspection endpoint.",
    ),
    cfg.StrOpt(
        "client_cert_file",
        help="PEM client certificate presented to the authorization "
        "server (tls_client_auth, or a server that requires mTLS).",
    ),
    cfg.StrOpt(
        "client_key_file",
        help="PEM private key of client_cert_file.",
    ),
    cfg.StrOpt(
        "ca_file",
        help="PEM CA bundle that verifies the authorization server's "
        "certificate. Default: the system's trust store.",
    ),
    cfg.FloatOpt(
        "timeout",
        default=5.0,
        min=0.1,
        help="Seconds to wait for an introspection answer; past it the "
        "API answers 503 (the caller may retry).",
    ),
    cfg.StrOpt(
        "audience",
        help="The audience (``aud`` claim) that names this VNFM. A token "
        "whose ``aud`` does not contain it is refused. Required with "
        "auth_strategy = external_oauth2.",
    ),
    cfg.StrOpt(
        "issuer",
        help="If set, the only accepted ``iss`` claim.",
    ),
    cfg.StrOpt(
        "user_claim",
        default="sub",
        help="Claim that names the caller (falls back to ``client_id``).",
    ),
    cfg.StrOpt(
        "project_claim",
        default="project_id",
        help="Claim (dotted path for nested claims) that holds the "
        "project the caller acts in.",
    ),
    cfg.StrOpt(
        "default_project_id",
        help="Project of tokens without the project claim. Unset: such "
        "tokens are refused (403).",
    ),
    cfg.StrOpt(
        "roles_claim",
        help="Claim (dotted path, e.g. realm_access.roles) holding a "
        "list or space-separated string of role names; only admin, "
        "member and reader count.",
    ),
    cfg.ListOpt(
        "scope_roles",
        default=[],
        help="``scope=role`` pairs: a token whose ``scope`` contains the "
        "scope gets the role (admin implies member, member implies "
        "reader), e.g. ``vnflcm:v2:all=member,vnflcm:v2:readonly=reader``. "
        "A token that maps to no role gets 403 insufficient_scope.",
    ),
    cfg.IntOpt(
        "cache_max_seconds",
        default=0,
        min=0,
        help="A positive answer is cached until the token expires; this "
        "caps the time (0: the token's lifetime). Lower it to see "
        "revocations sooner at the cost of more introspection calls.",
    ),
    cfg.IntOpt(
        "cache_size",
        default=10000,
        min=1,
        help="Most tokens kept in the per-process introspection cache.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_opts(opts, group="external_oauth2")


def list_opts() -> list[tuple[str, list]]:
    return [("external_oauth2", opts)]
