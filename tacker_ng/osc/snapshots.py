"""``openstack vnflcm snapshot create|list|show|delete|revert``.

python-tackerclient 2.6.0 has no VNF snapshot commands; these drive
SOL003's two-step snapshot (an empty VnfSnapshotInfo, then the
create_snapshot task into it) and its revert as one command each.
"""

import argparse
import sys
from typing import TextIO

from osc_lib import exceptions
from osc_lib.command import command

from tacker_ng.osc import client, op_wait, views


def add_wait_flag(parser: argparse.ArgumentParser) -> None:
    """``--wait`` with its ``--timeout``/``--interval``."""
    parser.add_argument(
        "--wait",
        action="store_true",
        help="Wait until the operation ends; exit code 1 unless it is "
        "COMPLETED",
    )
    op_wait.add_wait_options(parser)


def start_snapshot(
    tacker: client.Client, instance_id: str, stderr: TextIO
) -> tuple[str, str]:
    """Create an empty VnfSnapshotInfo and take the snapshot into it.

    Returns (snapshot id, op occ id). When create_snapshot is refused,
    the empty VnfSnapshotInfo is deleted again so no orphan is left.
    """
    snap_id = tacker.create_snapshot_info()["id"]
    body = {"vnfSnapshotInfoId": snap_id}
    try:
        occ_id = tacker.start_task(instance_id, "create_snapshot", body)
    except client.ApiError:
        try:
            tacker.delete_snapshot(snap_id)
        except exceptions.CommandError as exc:
            stderr.write(
                f"Could not delete the empty VNF snapshot {snap_id}: {exc}\n"
            )
        raise
    return snap_id, occ_id


class CreateSnapshot(op_wait.WaitCommand):
    """Take a snapshot of a VNF instance.

    Creates an empty VnfSnapshotInfo, then starts CREATE_SNAPSHOT into it;
    prints the op occ and the VnfSnapshotInfo id ("VNF Snapshot Info ID"),
    or follows the op occ with --wait.
    """

    def get_parser(self, prog_name: str) -> argparse.ArgumentParser:
        parser = super().get_parser(prog_name)
        parser.add_argument(
            "vnf_instance", metavar="<vnf-instance>", help="VNF instance ID"
        )
        add_wait_flag(parser)
        return parser

    def take_action(
        self, parsed_args: argparse.Namespace
    ) -> tuple[tuple[str, ...], tuple]:
        tacker = self.app.client_manager.tacker_ng
        snap_id, occ_id = start_snapshot(
            tacker, parsed_args.vnf_instance, self.app.stderr or sys.stderr
        )
        if parsed_args.wait:
            columns, values = self.follow(occ_id, parsed_args)
        else:
            columns, values = views.occ_summary(tacker.op_occ(occ_id))
        return columns + (views.SNAPSHOT_INFO_ID_COLUMN,), values + (snap_id,)


class RevertToSnapshot(op_wait.WaitCommand):
    """Revert a VNF instance to one of its snapshots (REVERT_TO_SNAPSHOT).

    Prints the op occ (or follows it with --wait).
    """

    def get_parser(self, prog_name: str) -> argparse.ArgumentParser:
        parser = super().get_parser(prog_name)
        parser.add_argument(
            "vnf_instance", metavar="<vnf-instance>", help="VNF instance ID"
        )
        parser.add_argument(
            "snapshot",
            metavar="<vnf-snapshot>",
            help="VnfSnapshotInfo ID to revert to",
        )
        add_wait_flag(parser)
        return parser

    def take_action(
        self, parsed_args: argparse.Namespace
    ) -> tuple[tuple[str, ...], tuple]:
        tacker = self.app.client_manager.tacker_ng
        occ_id = tacker.start_task(
            parsed_args.vnf_instance,
            "revert_to_snapshot",
            {"vnfSnapshotInfoId": parsed_args.snapshot},
        )
        if parsed_args.wait:
            return self.follow(occ_id, parsed_args)
        return views.occ_summary(tacker.op_occ(occ_id))


class ListSnapshots(command.Lister):
    """List VNF snapshots (all pages), optionally with a SOL filter."""

    def get_parser(self, prog_name: str) -> argparse.ArgumentParser:
        parser = super().get_parser(prog_name)
        parser.add_argument(
            "--filter",
            metavar="<filter>",
            help="SOL013 attribute filter, sent as filter=, e.g. "
            "'(eq,vnfSnapshot/vnfInstanceId,<id>)'",
        )
        return parser

    def take_action(
        self, parsed_args: argparse.Namespace
    ) -> tuple[tuple[str, ...], list[tuple]]:
        tacker = self.app.client_manager.tacker_ng
        snaps = tacker.snapshots(parsed_args.filter)
        return views.SNAPSHOT_COLUMNS, views.snapshot_rows(snaps)


class ShowSnapshot(command.ShowOne):
    """Show one VNF snapshot (VnfSnapshotInfo)."""

    def get_parser(self, prog_name: str) -> argparse.ArgumentParser:
        parser = super().get_parser(prog_name)
        parser.add_argument(
            "snapshot", metavar="<vnf-snapshot>", help="VnfSnapshotInfo ID"
        )
        return parser

    def take_action(
        self, parsed_args: argparse.Namespace
    ) -> tuple[tuple[str, ...], tuple]:
        tacker = self.app.client_manager.tacker_ng
        return views.snapshot_summary(tacker.snapshot(parsed_args.snapshot))


class DeleteSnapshots(command.Command):
    """Delete VNF snapshots; tries each, exit code 1 if any failed."""

    def get_parser(self, prog_name: str) -> argparse.ArgumentParser:
        parser = super().get_parser(prog_name)
        parser.add_argument(
            "snapshots",
            metavar="<vnf-snapshot>",
            nargs="+",
            help="VnfSnapshotInfo ID(s) to delete",
        )
        return parser

    def take_action(self, parsed_args: argparse.Namespace) -> None:
        tacker = self.app.client_manager.tacker_ng
        stderr = self.app.stderr or sys.stderr
        failed = 0
        for snap_id in parsed_args.snapshots:
            try:
                tacker.delete_snapshot(snap_id)
            except exceptions.CommandError as exc:
                failed += 1
                stderr.write(f"{snap_id}: {exc}\n")
        if failed:
            raise exceptions.CommandError(
                f"Failed to delete {failed} of "
                f"{len(parsed_args.snapshots)} VNF snapshot(s)."
            )
