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
        return views.CONDUCTOR_COLUMNS, views.conductor_rows(
            tacker.conductors()
        )
