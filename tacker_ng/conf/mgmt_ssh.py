"""``[mgmt_ssh]`` options of the MgmtDrivers' SSH executor.

How long a connection and a command may take, how long the executor keeps
trying while a new VM boots, and how host keys are verified. Host keys are
never accepted unseen unless an operator turns trust-on-first-use on.
"""

from oslo_config import cfg

opts = [
    cfg.FloatOpt(
        "connect_timeout",
        default=10.0,
        min=0.1,
        help="Seconds one SSH connection attempt (TCP connect, banner and "
        "authentication each) may take.",
    ),
    cfg.FloatOpt(
        "command_timeout",
        default=600.0,
        min=0.1,
        help="Seconds a remote command may run before it is abandoned and "
        "the operation fails; a MgmtDriver may give a longer one for a "
        "known long step.",
    ),
    cfg.IntOpt(
        "connect_attempts",
        default=12,
        min=1,
        help="Connection attempts to a host that is not reachable yet "
        "(refused, timed out, no SSH banner: a VM still booting) before "
        "the operation fails. Host key and authentication failures are "
        "never retried.",
    ),
    cfg.FloatOpt(
        "retry_initial_delay",
        default=2.0,
        min=0.0,
        help="Seconds to wait after the first failed connection attempt; "
        "each further wait doubles, up to retry_max_delay.",
    ),
    cfg.FloatOpt(
        "retry_max_delay",
        default=30.0,
        min=0.0,
        help="Longest wait in seconds between two connection attempts.",
    ),
    cfg.StrOpt(
        "known_hosts_file",
        help="An OpenSSH known_hosts file whose keys are trusted for hosts "
        "that a MgmtDriver connects to without a pinned host key. Unset: "
        "only pinned host keys are trusted.",
    ),
    cfg.BoolOpt(
        "trust_on_first_use",
        default=False,
        help="Accept the host key an unknown host presents on first "
        "connection and record it in known_hosts_file (which must then be "
        "set). A changed key of a recorded host is still refused. Off: a "
        "host whose key is neither pinned nor in known_hosts_file is "
        "refused.",
    ),
    cfg.IntOpt(
        "output_tail_lines",
        default=20,
        min=1,
        help="Lines of a failed command's output (stdout then stderr) kept "
        "in the error that fails the operation.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_opts(opts, group="mgmt_ssh")


def list_opts() -> list[tuple[str, list]]:
    return [("mgmt_ssh", opts)]
