"""``openstack vnflcm placement show``: where each VNFC of a VNF runs."""

import argparse
import sys

from osc_lib.command import command

from tacker_ng.osc import views


class ShowPlacement(command.Lister):
    """Show each VNFC of a VNF instance with its zone, server and group.

    The zone is the one the server really runs in (after AZ reselection).
    Compute hosts are in ``vnflcm observed show``; the zones tried are
    not exposed by the API: the command says so on stderr.
    """

    def get_parser(self, prog_name: str) -> argparse.ArgumentParser:
        parser = super().get_parser(prog_name)
        parser.add_argument(
            "vnf_instance", metavar="<vnf-instance>", help="VNF instance ID"
        )
        return parser

    def take_action(
        self, parsed_args: argparse.Namespace
    ) -> tuple[tuple[str, ...], list[tuple]]:
        tacker = self.app.client_manager.tacker_ng
        instance = tacker.vnf_instance(parsed_args.vnf_instance)
        rows = views.placement_rows(instance)
        stderr = self.app.stderr or sys.stderr
        if not rows:
            stderr.write(
                f"VNF instance {instance.get('id')} is "
                f"{instance.get('instantiationState')}: no VNFC.\n"
            )
        stderr.write(f"Note: {views.PLACEMENT_NOT_EXPOSED}\n")
        return views.PLACEMENT_COLUMNS, rows
