"""``openstack vnflcm observed show``: convergence's observed state."""

import argparse
import sys

from osc_lib.command import command

from tacker_ng.osc import views


class ShowObserved(command.Lister):
    """Show each VNFC's desired vs observed state (admin).

    Desired is what the last accepted operation left; observed is what
    tacker-ng's observer last saw on the VIM: server status, compute host
    (and whether it is up), zone, when, and the drift between the two
    (MISSING, ERROR, SHUTOFF, HOST_DOWN). A summary line (last
    observation, auto-heal state) goes to stderr.
    """

    def get_parser(self, prog_name: str) -> argparse.ArgumentParser:
        parser = super().get_parser(prog_name)
        parser.add_argument(
            "vnf_instance", metavar="<vnf-instance>", help="VNF instance ID"
        )
        parser.add_argument(
            "--drift-only",
            action="store_true",
            help="Only the VNFCs whose observed state drifted",
        )
        return parser

    def take_action(
        self, parsed_args: argparse.Namespace
    ) -> tuple[tuple[str, ...], list[tuple]]:
        tacker = self.app.client_manager.tacker_ng
        body = tacker.observed(parsed_args.vnf_instance)
        stderr = self.app.stderr or sys.stderr
        stderr.write(views.observed_summary(body) + "\n")
        return views.OBSERVED_COLUMNS, views.observed_rows(
            body, drift_only=parsed_args.drift_only
        )
