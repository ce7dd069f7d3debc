"""Process start-up shared by every tacker-ng command: config and logs."""

import os

import oslo_messaging as messaging
from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng import conf as tconf
from tacker_ng import library_logs
from tacker_ng.conf import opts as conf_opts

LOG = logging.getLogger(__name__)

#: Where operators put tacker.conf; the first existing ones are read.
DEFAULT_CONFIG_FILES = (
    "/etc/tacker_ng/tacker.conf",
    os.path.expanduser("~/.config/tacker_ng/tacker.conf"),
)
DEFAULT_CONFIG_DIRS = ("/etc/tacker_ng/tacker.conf.d",)


def register_library_opts(conf: cfg.ConfigOpts) -> None:
    """Register the options of libraries we read before they are used."""
    if "log_config_append" not in conf:
        logging.register_options(conf)
    conf.register_opts(conf_opts.transport_opts())
    conf_opts.set_defaults(conf)
    messaging.set_transport_defaults(control_exchange="tacker_ng")


def prepare_service(
    argv: list[str] | None, conf: cfg.ConfigOpts = tconf.CONF
) -> cfg.ConfigOpts:
    """Parse the command line and tacker.conf, then set up logging."""
    register_library_opts(conf)
    conf(
        argv if argv is not None else [],
        project="tacker_ng",
        prog=None,
        default_config_files=[
            f for f in DEFAULT_CONFIG_FILES if os.path.exists(f)
        ],
        default_config_dirs=[
            d for d in DEFAULT_CONFIG_DIRS if os.path.isdir(d)
        ],
    )
    os.makedirs(conf.state_path, mode=0o700, exist_ok=True)
    logging.setup(conf, "tacker-ng")
    library_logs.install()
    return conf
