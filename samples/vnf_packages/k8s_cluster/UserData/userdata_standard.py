"""LCM user data of this sample package: the StandardUserData contract.

The package selects StandardUserData with the instantiate defaults
``lcm-operation-user-data: ./UserData/userdata_standard.py`` and
``lcm-operation-user-data-class: StandardUserData``. tacker-ng's OpenStack
infra driver implements StandardUserData itself (Heat parameter "nfv" built
from the VNFD, the grant and the request; one resource per VNFC); this file
is shipped so that the package also names the class explicitly, as Tacker
packages do. The VNF manager only checks that the class exists here; it
does not import or run this file.
"""


class StandardUserData:
    """Marker for the built-in StandardUserData behaviour.

    Heat parameters it produces, per VNFC ``<VDU>-<n>``:
    ``nfv.VDU.<VDU>-<n>.computeFlavourId``, ``.vcImageId``,
    ``.locationConstraints`` and ``nfv.CP.<CP>.network``.
    """
