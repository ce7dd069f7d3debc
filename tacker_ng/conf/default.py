"""``[DEFAULT]`` options: identity of this node and where state lives."""

import os
import socket

from oslo_config import cfg

DEFAULT_STATE_PATH = os.path.join(
    os.environ.get("XDG_STATE_HOME", os.path.expanduser("~/.local/state")),
    "tacker-ng",
)

#: Releases whose RPC versions a deployment can be pinned to (kept in step
#: with tacker_ng.release_mappings.RELEASES by a unit test).
PINNABLE_RELEASES = ("2026.1",)

opts = [
    cfg.StrOpt(
        "state_path",
        default=DEFAULT_STATE_PATH,
        sample_default="$HOME/.local/state/tacker-ng",
        help="Directory for local state: the embedded SQLite database, "
        "the VNF package store, Fernet keys and lock files.",
    ),
    cfg.HostDomainOpt(
        "host",
        default=socket.gethostname(),
        sample_default="<server-hostname>",
        help="Name of this node, as shown in the conductor list. Must be "
        "unique among the conductors sharing a database.",
    ),
    cfg.StrOpt(
        "fernet_key_repository",
        default="$state_path/fernet-keys",
        help="Directory holding the Fernet keys that encrypt VIM, SSH and "
        "OAuth2 credentials at rest, in files named 0, 1, 2, ... The "
        "highest-numbered key encrypts and every key decrypts, so keys "
        "can be rotated. Created with one key on first use when missing.",
    ),
    cfg.ListOpt(
        "outbound_deny_networks",
        default=[
            "127.0.0.0/8",
            "::1/128",
            "0.0.0.0/8",
            "::/128",
            "169.254.0.0/16",
            "fe80::/10",
            "fd00:ec2::254/128",
        ],
        help="Networks (CIDR) the VNF manager never connects to for URLs "
        "an API caller chose: subscription callbackUri and OAuth2 token "
        "endpoints, package upload_from_uri. The default denies loopback, "
        "the unspecified addresses and link-local ones (where cloud "
        "metadata services answer, 169.254.169.254). Add private ranges "
        "to keep callers out of the management network; empty it only in "
        "a lab where NFVO and VNFM share a host.",
    ),
    cfg.StrOpt(
        "pin_release_version",
        choices=PINNABLE_RELEASES,
        help="During a rolling upgrade: the release of the oldest "
        "conductor still running. API services then send conductors only "
        "the RPC versions that release knows. Unset (the default) once "
        "every conductor runs this release.",
    ),
]


def register_opts(conf: cfg.ConfigOpts) -> None:
    conf.register_opts(opts)


def list_opts() -> list[tuple[str, list]]:
    return [("DEFAULT", opts)]
