"""``[vim]`` options: the default VIM used when a request names none."""

from oslo_config import cfg

opts = [
    cfg.StrOpt(
        "default_vim_type",
        default="ETSINFV.OPENSTACK_KEYSTONE.V_3",
        help="vimType of the default VIM.",
    ),
    cfg.URIOpt(
        "auth_url",
        schemes=["http", "https"],
        help="Keystone URL of the default VIM. Unset: no default VIM; "
        "requests must carry vimConnectionInfo.",
    ),
    cfg.StrOpt("username", help="User on the default VIM."),
    cfg.StrOpt("password", secret=True, help="Password on the default VIM."),
    cfg.StrOpt("project_name", help="Project on the default VIM."),
    cfg.StrOpt(
        "user_domain_name", default="Default", help="Domain of the user."
    ),
    cfg.StrOpt(
        "project_domain_name",
        default="Default",
        help="Domain of the project.",
    ),
    cfg.StrOpt("region_name", help="Region of the default VIM."),
    cfg.BoolOpt(
        "verify_tls", default=True, help="Verify the VIM's certificates."
    ),
    cfg.IntOpt(
        "status_interval",
        default=60,
        min=5,
        help="Seconds between two checks of every registered VIM "
        "(/v1.0/vims): one conductor authenticates at each and records "
        "REACHABLE or UNREACHABLE with the reason.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_opts(opts, group="vim")


def list_opts() -> list[tuple[str, list]]:
    return [("vim", opts)]
