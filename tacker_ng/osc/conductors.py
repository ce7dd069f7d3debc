"""``openstack tacker-ng conductor list``: the conductor fleet."""

import argparse

from osc_lib.command import command

from tacker_ng.osc import views


class ListConductors(command.Lister):
    """List tacker-ng conductors with their liveness (admin).

    Alive means online with a heartbeat newer than the API's
    [conductor] heartbeat_timeout. Which op occs each conductor has
    claimed is not exposed by the API (GET /v1/conductors).
    """

    def take_action(
        self, parsed_args: argparse.Namespace
    ) -> tuple[tuple[str, ...], list[tuple]]:
        tacker = self.app.client_manager.tacker_ng
        fleet = tacker.conductors()
        rows = views.conductor_rows(fleet)
        if any(c.get("sandbox") for c in fleet):
            # tacker-ng-all in its sandbox: say so where operators look.
            return (
                (*views.CONDUCTOR_COLUMNS, "Sandbox"),
                [
                    (*row, bool(c.get("sandbox")))
                    for row, c in zip(rows, fleet, strict=True)
                ],
            )
        return views.CONDUCTOR_COLUMNS, rows
