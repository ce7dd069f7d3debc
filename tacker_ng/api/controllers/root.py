"""Root of the URL tree: ``/``, the SOL APIs and ``/v1``."""

from tacker_ng.api import routing, versions
from tacker_ng.api.controllers import admin as v1
from tacker_ng.api.controllers import grant, nfvo, reservation, subscribing
from tacker_ng.api.controllers import versions as versions_ctl
from tacker_ng.api.controllers.vnffm import alarms as fm_alarms
from tacker_ng.api.controllers.vnffm import (
    subscriptions as fm_subscriptions,
)
from tacker_ng.api.controllers.vnflcm import (
    op_occs,
    subscriptions,
    vnf_instances,
    vnf_snapshots,
)
from tacker_ng.api.controllers.vnfpkgm import packages as vnfpkgm
from tacker_ng.api.controllers.vnfpkgm import (
    subscriptions as pkgm_subscriptions,
)
from tacker_ng.api.controllers.vnfpm import pm_jobs, thresholds


class SolApiRoot:
    """``/{api}``: its api_versions and its major versions."""

    def __init__(self, api: versions.SolApi, *major_controllers) -> None:
        self.api_versions = versions_ctl.ApiVersionsController(api, False)
        for controller in major_controllers:
            setattr(self, controller.api.major, controller)


class SolMajorRoot:
    """``/{api}/{major}``: api_versions plus the API's resources."""

    def __init__(self, api: versions.SolApi, **resources) -> None:
        self.api = api
        self.api_versions = versions_ctl.ApiVersionsController(api, True)
        for name, controller in resources.items():
            setattr(self, name, controller)


def _sol_api(name: str, major: str) -> versions.SolApi:
    return next(
        api
        for api in versions.SOL_APIS
        if api.name == name and api.major == major
    )


class RootController:
    """``GET /`` lists the APIs; unauthenticated, like other services."""

    def __init__(self) -> None:
        vnflcm = _sol_api("vnflcm", "v2")
        self.vnflcm = SolApiRoot(
            vnflcm,
            SolMajorRoot(
                vnflcm,
                vnf_instances=vnf_instances.VnfInstancesController(),
                vnf_lcm_op_occs=op_occs.OpOccsController(),
                vnf_snapshots=vnf_snapshots.VnfSnapshotsController(),
                subscriptions=subscribing.SubscriptionsController(
                    subscriptions.LCCN
                ),
            ),
        )
        pkgm_resources = {
            "vnf_packages": vnfpkgm.VnfPackages(),
            "onboarded_vnf_packages": vnfpkgm.OnboardedVnfPackages(),
            "subscriptions": subscribing.SubscriptionsController(
                pkgm_subscriptions.PKGM
            ),
        }
        pkgm_v2 = _sol_api("vnfpkgm", "v2")
        self.vnfpkgm = SolApiRoot(
            pkgm_v2,
            SolMajorRoot(pkgm_v2, **pkgm_resources),
            SolMajorRoot(_sol_api("vnfpkgm", "v1"), **pkgm_resources),
        )
        vnffm = _sol_api("vnffm", "v1")
        self.vnffm = SolApiRoot(
            vnffm,
            SolMajorRoot(
                vnffm,
                alarms=fm_alarms.AlarmsController(),
                subscriptions=subscribing.SubscriptionsController(
                    fm_subscriptions.FM
                ),
            ),
        )
        vnfpm = _sol_api("vnfpm", "v2")
        self.vnfpm = SolApiRoot(
            vnfpm,
            SolMajorRoot(
                vnfpm,
                pm_jobs=pm_jobs.PmJobsController(),
                thresholds=thresholds.ThresholdsController(),
            ),
        )
        grant_v1 = _sol_api("grant", "v1")
        self.grant = SolApiRoot(
            grant_v1, SolMajorRoot(grant_v1, grants=grant.GrantsController())
        )
        self.v1 = v1.V1Controller()
        self.reservation = reservation.ReservationController()
        # Tacker's NFVO API (python-tackerclient's "vim" commands).
        setattr(self, "v1.0", nfvo.V10Controller())

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
                {"name": "nfvo", "uriPrefix": "/v1.0"},
            ],
        }
