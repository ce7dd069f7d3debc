"""``/v1.0``: Tacker's NFVO API as python-tackerclient calls it (the VIM
registry).

python-tackerclient's legacy client puts the format on the last path
segment (``/v1.0/vims.json``, ``/v1.0/vims/<id>.json``), as Tacker's
Routes mapper accepted; both forms are served.
"""

import pecan

from tacker_ng.api.controllers.nfvo import vims

PREFIX = "/v1.0"
SUFFIX = ".json"


class V10Controller:
    vims = vims.VimsController()

    @pecan.expose()
    def _lookup(self, name: str, *remainder):
        if name == "vims" + SUFFIX:
            return self.vims, remainder
        pecan.abort(404)
