"""``[coordination]`` options: tooz backend for locks and leader election."""

from oslo_config import cfg

opts = [
    cfg.StrOpt(
        "backend_url",
        default="file://$state_path/coordination",
        help="tooz coordination backend URL, shared by every conductor, "
        "e.g. redis://127.0.0.1:6379 or etcd3+http://127.0.0.1:2379. The "
        "file:// default only coordinates processes on one host.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_opts(opts, group="coordination")


def list_opts() -> list[tuple[str, list]]:
    return [("coordination", opts)]
