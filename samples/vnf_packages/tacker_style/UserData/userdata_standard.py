"""Names Tacker's StandardUserData contract for this test package.

Tacker imports this file and runs the class in its conductor; tacker-ng
never imports or runs package code. Its OpenStack driver implements the
contract itself (per-VNFC resources, the nfv parameter, the request's
additionalParams.nfv patch); onboarding only checks that the class named
by lcm-operation-user-data-class is defined here.
"""


class StandardUserData:
    """Marker: the VNFM's built-in StandardUserData behaviour applies."""
