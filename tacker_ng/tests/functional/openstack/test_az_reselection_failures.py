"""When AZ reselection must not or cannot help, on real Heat + Nova.

Non-capacity errors and capacity errors with fallbackBestEffort off fail
at once; all zones full and the retry cap end with the zones tried; a
retry continues from the persisted zones; Nova's "Exceeded maximum
number of retries" (a compute that fails the build) is a capacity
failure by default and not with a stricter operator regex.
"""

from __future__ import annotations

import pytest

from tacker_ng.infra.openstack import errors
from tacker_ng.tests.functional.openstack import env

pytestmark = pytest.mark.minicloud
Op = env.Op
GRANTED = {
    "VDU1-0": "AZ-1",
    "VDU1-1": "AZ-1",
    "VDU2-0": "AZ-2",
    "VDU2-1": "AZ-3",
}
EXCEEDED = (
    "Exceeded maximum number of retries. Exhausted all hosts available "
    "for retrying build failures for instance "
)


def request(cloud) -> dict:
    return {"flavourId": "simple", "extVirtualLinks": env.ext_links(cloud)}


def statuses(vnf: env.Vnf) -> list[str]:
    return [a["status"] for a in vnf.attempts()]


def rolled_back(cloud, vnf: env.Vnf) -> None:
    """Rollback of a failed instantiate deletes the stack."""
    vnf.rollback()
    assert not cloud.live_stacks(vnf.stack_name)


def test_non_capacity_error_fails_at_once(
    cloud, placement, capacity, spec_package
):
    """A project quota of 0 instances: Nova refuses every server with a
    403, which is no lack of zone capacity: FAILED at the first attempt."""
    nova = cloud.nova(admin=True)
    nova.quotas.update(cloud.project_id, force=True, instances=0)
    vnf = env.Vnf(cloud, spec_package)
    try:
        with pytest.raises(errors.StackFailed, match="Quota exceeded") as exc:
            vnf.run(Op.INSTANTIATE, request(cloud))
    finally:
        nova.quotas.delete(cloud.project_id)
    assert exc.value.status == 502
    assert statuses(vnf) == ["CREATE_FAILED"]
    assert vnf.attempts()[0]["zones"] == GRANTED
    assert vnf.heat_attempts() == 1
    rolled_back(cloud, vnf)


def test_fallback_off_no_reselection(cloud, placement, capacity, spec_package):
    """fallback_best_effort false: AZ-1 full fails the operation (409
    ProblemDetails quoting Nova), zones untouched, one attempt."""
    placement.set_override("fallback_best_effort", False, group="placement")
    cloud.fill_zone("AZ-1")
    vnf = env.Vnf(cloud, spec_package)
    with pytest.raises(errors.InsufficientCapacity) as exc:
        vnf.run(Op.INSTANTIATE, request(cloud))
    problem = exc.value.to_problem_details()
    assert problem["status"] == 409
    assert "No valid host was found" in problem["detail"]
    assert "fallback_best_effort is false" in problem["detail"]
    # The grant's placement constraints say so too.
    constraints = vnf.last["task"].grant_request["placementConstraints"]
    assert {c["fallbackBestEffort"] for c in constraints} == {False}
    assert statuses(vnf) == ["CREATE_FAILED"]
    assert vnf.attempts()[0]["zones"] == GRANTED
    assert "assignment" not in vnf.last["progress"]
    assert vnf.heat_attempts() == 1
    rolled_back(cloud, vnf)


def test_all_zones_full_then_retry_continues(
    cloud, placement, capacity, spec_package
):
    """Every zone full: each attempt rules out the zones whose servers
    failed, until no candidate is left: FAILED naming the zones tried.
    With capacity back, a retry of the same operation continues from the
    last zones: one more stack update succeeds.

    The first attempt rules out AZ-1..AZ-3 when Heat's failure covers
    every server; when Heat gave up before a server in AZ-2 or AZ-3 even
    existed, nothing says that zone is full yet and it is tried again
    later (one more attempt per such zone, as in the spec's instantiate,
    see env.check_spec_instantiate_attempts)."""
    cloud.fill_zones(cloud.zones())
    vnf = env.Vnf(cloud, spec_package)
    with pytest.raises(errors.InsufficientCapacity) as exc:
        vnf.run(Op.INSTANTIATE, request(cloud))
    detail = exc.value.detail
    tried_text = ", ".join(cloud.real_zones())
    assert f"zones tried without capacity: {tried_text}" in detail
    attempts = vnf.attempts()
    done = statuses(vnf)
    assert done[0] == "CREATE_FAILED"
    assert set(done[1:]) == {"UPDATE_FAILED"}
    assert 2 <= len(done) <= len(cloud.zones())
    assert attempts[0]["zones"] == GRANTED
    tried = {zone for a in attempts for zone in a["zones"].values()}
    assert tried == set(cloud.zones())
    if len(done) == 2:
        # AZ-4 and AZ-5, and AZ-2 or AZ-3 again when the first attempt's
        # failure came before a server of that zone existed.
        second = set(attempts[1]["zones"].values())
        assert {"AZ-4", "AZ-5"} <= second <= {"AZ-2", "AZ-3", "AZ-4", "AZ-5"}
    last = attempts[-1]["zones"]
    assert last["VDU1-0"] == last["VDU1-1"]
    assert vnf.heat_attempts() == len(done)
    # Retry: same task, same persisted progress.
    cloud.free_all()
    task = vnf.last["task"]
    result = vnf.driver.instantiate(task)
    vnf.instance["instantiatedVnfInfo"] = result.instantiated_vnf_info
    assert statuses(vnf)[len(done) :] == ["UPDATE_COMPLETE"]
    assert vnf.heat_attempts() == len(done) + 1
    assert vnf.zones() == last == vnf.nova_zones()
    vnf.run(Op.TERMINATE, {})


