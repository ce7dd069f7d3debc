"""tacker-ng-status upgrade check (oslo.upgradecheck)."""

import datetime
import os
import sys

from oslo_config import cfg
from oslo_upgradecheck import common_checks, upgradecheck

from tacker_ng import conf as tconf
from tacker_ng import context, policies, release_mappings, rpc, service
from tacker_ng.auth import privilege
from tacker_ng.db import conductors as conductors_db
from tacker_ng.db import migration
from tacker_ng.db.types import utcnow

Code = upgradecheck.Code
Result = upgradecheck.Result


class Checks(upgradecheck.UpgradeCommands):
    """Is this deployment ready to run the installed code?"""

    def _check_schema(self) -> Result:
        try:
            current, head = migration.current(), migration.head()
        except Exception as exc:  # noqa: BLE001 - reported as failure
            return Result(Code.FAILURE, f"Cannot reach the database: {exc}")
        if current != head:
            return Result(
                Code.FAILURE,
                f"Schema is at {current or 'nothing'}, the code needs "
                f"{head}: run 'tacker-ng-db-manage upgrade'.",
            )
        return Result(Code.SUCCESS, f"Schema is at {head}.")

    def _check_conductors(self) -> Result:
        timeout = cfg.CONF.conductor.heartbeat_timeout
        alive_after = utcnow() - datetime.timedelta(seconds=timeout)
        try:
            fleet = conductors_db.list_all(
                context.get_admin_context(), alive_after
            )
        except Exception as exc:  # noqa: BLE001 - reported as failure
            return Result(Code.FAILURE, f"Cannot list conductors: {exc}")
        alive = [c["hostname"] for c in fleet if c["alive"]]
        if not alive:
            return Result(
                Code.WARNING,
                "No conductor has sent a heartbeat in the last "
                f"{timeout}s; LCM requests would wait.",
            )
        return Result(Code.SUCCESS, f"Alive conductors: {', '.join(alive)}")

    def _check_rpc_versions(self) -> Result:
        """Conductors older than this code need a pinned release."""
        timeout = cfg.CONF.conductor.heartbeat_timeout
        alive_after = utcnow() - datetime.timedelta(seconds=timeout)
        try:
            fleet = conductors_db.list_all(
                context.get_admin_context(), alive_after
            )
        except Exception as exc:  # noqa: BLE001 - reported as failure
            return Result(Code.FAILURE, f"Cannot list conductors: {exc}")
        return rpc_versions_result(
            {c["hostname"]: c["rpcVersion"] for c in fleet if c["alive"]},
            cfg.CONF.pin_release_version,
        )

    def _check_transport(self) -> Result:
        if rpc.transport_is_in_process(cfg.CONF):
            return Result(
                Code.WARNING,
                "transport_url is the in-process bus: only tacker-ng-all "
                "works; separate API and conductor processes need "
                "RabbitMQ.",
            )
        return Result(Code.SUCCESS)

    def _check_privilege(self) -> Result:
        """Least privilege: no strategy may make every caller admin."""
        problem = privilege.everyone_admin(cfg.CONF)
        if problem:
            return Result(Code.WARNING, problem)
        return Result(Code.SUCCESS)

    _upgrade_checks = (
        ("Database schema", _check_schema),
        ("Message bus", _check_transport),
        ("API privileges", _check_privilege),
        ("Conductors", _check_conductors),
        ("RPC versions", _check_rpc_versions),
        ("Policy file", (common_checks.check_policy_json, {"conf": cfg.CONF})),
    )


def _v(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def rpc_versions_result(conductors: dict[str, str], pinned: str | None):
    """The RPC check from alive conductors' versions and the pin."""
    ns = release_mappings.CONDUCTOR
    ours = release_mappings.RELEASES[release_mappings.CURRENT][ns]
    cap = release_mappings.version_cap(ns)
    older = {h: v for h, v in conductors.items() if _v(v) < _v(ours)}
    too_old = {h: v for h, v in older.items() if _v(v) < _v(cap)}
    if too_old:
        names = ", ".join(f"{h} ({v})" for h, v in sorted(too_old.items()))
        newest_ok = min(too_old.values(), key=_v)
        release = release_mappings.release_of(ns, newest_ok)
        hint = (
            f"set [DEFAULT] pin_release_version = {release}"
            if release
            else "upgrade them first"
        )
        return Result(
            Code.FAILURE,
            f"Conductors older than RPC {cap} are running: {names}; "
            f"{hint} on the API services until they are upgraded.",
        )
    if pinned and not older and conductors:
        return Result(
            Code.WARNING,
            f"Every conductor serves RPC {ours}: remove [DEFAULT] "
            f"pin_release_version = {pinned} to use it.",
        )
    return Result(Code.SUCCESS, f"Conductor RPC cap {cap}.")


def main(argv: list[str] | None = None) -> None:
    conf = tconf.CONF
    service.register_library_opts(conf)
    policies.get_enforcer()  # registers [oslo_policy] for the policy check
    sys.exit(
        upgradecheck.main(
            conf,
            project="tacker_ng",
            upgrade_command=Checks(),
            argv=sys.argv[1:] if argv is None else argv,
            default_config_files=[
                f for f in service.DEFAULT_CONFIG_FILES if os.path.exists(f)
            ],
        )
    )
