"""Each notification carries its own interface's Version header, and the
table agrees with what the API serves."""

import pytest

from tacker_ng.api import versions
from tacker_ng.nfvo import callback

INTERFACE = {
    "VnfLcmOperationOccurrenceNotification": "vnflcm",
    "VnfIdentifierCreationNotification": "vnflcm",
    "VnfIdentifierDeletionNotification": "vnflcm",
    "AlarmNotification": "vnffm",
    "AlarmClearedNotification": "vnffm",
    "AlarmListRebuiltNotification": "vnffm",
    "PerformanceInformationAvailableNotification": "vnfpm",
    "ThresholdCrossedNotification": "vnfpm",
    "VnfPackageOnboardingNotification": "vnfpkgm",
    "VnfPackageChangeNotification": "vnfpkgm",
}


@pytest.mark.parametrize("kind", sorted(INTERFACE))
def test_version_is_the_interfaces(kind):
    served = {
        v
        for api in versions.SOL_APIS
        if api.name == INTERFACE[kind]
        for v in api.versions
    }
    assert callback.version_of({"notificationType": kind}) in served


def test_table_covers_every_kind_and_the_test_get_has_a_default():
    assert set(callback.NOTIFICATION_VERSIONS) == set(INTERFACE)
    assert callback.version_of(None) == callback.DEFAULT_VERSION


def test_send_puts_the_version_on_the_wire(conf, requests_mock):
    m = requests_mock.post("http://nfvo.test/cb", status_code=204)
    callback.send(
        "http://nfvo.test/cb",
        None,
        "POST",
        {"notificationType": "ThresholdCrossedNotification"},
    )
    assert m.last_request.headers["Version"] == "2.1.0"
