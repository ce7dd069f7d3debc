"""LCM ops as taskflow flows: persisted atoms, resume, exact rollback."""

import time

import sqlalchemy as sa
from taskflow import states

from tacker_ng import context
from tacker_ng.conductor.flows import engine as flow_engine
from tacker_ng.conductor.operations import resume, runner
from tacker_ng.db import api as db_api
from tacker_ng.db import models
from tacker_ng.tests.unit.lcm.test_failures import (
    _fake,
    _occ_id,
    _post,
    _progress,
)

ATOMS = ["grant", "processing", "start_hook", "driver", "end_hook", "finish"]


#: Atom states a running engine passes through.
MOVING = {states.RUNNING, states.REVERTING}


def _atoms(occ_id: str, settle: float = 10.0) -> dict[str, str]:
    """Atom name -> state once no atom is running or reverting. The op
    occ's final state is written by an atom (``finish``) or a revert; the
    engine saves that atom's own end state just after, so a test that saw
    the op occ end may read the atom still RUNNING for a moment."""
    deadline = time.monotonic() + settle
    while True:
        with flow_engine.connection() as (_, conn):
            flow = conn.get_logbook(occ_id).find(flow_engine.flow_id(occ_id))
            atoms = {atom.name: atom.state for atom in flow}
        if not MOVING & set(atoms.values()) or time.monotonic() > deadline:
            return atoms
        time.sleep(0.02)


def _set_atom(occ_id: str, name: str, atom_state: str) -> None:
    with flow_engine.connection() as (_, conn):
        flow = conn.get_logbook(occ_id).find(flow_engine.flow_id(occ_id))
        detail = next(atom for atom in flow if atom.name == name)
        detail.state = atom_state
        conn.update_atom_details(detail)


def _instantiate(lcm, **fake) -> tuple[dict, str]:
    inst = lcm.create()
    resp = lcm.task(
        inst["id"], "instantiate", {"flavourId": "simple", **_fake(**fake)}
    )
    return inst, _occ_id(resp)


def test_every_step_is_an_atom_persisted_by_taskflow(lcm):
    _, occ_id = _instantiate(lcm)
    lcm.wait(occ_id, ("COMPLETED",))
    atoms = _atoms(occ_id)
    assert list(atoms) == ATOMS
    assert set(atoms.values()) == {states.SUCCESS}


def test_end_hook_sees_the_vnfcs_the_driver_made(lcm):
    _, occ_id = _instantiate(lcm)
    lcm.wait(occ_id, ("COMPLETED",))
    progress = _progress(occ_id)["driver"]
    assert progress["hooks"] == ["instantiate_start", "instantiate_end"]
    start, end = progress["hook_vnfcs"]
    assert start == 0
    assert end > 0


def test_failed_atom_stays_failed_and_nothing_is_reverted(lcm):
    _, occ_id = _instantiate(lcm, fail_at="instantiate_end", fail_times=1)
    lcm.wait(occ_id, ("FAILED_TEMP",))
    atoms = _atoms(occ_id)
    assert atoms["driver"] == states.SUCCESS
    assert atoms["end_hook"] == states.FAILURE
    assert atoms["finish"] == states.PENDING
    assert "rolled_back" not in _progress(occ_id)["driver"]


def test_rollback_reverts_only_the_atoms_that_ran(lcm):
    inst, occ_id = _instantiate(lcm, fail_at="instantiate_start")
    lcm.wait(occ_id, ("FAILED_TEMP",))
    _post(lcm, occ_id, "rollback")
    lcm.wait(occ_id, ("ROLLED_BACK",))
    atoms = _atoms(occ_id)
    # The driver never ran, so its rollback is not called either.
    assert atoms["driver"] == states.PENDING
    assert atoms["start_hook"] == states.REVERTED
    assert atoms["grant"] == states.REVERTED
    assert "rolled_back" not in _progress(occ_id)["driver"]
    assert lcm.instance(inst["id"])["instantiationState"] == (
        "NOT_INSTANTIATED"
    )


def test_rollback_after_the_driver_ran_calls_its_revert(lcm):
    _, occ_id = _instantiate(lcm, fail_at="instantiate_end")
    lcm.wait(occ_id, ("FAILED_TEMP",))
    _post(lcm, occ_id, "rollback")
    lcm.wait(occ_id, ("ROLLED_BACK",))
    assert _atoms(occ_id)["driver"] == states.REVERTED
    assert _progress(occ_id)["driver"]["rolled_back"] is True


