"""Root of the URL tree: ``/``, the SOL APIs and ``/v1``."""

from tacker_ng.api import routing, versions
from tacker_ng.api.controllers import admin as v1
from tacker_ng.api.controllers import reservation
from tacker_ng.api.controllers import versions as versions_ctl
from tacker_ng.api.controllers.vnflcm import (
    op_occs,
    subscriptions,
    vnf_instances,
)
from tacker_ng.api.controllers.vnfpkgm import packages as vnfpkgm


class SolApiRoot:
    """``/{api}``: its api_versions and its major versions."""

    def __init__(self, api: versions.SolApi, major_controller) -> None:
        self.api_versions = versions_ctl.ApiVersionsController(api, False)
        setattr(self, api.major, major_controller)


class SolMajorRoot:
    """``/{api}/{major}``: api_versions plus the API's resources."""

    def __init__(self, api: versions.SolApi, **resources) -> None:
        self.api_versions = versions_ctl.ApiVersionsController(api, True)
        for name, controller in resources.items():
            setattr(self, name, controller)


def _sol_api(name: str) -> versions.SolApi:
    return next(api for api in versions.SOL_APIS if api.name == name)


class RootController:
    """``GET /`` lists the APIs; unauthenticated, like other services."""

    def __init__(self) -> None:
        vnflcm = _sol_api("vnflcm")
        self.vnflcm = SolApiRoot(
            vnflcm,
            SolMajorRoot(
                vnflcm,
                vnf_instances=vnf_instances.VnfInstancesController(),
                vnf_lcm_op_occs=op_occs.OpOccsController(),
                subscriptions=subscriptions.SubscriptionsController(),
            ),
        )
        pkgm = _sol_api("vnfpkgm")
        self.vnfpkgm = SolApiRoot(
            pkgm,
            SolMajorRoot(
                pkgm,
                vnf_packages=vnfpkgm.VnfPackages(),
                onboarded_vnf_packages=vnfpkgm.OnboardedVnfPackages(),
            ),
        )
        self.v1 = v1.V1Controller()
        self.reservation = reservation.ReservationController()

    @routing.resource()
    def index(self) -> dict:
        return {
            "name": "tacker-ng",
            "description": "ETSI NFV-SOL003 VNF Manager",
            "apis": [
                {
                    "name": api.name,
                    "uriPrefix": api.uri_prefix,
                    "versions": list(api.versions),
                }
                for api in versions.SOL_APIS
            ]
            + [
                {"name": "tacker-ng", "uriPrefix": "/v1"},
                {"name": "reservation", "uriPrefix": "/reservation/v1"},
            ],
        }
