"""tacker-ng-db-manage: upgrade, downgrade, current, revision."""

import sys

from oslo_config import cfg

from tacker_ng import service
from tacker_ng.db import migration


def _add_commands(subparsers) -> None:
    upgrade = subparsers.add_parser("upgrade", help="Upgrade the schema.")
    upgrade.add_argument("revision", nargs="?", default="head")
    upgrade.set_defaults(func=lambda a: migration.upgrade(a.revision))

    downgrade = subparsers.add_parser(
        "downgrade", help="Downgrade the schema ('base' drops everything)."
    )
    downgrade.add_argument("revision")
    downgrade.set_defaults(func=lambda a: migration.downgrade(a.revision))

    current = subparsers.add_parser(
        "current", help="Print the schema revision of the database."
    )
    current.set_defaults(
        func=lambda a: print(migration.current() or "None (empty database)")
    )

    revision = subparsers.add_parser(
        "revision", help="Create a new migration file (developers)."
    )
    revision.add_argument("-m", "--message", required=True)
    revision.add_argument(
        "--no-autogenerate", dest="autogenerate", action="store_false"
    )
    revision.set_defaults(
        func=lambda a: migration.revision(a.message, a.autogenerate)
    )


command_opt = cfg.SubCommandOpt(
    "command",
    title="Commands",
    help="Available commands",
    handler=_add_commands,
)


def main(argv: list[str] | None = None) -> None:
    cfg.CONF.register_cli_opt(command_opt)
    conf = service.prepare_service(sys.argv[1:] if argv is None else argv)
    try:
        conf.command.func(conf.command)
    except Exception as exc:  # noqa: BLE001 - one line for the operator
        sys.exit(f"tacker-ng-db-manage {conf.command.name}: {exc}")
