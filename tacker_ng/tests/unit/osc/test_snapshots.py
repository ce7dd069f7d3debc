"""The snapshot commands on an in-memory client: requests sent, output,
exit codes, and the clean-up of a refused create_snapshot."""

import io
import types

import pytest
from osc_lib import exceptions

from tacker_ng.osc import client, snapshots, views
from tacker_ng.tests.unit.osc.test_commands import FakeClient, run

SNAP = {
    "id": "snap-1",
    "vnfSnapshot": {
        "id": "vs-1",
        "vnfInstanceId": "inst-1",
        "vnfdId": "vnfd-1",
        "creationStartedAt": "2026-01-01T00:00:00Z",
        "creationFinishedAt": "2026-01-01T00:00:02Z",
        "vnfcSnapshots": [{"id": "c1"}, {"id": "c2"}],
        "userDefinedData": {"k": "v"},
        "vnfInstance": {"id": "inst-1"},
    },
    "_links": {"self": {"href": "x"}},
}
EMPTY = {"id": "snap-2", "_links": {"self": {"href": "y"}}}


class SnapClient(FakeClient):
    """FakeClient plus the snapshot resources, refusing on demand."""

    def __init__(self, refuse=None, refuse_delete=(), **kw) -> None:
        super().__init__(**kw)
        self.refuse = refuse
        self.refuse_delete = set(refuse_delete)
        self.deleted: list[str] = []
        self.filters: list[str | None] = []

    def create_snapshot_info(self):
        return {"id": "snap-new"}

    def start_task(self, instance_id, task, body):
        if self.refuse:
            raise client.ApiError(409, self.refuse)
        return super().start_task(instance_id, task, body)

    def delete_snapshot(self, snapshot_id):
        if snapshot_id in self.refuse_delete:
            raise client.ApiError(
                409, {"title": "Conflict", "detail": f"{snapshot_id} in use"}
            )
        self.deleted.append(snapshot_id)

    def snapshot(self, snapshot_id):
        return {**SNAP, "id": snapshot_id}

    def snapshots(self, sol_filter=None):
        self.filters.append(sol_filter)
        return [SNAP, EMPTY]


def test_create_takes_the_snapshot_into_a_new_info():
    fake = SnapClient(states=("STARTING",))
    rc, out, _ = run(snapshots.CreateSnapshot, ["inst-1"], fake)
    assert rc == 0
    assert fake.started == [
        ("inst-1", "create_snapshot", {"vnfSnapshotInfoId": "snap-new"})
    ]
    assert out["ID"] == "occ-1" and out["VNF Snapshot Info ID"] == "snap-new"
    assert fake.deleted == []


def test_create_wait_fails_with_the_op_error():
    error = {"status": 500, "title": "VIM Error", "detail": "no image"}
    fake = SnapClient(states=("PROCESSING", "FAILED_TEMP"), error=error)
    rc, out, err = run(
        snapshots.CreateSnapshot, ["inst-1", "--wait", "--interval", "0"], fake
    )
    assert rc == 1
    assert out["Operation State"] == "FAILED_TEMP"
    assert out["VNF Snapshot Info ID"] == "snap-new"
    assert err.splitlines()[-1].endswith("FAILED_TEMP: VIM Error: no image")


def test_refused_create_deletes_the_empty_info_and_shows_the_problem():
    problem = {"title": "Conflict", "detail": "VNF instance is NOT_INST"}
    fake = SnapClient(refuse=problem)
    with pytest.raises(client.ApiError, match="HTTP 409 Conflict: VNF"):
        run(snapshots.CreateSnapshot, ["inst-1"], fake)
    assert fake.deleted == ["snap-new"]


def test_refused_create_says_when_the_clean_up_failed_too():
    fake = SnapClient(
        refuse={"title": "Conflict", "detail": "no"},
        refuse_delete={"snap-new"},
    )
    stderr = io.StringIO()
    with pytest.raises(client.ApiError, match="Conflict: no"):
        snapshots.start_snapshot(fake, "inst-1", stderr)
    assert "Could not delete the empty VNF snapshot snap-new" in (
        stderr.getvalue()
    )


def test_revert_sends_the_snapshot_id_and_waits():
    fake = SnapClient(states=("PROCESSING", "COMPLETED"))
    rc, out, _ = run(
        snapshots.RevertToSnapshot,
        ["inst-1", "snap-1", "--wait", "--interval", "0"],
        fake,
    )
    assert rc == 0 and out["Operation State"] == "COMPLETED"
    assert fake.started == [
        ("inst-1", "revert_to_snapshot", {"vnfSnapshotInfoId": "snap-1"})
    ]


def test_revert_refused_is_a_command_error():
    fake = SnapClient(refuse={"title": "Conflict", "detail": "re-scale"})
    with pytest.raises(exceptions.CommandError, match="409 Conflict"):
        run(snapshots.RevertToSnapshot, ["inst-1", "snap-1"], fake)


def test_list_passes_the_filter_and_shows_empty_infos():
    fake = SnapClient()
    flt = "(eq,vnfSnapshot/vnfInstanceId,inst-1)"
    rc, rows, _ = run(snapshots.ListSnapshots, ["--filter", flt], fake)
    assert rc == 0 and fake.filters == [flt]
    assert rows == [
        {
            "ID": "snap-1",
            "VNF Instance ID": "inst-1",
            "VNFC Snapshots": 2,
            "Creation Started At": "2026-01-01T00:00:00Z",
            "Creation Finished At": "2026-01-01T00:00:02Z",
        },
        {
            "ID": "snap-2",
            "VNF Instance ID": "-",
            "VNFC Snapshots": 0,
            "Creation Started At": "-",
            "Creation Finished At": "-",
        },
    ]


def test_show_flattens_the_snapshot():
    rc, out, _ = run(snapshots.ShowSnapshot, ["snap-9"], SnapClient())
    assert rc == 0
    assert out["ID"] == "snap-9" and out["VNF Instance ID"] == "inst-1"
    assert out["User Defined Data"] == {"k": "v"}
    assert "vnfInstance" not in out and "VNF Instance" not in out


def test_show_of_an_empty_info():
    columns, values = views.snapshot_summary(EMPTY)
    assert dict(zip(columns, values, strict=True)) == {
        "ID": "snap-2",
        **dict.fromkeys(c for _, c in views.SNAPSHOT_ATTRIBUTES[1:]),
    }


def test_delete_tries_every_id_and_fails_if_one_failed():
    fake = SnapClient(refuse_delete={"b"})
    cmd = snapshots.DeleteSnapshots(
        types.SimpleNamespace(
            client_manager=types.SimpleNamespace(tacker_ng=fake),
            stderr=io.StringIO(),
        ),
        None,
    )
    args = cmd.get_parser("x").parse_args(["a", "b", "c"])
    with pytest.raises(exceptions.CommandError, match="1 of 3"):
        cmd.take_action(args)
    assert fake.deleted == ["a", "c"]
    assert "b: HTTP 409 Conflict: b in use" in cmd.app.stderr.getvalue()
