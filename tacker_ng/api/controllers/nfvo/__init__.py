"""``/v1.0``: Tacker's NFVO API as python-tackerclient calls it (the VIM
registry)."""

from tacker_ng.api.controllers.nfvo import vims

PREFIX = "/v1.0"


class V10Controller:
    vims = vims.VimsController()
