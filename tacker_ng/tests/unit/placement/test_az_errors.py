"""Capacity classification and failed-VNFC parsing of Heat failure texts.

The texts are the ones Heat 26 + Nova 33 really produce (captured on
minicloud) and the spec's examples.
"""

import re

import pytest

from tacker_ng.conf import placement as placement_conf
from tacker_ng.placement import az_errors

DEFAULT = placement_conf.DEFAULT_AZ_RESOURCE_ERROR_REGEX
UUID = "35df627a-135e-4578-b45e-c44da2b3cab9"
NO_VALID_HOST = (
    'Went to status ERROR due to "Message: No valid host was found. , '
    'Code: 500"'
)
EXCEEDED = (
    'Went to status ERROR due to "Message: Exceeded maximum number of '
    "retries. Exhausted all hosts available for retrying build failures "
    f'for instance {UUID}., Code: 500"'
)
# The spec's examples (section 4), verbatim apart from the quotes.
SPEC_EX1 = (
    "Resource CREATE failed: ResourceInError: resources.VDU1-0: "
    + NO_VALID_HOST
)
SPEC_EX2 = (
    f"Resource CREATE failed: ResourceInError: resources.VDU1-0: {EXCEEDED}"
)
# What Heat writes for a nested VNFC template (root stack event).
NESTED_CREATE = (
    "Resource CREATE failed: ResourceInError: "
    f"resources.VDU1-0.resources.VDU1: {NO_VALID_HOST}"
)
NESTED_CREATE_EXCEEDED = (
    "Resource CREATE failed: ResourceInError: "
    f"resources.VDU2-1.resources.VDU2: {EXCEEDED}"
)
# Heal / scale: the update replaces a server and that fails.
NESTED_UPDATE = (
    "Resource UPDATE failed: resources.VDU1-1: Resource CREATE failed: "
    f"ResourceInError: resources.VDU1: {NO_VALID_HOST}"
)
NESTED_UPDATE_EXCEEDED = (
    "Resource UPDATE failed: resources.VDU2-3: Resource CREATE failed: "
    f"ResourceInError: resources.VDU2: {EXCEEDED}"
)
# Heat truncates event reasons to 255 characters.
TRUNCATED = NESTED_CREATE_EXCEEDED[:255]
# The top-level resource's own event (no "Resource CREATE failed:").
RESOURCE_EVENT = (
    f"ResourceInError: resources.VDU1-0.resources.VDU1: {NO_VALID_HOST}"
)
KNOWN = {"VDU1-0", "VDU1-1", "VDU2-0", "VDU2-1", "VDU2-3"}
# OpenStack Tacker's VDU regex (v2 openstack.py), greedy.
TACKER_GREEDY = re.compile(r"resources\.((.*)-([0-9]+))")


@pytest.mark.parametrize(
    "reason",
    [
        SPEC_EX1,
        SPEC_EX2,
        NESTED_CREATE,
        NESTED_CREATE_EXCEEDED,
        NESTED_UPDATE,
        NESTED_UPDATE_EXCEEDED,
        TRUNCATED,
        RESOURCE_EVENT,
        "No valid host was found. ",
    ],
)
def test_default_regex_matches_both_messages_for_create_and_update(reason):
    assert az_errors.is_capacity_error(reason, DEFAULT)


@pytest.mark.parametrize(
    "reason",
    [
        "Resource CREATE failed: Forbidden: resources.VDU1-0.resources."
        "VDU1: Quota exceeded for instances: Requested 1, but already "
        "used 0 of 0 instances (HTTP 403)",
        "Resource CREATE failed: BadRequest: resources.VDU1-0.resources."
        "VDU1_CP1: Invalid input for operation: network not found",
        "Resource CREATE failed: resources.VDU2-1: Stack CREATE cancelled",
        "CREATE aborted (Task create from ResourceGroup timed out)",
        # The second message needs the instance's UUID.
        "Exceeded maximum number of retries. Exhausted all hosts",
        "",
    ],
)
def test_default_regex_rejects_other_failures(reason):
    assert not az_errors.is_capacity_error(reason, DEFAULT)


def test_operator_regex_from_the_spec_ex1_counts_every_create_failure():
    permissive = r"Resource CREATE failed:(.*)"
    assert az_errors.is_capacity_error(NESTED_CREATE, permissive)
    assert az_errors.is_capacity_error(NESTED_UPDATE, permissive)
    assert not az_errors.is_capacity_error(RESOURCE_EVENT, permissive)