def test_retry_cap_is_honoured(cloud, placement, capacity, spec_package):
    """AZ-1..AZ-4 full. az_select_retry = 1: the one reselection (to
    AZ-4/AZ-5) fails again in AZ-4 and the operation stops after two
    attempts, although AZ-5 had room (tools/bench/az_reselection.py runs
    the same shape without a cap and succeeds)."""
    cloud.fill_zones(["AZ-1", "AZ-2", "AZ-3", "AZ-4"])
    placement.set_override("az_select_retry", 1, group="placement")
    vnf = env.Vnf(cloud, spec_package)
    with pytest.raises(errors.InsufficientCapacity) as exc:
        vnf.run(Op.INSTANTIATE, request(cloud))
    assert "gave up after 1 zone reselection(s)" in exc.value.detail
    assert statuses(vnf) == ["CREATE_FAILED", "UPDATE_FAILED"]
    assert vnf.attempts()[0]["zones"] == GRANTED
    # The reselection used a full zone again: AZ-4, or AZ-2/AZ-3 when
    # Heat gave up before their servers existed (nothing said they
    # were full); the detail names it.
    second = set(vnf.attempts()[1]["zones"].values())
    full_again = second - {"AZ-5"}
    assert full_again
    if not full_again & {"AZ-2", "AZ-3"}:
        assert full_again == {"AZ-4"}
    assert any(cloud.az(zone) in exc.value.detail for zone in full_again)
    assert vnf.heat_attempts() == 2
    rolled_back(cloud, vnf)


def test_exceeded_maximum_retries(cloud, placement, capacity, sriov_package):
    """VDU1's SR-IOV port cannot be claimed on AZ-1's computes: the first
    host fails the build, Nova reschedules to AZ-1's second host, fails
    again and gives up with "Exceeded maximum number of retries.
    Exhausted all hosts available for retrying build failures for
    instance <uuid>.".

    With ``az_resource_error_regex = No valid host was found`` that is
    not a lack of capacity: the operation fails at once. The retry, with
    the default regex, classifies it as one and moves VDU1."""
    placement.set_override(
        "az_resource_error_regex", "No valid host was found", group="placement"
    )
    vnf = env.Vnf(cloud, sriov_package)
    with pytest.raises(errors.StackFailed) as exc:
        vnf.run(Op.INSTANTIATE, request(cloud))
    assert EXCEEDED in exc.value.detail
    assert statuses(vnf) == ["CREATE_FAILED"]
    assert vnf.heat_attempts() == 1
    placement.clear_override("az_resource_error_regex", group="placement")
    result = vnf.driver.instantiate(vnf.last["task"])
    vnf.instance["instantiatedVnfInfo"] = result.instantiated_vnf_info
    reasons = vnf.stack_reasons()
    assert sum(EXCEEDED in r for r in reasons) >= 2, reasons
    assert statuses(vnf) == [
        "CREATE_FAILED",
        "UPDATE_FAILED",
        "UPDATE_COMPLETE",
    ]
    assert vnf.heat_attempts() == 3
    zones = vnf.zones()
    assert zones["VDU1-0"] == zones["VDU1-1"] in {"AZ-4", "AZ-5"}
    assert (zones["VDU2-0"], zones["VDU2-1"]) == ("AZ-2", "AZ-3")
    assert vnf.nova_zones() == zones
    vnf.run(Op.TERMINATE, {})


def test_unknown_flavour_is_refused_before_any_stack(
    cloud, placement, spec_package
):
    """A VIM flavour that does not exist: 422 from Nova's flavour lookup,
    no stack created, no attempt made."""
    vnf = env.Vnf(cloud, spec_package)
    task = vnf.task(Op.INSTANTIATE, request(cloud))
    task.grant["vimAssets"] = {
        "computeResourceFlavours": [
            {"vnfdVirtualComputeDescId": "VDU2", "vimFlavourId": "m1.nope"}
        ]
    }
    with pytest.raises(errors.InvalidRequest, match="m1.nope") as exc:
        vnf.driver.instantiate(task)
    assert exc.value.status == 422
    assert "attempts" not in task.progress
    assert not cloud.live_stacks(vnf.stack_name)
