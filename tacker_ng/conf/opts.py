"""Entry points for oslo-config-generator (``oslo.config.opts``) and the
project's defaults for options that libraries own."""

import collections

from oslo_config import cfg
from oslo_db import options as db_options
from oslo_log import log as logging
from oslo_messaging import transport as messaging_transport
from oslo_middleware import basic_auth

from tacker_ng import conf as tconf

#: The embedded default: one SQLite file under state_path.
EMBEDDED_DB = "sqlite:///$state_path/tacker-ng.sqlite"
#: The embedded default: the in-process bus (tacker-ng-all only).
EMBEDDED_TRANSPORT = "fake:/"


def list_opts() -> list[tuple[str, list]]:
    """Return ``[(section, [opts])]`` for every section tacker-ng owns."""
    grouped: dict[str, list] = collections.defaultdict(list)
    for module in tconf._load_modules():
        for section, opts in module.list_opts():
            grouped[section].extend(opts)
    return sorted(grouped.items())


def transport_opts() -> list:
    """The very option objects oslo.messaging registers for transports.

    ``oslo_messaging.opts.list_opts`` hands out copies, and registering a
    copy before oslo.messaging registers the original is a duplicate.
    """
    return list(messaging_transport._transport_opts)


def set_defaults(conf: cfg.ConfigOpts | None = None) -> None:
    """Our defaults for library options, so no config at all runs."""
    conf = conf or tconf.CONF
    db_options.set_defaults(conf, connection=EMBEDDED_DB)
    # Also on the option objects themselves, for the sample file.
    cfg.set_defaults(db_options.database_opts, connection=EMBEDDED_DB)
    if "transport_url" in conf:
        # oslo.messaging's list_opts hands out copies, so the sample still
        # shows its own default; the running service uses ours.
        conf.set_default("transport_url", EMBEDDED_TRANSPORT)
    cfg.set_defaults(
        basic_auth.OPTS, http_basic_auth_user_file="$state_path/htpasswd"
    )
    logging.set_defaults(
        default_log_levels=logging.get_default_log_levels()
        + ["taskflow=WARN", "stevedore=WARN", "alembic=WARN"]
    )