def test_operator_regex_only_no_valid_host():
    strict = r"No valid host was found"
    assert az_errors.is_capacity_error(NESTED_CREATE, strict)
    assert not az_errors.is_capacity_error(NESTED_CREATE_EXCEEDED, strict)


def test_invalid_regex_is_a_clear_error():
    with pytest.raises(az_errors.InvalidErrorRegex, match="az_resource"):
        az_errors.is_capacity_error("x", "([")


@pytest.mark.parametrize(
    "reason,vnfc",
    [
        (SPEC_EX1, "VDU1-0"),
        (SPEC_EX2, "VDU1-0"),
        (NESTED_CREATE, "VDU1-0"),
        (NESTED_CREATE_EXCEEDED, "VDU2-1"),
        (NESTED_UPDATE, "VDU1-1"),
        (NESTED_UPDATE_EXCEEDED, "VDU2-3"),
        (TRUNCATED, "VDU2-1"),
        (RESOURCE_EVENT, "VDU1-0"),
    ],
)
def test_failed_vnfc_with_and_without_known_names(reason, vnfc):
    assert az_errors.failed_vnfc(reason, KNOWN) == vnfc
    assert az_errors.failed_vnfc(reason) == vnfc


def test_tacker_greedy_regex_misses_the_exceeded_message():
    """The defect this parser exists for: Tacker's greedy regex swallows
    the message up to the UUID's last '-<digits>' and names no VDU, so
    Tacker silently skips reselection; ours names the VNFC."""
    greedy = TACKER_GREEDY.search(SPEC_EX2).group(1)
    assert greedy != "VDU1-0"
    assert "Exceeded maximum" in greedy and greedy.endswith("-4578")
    assert az_errors.failed_vnfc(SPEC_EX2, KNOWN) == "VDU1-0"
    # Nested path too: greedy runs past both path segments.
    greedy = TACKER_GREEDY.search(NESTED_UPDATE_EXCEEDED).group(1)
    assert greedy not in KNOWN
    assert az_errors.failed_vnfc(NESTED_UPDATE_EXCEEDED, KNOWN) == "VDU2-3"


def test_greedy_regex_happens_to_work_for_no_valid_host():
    assert TACKER_GREEDY.search(SPEC_EX1).group(1) == "VDU1-0"


def test_known_names_skip_other_segments():
    reason = "Resource UPDATE failed: resources.internalVL1-9: x"
    assert az_errors.failed_vnfc(reason, KNOWN) is None
    assert az_errors.failed_vnfc(reason) == "internalVL1-9"


def test_known_name_with_dots_is_matched_literally():
    reason = (
        "Resource CREATE failed: resources.vdu.a-0.resources.x: "
        + NO_VALID_HOST
    )
    assert az_errors.failed_vnfc(reason, {"vdu.a-0", "vdu.a-1"}) == "vdu.a-0"


def test_no_path_names_nothing():
    assert az_errors.failed_vnfc("Stack CREATE failed", KNOWN) is None
    assert az_errors.failed_vnfc("", KNOWN) is None
    assert az_errors.failed_vnfc("resources.VDU1", ()) is None


def test_failed_zone_is_the_vnfc_zone():
    zones = {"VDU1-0": "AZ-1", "VDU2-1": "AZ-3"}
    assert az_errors.failed_zone(NESTED_CREATE_EXCEEDED, zones) == "AZ-3"
    assert az_errors.failed_zone(NESTED_CREATE, zones) == "AZ-1"
    assert az_errors.failed_zone(NESTED_UPDATE, zones) is None


def _event(name, status, reason):
    return {
        "resource_name": name,
        "resource_status": status,
        "resource_status_reason": reason,
    }


def test_failures_group_root_and_resource_events_by_vnfc():
    events = [
        _event("vnf-x", "CREATE_IN_PROGRESS", "Stack CREATE started"),
        _event("VDU1-0", "CREATE_FAILED", RESOURCE_EVENT),
        _event("vnf-x", "CREATE_FAILED", NESTED_CREATE),
        _event("VDU2-1", "CREATE_FAILED", NESTED_CREATE_EXCEEDED[20:]),
        _event("vnf-x", "CREATE_FAILED", TRUNCATED),
        _event(
            "vnf-x",
            "CREATE_FAILED",
            "Resource CREATE failed: resources.VDU2-0: Stack CREATE cancelled",
        ),
        _event("VDU2-0", "CREATE_FAILED", "Stack CREATE cancelled"),
        _event("VDU1-1", "CREATE_COMPLETE", "state changed"),
    ]
    found = {f.vnfc: f for f in az_errors.failures(events, KNOWN, DEFAULT)}
    assert set(found) == {"VDU1-0", "VDU2-1", "VDU2-0"}
    assert found["VDU1-0"].capacity and len(found["VDU1-0"].reasons) == 2
    assert found["VDU2-1"].capacity
    assert found["VDU2-0"].cancelled and not found["VDU2-0"].capacity
    verdict = az_errors.judge(found.values())
    assert verdict.reselectable
    assert set(verdict.capacity) == {"VDU1-0", "VDU2-1"}