def test_run_left_running_by_a_dead_conductor_resumes_there(lcm):
    """A conductor died inside the end hook: its atom is RUNNING, the op
    occ PROCESSING. The next run starts at that atom; the driver's VNFCs
    are the ones it made before (it did not run again)."""
    inst, occ_id = _instantiate(lcm, fail_at="instantiate_end", fail_times=1)
    lcm.wait(occ_id, ("FAILED_TEMP",))
    before = _progress(occ_id)["result"]["instantiated_vnf_info"]
    _set_atom(occ_id, "end_hook", states.RUNNING)
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as session:
            session.execute(
                sa.update(models.VnfLcmOpOcc)
                .where(models.VnfLcmOpOcc.id == occ_id)
                .values(operation_state="PROCESSING", error=None)
            )
    owner = lcm.occ(occ_id)  # still claimed by the in-process conductor
    assert owner["operationState"] == "PROCESSING"
    host = _conductor_host(occ_id)
    runner.run(context.get_admin_context(), occ_id, host)
    occ = lcm.wait(occ_id, ("COMPLETED",))
    assert "error" not in occ
    progress = _progress(occ_id)
    assert progress["driver"]["hooks"] == [
        "instantiate_start",
        "instantiate_end",
        "instantiate_end",
    ]
    after = lcm.instance(inst["id"])["instantiatedVnfInfo"]
    assert [v["computeResource"] for v in after["vnfcResourceInfo"]] == [
        v["computeResource"] for v in before["vnfcResourceInfo"]
    ]
    assert set(_atoms(occ_id).values()) == {states.SUCCESS}


def test_internal_error_names_the_failed_atoms_step(lcm):
    _, occ_id = _instantiate(lcm, fail_at="instantiate_end", fail_with="bug")
    occ = lcm.wait(occ_id, ("FAILED_TEMP",))
    assert occ["error"]["status"] == 500
    assert "end hook step" in occ["error"]["detail"]
    assert "internal-secret" not in occ["error"]["detail"]


def _conductor_host(occ_id: str) -> str:
    with db_api.reader() as session:
        return session.execute(
            sa.select(models.VnfLcmOpOcc.conductor_host).where(
                models.VnfLcmOpOcc.id == occ_id
            )
        ).scalar_one()


def test_a_restarted_conductor_resumes_the_ops_it_owned(lcm):
    """No jobboard: the op occ this host claimed when it was killed is run
    again at start-up, from the task that was interrupted."""
    _, occ_id = _instantiate(lcm, fail_at="instantiate_end", fail_times=1)
    lcm.wait(occ_id, ("FAILED_TEMP",))
    _set_atom(occ_id, "end_hook", states.RUNNING)
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as session:
            session.execute(
                sa.update(models.VnfLcmOpOcc)
                .where(models.VnfLcmOpOcc.id == occ_id)
                .values(operation_state="PROCESSING", error=None)
            )
    assert resume.resume_own("another-host") == []
    assert resume.resume_own(_conductor_host(occ_id)) == [occ_id]
    assert lcm.occ(occ_id)["operationState"] == "COMPLETED"
    assert _progress(occ_id)["driver"]["hooks"].count("instantiate_start") == 1


def test_fleet_view_lists_the_op_occs_a_conductor_runs(lcm):
    _, occ_id = _instantiate(lcm, sleep=1.5)
    host = None
    deadline = time.monotonic() + 10
    while host is None:
        assert time.monotonic() < deadline
        host = _conductor_host(occ_id)
        time.sleep(0.02)
    fleet = {
        c["hostname"]: c
        for c in lcm.app.get("/v1/conductors").json["conductors"]
    }
    assert fleet[host]["claimedOpOccs"] == [occ_id]
    lcm.wait(occ_id, ("COMPLETED",))
    fleet = lcm.app.get("/v1/conductors").json["conductors"]
    assert all(c["claimedOpOccs"] == [] for c in fleet)


def test_connections_share_the_tables_and_set_what_taskflows_do(db):
    """Our connection skips taskflow's ``__init__`` (it builds the tables
    anew each time); it must still set every attribute that one sets."""
    with flow_engine.connection() as (backend, ours):
        theirs = flow_engine.impl_sqlalchemy.Connection(
            backend, upgrade_lock=backend._upgrade_lock
        )
        assert set(vars(theirs)) <= set(vars(ours))
        with flow_engine.connection() as (_, again):
            assert again._tables is ours._tables
