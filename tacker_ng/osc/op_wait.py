"""``openstack vnflcm op wait``: follow an op occ until it is final.

The exit code says how it ended (0 COMPLETED, 1 FAILED_TEMP, FAILED,
ROLLED_BACK or timeout), so scripts can chain LCM operations safely.
"""

import argparse
import logging
import sys
from typing import Any

from osc_lib import exceptions
from osc_lib.command import command

from tacker_ng.osc import views, waiting

LOG = logging.getLogger(__name__)


def add_wait_options(parser: argparse.ArgumentParser) -> None:
    """``--timeout``/``--interval``, shared by every waiting command."""
    parser.add_argument(
        "--timeout",
        metavar="<seconds>",
        type=float,
        default=3600.0,
        help="Give up (exit code 1) after this many seconds (default 3600)",
    )
    parser.add_argument(
        "--interval",
        metavar="<seconds>",
        type=float,
        default=2.0,
        help="Seconds between two polls of the op occ (default 2)",
    )


class WaitCommand(command.ShowOne):
    """A ShowOne that can follow an op occ and fail with its outcome."""

    unsuccessful: dict[str, Any] | None = None

    def follow(
        self, op_occ_id: str, parsed_args: argparse.Namespace
    ) -> tuple[tuple[str, ...], tuple]:
        """Wait for ``op_occ_id``, showing progress on stderr."""
        tacker = self.app.client_manager.tacker_ng
        stderr = self.app.stderr or sys.stderr
        reporter = waiting.Reporter(
            out=stderr, tty=bool(getattr(stderr, "isatty", bool)())
        )
        try:
            occ = waiting.wait(
                lambda: tacker.op_occ(op_occ_id),
                reporter,
                timeout=parsed_args.timeout,
                interval=parsed_args.interval,
            )
        except waiting.WaitTimeout as exc:
            raise exceptions.CommandError(str(exc)) from exc
        if occ.get("operationState") in waiting.UNSUCCESSFUL:
            self.unsuccessful = occ
        return views.occ_summary(occ)

    def run(self, parsed_args: argparse.Namespace) -> int:
        result = super().run(parsed_args)
        if self.unsuccessful is not None:
            stderr = self.app.stderr or sys.stderr
            stderr.write(waiting.outcome_message(self.unsuccessful) + "\n")
            return 1
        return result


class WaitOpOcc(WaitCommand):
    """Wait until a VNF LCM operation occurrence ends.

    Shows its progress (a bar on a terminal, one line per state change
    otherwise) on stderr, then the op occ. Exit code 0 when COMPLETED, 1
    when it ended FAILED_TEMP, FAILED or ROLLED_BACK (its error is
    printed) or when the timeout passed first.
    """

    def get_parser(self, prog_name: str) -> argparse.ArgumentParser:
        parser = super().get_parser(prog_name)
        parser.add_argument(
            "vnf_lcm_op_occ_id",
            metavar="<vnf-lcm-op-occ-id>",
            nargs="?",
            help="VNF LCM operation occurrence ID",
        )
        parser.add_argument(
            "--instance",
            metavar="<vnf-instance-id>",
            help="Instead of an op occ ID: the newest operation of this VNF "
            "instance (python-tackerclient's instantiate, scale, heal and "
            "terminate print no op occ ID)",
        )
        add_wait_options(parser)
        return parser

    def take_action(
        self, parsed_args: argparse.Namespace
    ) -> tuple[tuple[str, ...], tuple]:
        if bool(parsed_args.vnf_lcm_op_occ_id) == bool(parsed_args.instance):
            raise exceptions.CommandError(
                "Give either an op occ ID or --instance <vnf-instance-id>."
            )
        occ_id = parsed_args.vnf_lcm_op_occ_id
        if parsed_args.instance:
            tacker = self.app.client_manager.tacker_ng
            occ_id = tacker.newest_op_occ(parsed_args.instance)
            if occ_id is None:
                raise exceptions.CommandError(
                    f"VNF instance {parsed_args.instance} has no operation."
                )
        return self.follow(occ_id, parsed_args)