def test_events_work_as_objects_too():
    class Event:
        resource_name = "vnf-x"
        resource_status = "UPDATE_FAILED"
        resource_status_reason = NESTED_UPDATE

    (found,) = az_errors.failures([Event()], KNOWN, DEFAULT)
    assert found.vnfc == "VDU1-1" and found.capacity


def test_any_real_non_capacity_failure_stops_reselection():
    events = [
        _event("vnf-x", "CREATE_FAILED", NESTED_CREATE),
        _event(
            "vnf-x",
            "CREATE_FAILED",
            "Resource CREATE failed: Forbidden: resources.VDU2-0.resources."
            "VDU2: Quota exceeded for instances",
        ),
    ]
    verdict = az_errors.judge(az_errors.failures(events, KNOWN, DEFAULT))
    assert not verdict.reselectable
    assert verdict.other == (events[1]["resource_status_reason"],)


def test_capacity_failure_naming_no_vnfc_is_not_reselectable():
    events = [_event("vnf-x", "CREATE_FAILED", "No valid host was found.")]
    verdict = az_errors.judge(az_errors.failures(events, KNOWN, DEFAULT))
    assert not verdict.reselectable and verdict.other


def test_only_cancellations_is_not_reselectable():
    events = [
        _event(
            "vnf-x",
            "CREATE_FAILED",
            "Resource CREATE failed: resources.VDU2-0: Stack CREATE cancelled",
        )
    ]
    verdict = az_errors.judge(az_errors.failures(events, KNOWN, DEFAULT))
    assert not verdict.reselectable and not verdict.other


def test_mixed_cancel_and_real_reason_reports_the_real_one():
    events = [
        _event("VDU2-0", "CREATE_FAILED", "Stack CREATE cancelled"),
        _event("VDU2-0", "CREATE_FAILED", "BadRequest: resources.VDU2-0: x"),
    ]
    verdict = az_errors.judge(az_errors.failures(events, KNOWN, DEFAULT))
    assert verdict.other == ("BadRequest: resources.VDU2-0: x",)


@pytest.mark.parametrize(
    "reason",
    [
        "Stack CREATE cancelled",
        "Resource CREATE failed: resources.VDU2-1: Stack UPDATE cancelled",
        "Operation cancelled",
    ],
)
def test_cancellations(reason):
    assert az_errors.is_cancellation(reason)
    assert not az_errors.is_cancellation(NESTED_CREATE)


UNKNOWN = (
    "ResourceInError: resources.VDU1-0.resources.VDU1: Went to status "
    'ERROR due to "Message: Unknown, Code: Unknown"'
)


def test_heats_unknown_fault_is_no_verdict_until_novas_fault_is_read():
    """Nova sets ERROR before it writes the fault; Heat can read the
    server in between and says "Message: Unknown". That is not a
    non-capacity error: the driver asks Nova, whose fault decides."""
    events = [_event("VDU1-0", "CREATE_FAILED", UNKNOWN)]
    (found,) = az_errors.failures(events, KNOWN, DEFAULT)
    assert found.unknown and not found.capacity and not found.cancelled
    nova = _event(
        "VDU1-0",
        "CREATE_FAILED",
        "ResourceInError: resources.VDU1-0.resources.VDU1: Went to status "
        'ERROR due to "Message: No valid host was found. , Code: 500" '
        "(from Nova)",
    )
    (found,) = az_errors.failures(events + [nova], KNOWN, DEFAULT)
    assert found.capacity and not found.unknown
    assert az_errors.judge([found]).reselectable
    # A known non-capacity reason beside it is no "unknown" any more.
    other = _event("VDU1-0", "CREATE_FAILED", "Quota exceeded for instances")
    (found,) = az_errors.failures(events + [other], KNOWN, DEFAULT)
    assert not found.unknown and not found.capacity
    assert az_errors.is_unknown_fault(UNKNOWN)
    assert not az_errors.is_unknown_fault("No valid host was found.")
