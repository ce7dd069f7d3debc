"""How the driver explains a failed stack attempt (Heat events + Nova).

Heat and Nova are replaced by plain objects holding what they would
answer: this tests the decision only; the real exchange runs against
minicloud in the functional tests.
"""

import types

from tacker_ng.infra.openstack import converge
from tacker_ng.placement import az_errors

ZONES = {"VDU1-0": "AZ-1", "VDU2-0": "AZ-2"}
UNKNOWN = (
    "ResourceInError: resources.VDU1-0.resources.VDU1: Went to status "
    'ERROR due to "Message: Unknown, Code: Unknown"'
)


class Heat:
    def __init__(self, events):
        self.events = events
        self.pauses = 0

    def pause(self, interval):
        self.pauses += 1
        return interval

    def settle(self, stack_id):
        return [
            {"resource_name": "VDU1-0", "resource_status": "CREATE_FAILED"},
            {"resource_name": "VDU2-0", "resource_status": "CREATE_COMPLETE"},
            {
                "resource_name": "VDU1",
                "parent_resource": "VDU1-0",
                "resource_type": "OS::Nova::Server",
                "physical_resource_id": "srv-1",
            },
        ]

    def events_since(self, stack_id, marker):
        return self.events


class Nova:
    def __init__(self, fault, building=0):
        self.fault = fault
        self.asked = []
        self.building = building

    def server(self, server_id):
        self.asked.append(server_id)
        if self.building:
            self.building -= 1
            return {"id": server_id, "status": "BUILD", "zone": "AZ-1"}
        return {
            "id": server_id,
            "status": "ERROR",
            "zone": "AZ-1",
            "fault": self.fault,
        }


def outcome(events, fault, building=0):
    nova = Nova(fault, building)
    vim = types.SimpleNamespace(heat=Heat(events), nova=nova)
    got = converge.outcome(vim, "stack-1", None, dict(ZONES), {})
    return got, nova, vim.heat


def _failed(reason):
    return {
        "resource_name": "VDU1-0",
        "resource_status": "CREATE_FAILED",
        "resource_status_reason": reason,
    }


def test_unknown_fault_is_read_from_nova_and_reselects_on_no_valid_host():
    got, nova, _ = outcome(
        [_failed(UNKNOWN)],
        {"message": "No valid host was found. ", "code": 500},
    )
    assert nova.asked == ["srv-1"]
    verdict = az_errors.judge(got.failures)
    assert verdict.reselectable and set(verdict.capacity) == {"VDU1-0"}


def test_unknown_fault_with_a_non_capacity_nova_fault_fails_at_once():
    got, nova, _ = outcome(
        [_failed(UNKNOWN)],
        {"message": "Build of instance aborted", "code": 500},
    )
    assert nova.asked == ["srv-1"]
    verdict = az_errors.judge(got.failures)
    assert not verdict.reselectable and verdict.other


def test_an_explained_failure_does_not_ask_nova():
    no_host = UNKNOWN.replace(
        "Message: Unknown, Code: Unknown",
        "Message: No valid host was found. , Code: 500",
    )
    got, nova, _ = outcome([_failed(no_host)], {})
    assert nova.asked == []
    assert az_errors.judge(got.failures).reselectable


def test_a_server_still_building_is_waited_for_and_its_fault_counts():
    """Heat gave up on VDU1-0 when another resource failed; Nova was
    still scheduling its server. Its NoValidHost belongs to this
    attempt: waiting for it saves a whole stack attempt."""
    cancelled = {
        "resource_name": "VDU1-0",
        "resource_status": "CREATE_FAILED",
        "resource_status_reason": "Stack CREATE cancelled",
    }
    got, nova, heat = outcome(
        [cancelled],
        {"message": "No valid host was found. ", "code": 500},
        building=2,
    )
    assert nova.asked == ["srv-1"] * 3 and heat.pauses == 2
    verdict = az_errors.judge(got.failures)
    assert verdict.reselectable and set(verdict.capacity) == {"VDU1-0"}
