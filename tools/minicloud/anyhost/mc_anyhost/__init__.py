"""ML2 mechanism driver that binds every port on any host.

minicloud's computes use Nova's fake virt driver and there is no L2 agent,
so the stock drivers cannot bind ports and Nova would fail the boot with
PortBindingFailed. This driver binds each port to its first segment.
"""

from neutron_lib import constants
from neutron_lib.api.definitions import portbindings
from neutron_lib.plugins.ml2 import api


class AnyHostDriver(api.MechanismDriver):
    """Bind as an OVS port on whatever host Nova asks for."""

    def initialize(self) -> None:
        """Nothing to set up."""

    @property
    def connectivity(self) -> str:
        """Plain L2 connectivity."""
        return portbindings.CONNECTIVITY_L2

    def bind_port(self, context) -> None:
        """Bind to the first segment offered."""
        vif_details = {
            portbindings.CAP_PORT_FILTER: False,
            portbindings.OVS_HYBRID_PLUG: False,
        }
        for segment in context.segments_to_bind:
            context.set_binding(
                segment[api.ID],
                portbindings.VIF_TYPE_OVS,
                vif_details,
                status=constants.PORT_STATUS_ACTIVE,
            )
            return
