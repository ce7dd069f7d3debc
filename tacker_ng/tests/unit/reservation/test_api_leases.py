"""/reservation/v1/leases through the full WSGI pipeline (noauth, SQLite)."""

import json

import pytest

from tacker_ng.tests.unit.reservation.conftest import (
    V1,
    add_hosts,
    instance_body,
)


def blazar_error(resp, status):
    assert resp.status_int == status
    assert resp.content_type == "application/json"
    body = json.loads(resp.body)
    assert set(body) == {"error_code", "error_message", "error_name"}
    assert body["error_code"] == status
    assert "Traceback" not in resp.text
    return body


def test_create_show_list_update_delete(api, hosts):
    resp = api.post_json(f"{V1}/leases", instance_body())
    assert resp.status_int == 201
    lease = resp.json["lease"]
    assert lease["status"] == "PENDING"
    assert lease["start_date"] == "2090-01-01T10:00:00.000000"
    res = lease["reservations"][0]
    assert res["resource_type"] == "virtual:instance"
    assert (res["amount"], res["affinity"], res["status"]) == (
        2,
        False,
        "pending",
    )
    types = sorted(e["event_type"] for e in lease["events"])
    assert types == ["before_end_lease", "end_lease", "start_lease"]

    shown = api.get(f"{V1}/leases/{lease['id']}").json["lease"]
    assert shown["id"] == lease["id"]
    assert [x["id"] for x in api.get(f"{V1}/leases").json["leases"]] == [
        lease["id"]
    ]

    updated = api.put_json(
        f"{V1}/leases/{lease['id']}",
        {"name": "renamed", "end_date": "2090-01-03 10:00"},
    ).json["lease"]
    assert updated["name"] == "renamed"
    assert updated["end_date"] == "2090-01-03T10:00:00.000000"
    end = [e for e in updated["events"] if e["event_type"] == "end_lease"][0]
    assert end["time"] == "2090-01-03T10:00:00.000000"

    grown = api.put_json(
        f"{V1}/leases/{lease['id']}",
        {"reservations": [{"id": res["id"], "amount": 3}]},
    ).json["lease"]
    assert grown["reservations"][0]["amount"] == 3

    resp = api.delete(f"{V1}/leases/{lease['id']}")
    assert resp.status_int == 204 and resp.body == b""
    assert api.get(f"{V1}/leases").json["leases"] == []


def test_no_capacity_is_409_in_blazar_shape(api, hosts):
    body = blazar_error(
        api.post_json(
            f"{V1}/leases", instance_body(amount=4), expect_errors=True
        ),
        409,
    )
    assert "3 have it" in body["error_message"]


def test_capacity_is_shared_over_time(api, hosts):
    full = instance_body("a", amount=3, vcpus=4)
    assert api.post_json(f"{V1}/leases", full).status_int == 201
    overlapping = instance_body("b", amount=1)
    overlapping["start_date"] = "2090-01-02 09:00"
    overlapping["end_date"] = "2090-01-05 09:00"
    blazar_error(
        api.post_json(f"{V1}/leases", overlapping, expect_errors=True), 409
    )
    after = instance_body("c", amount=3, vcpus=4)
    after["start_date"] = "2090-01-02 10:00"
    after["end_date"] = "2090-01-03 10:00"
    assert api.post_json(f"{V1}/leases", after).status_int == 201


@pytest.mark.parametrize(
    "change",
    [
        {"name": ""},
        {"start_date": "yesterday"},
        {"start_date": "2001-01-01 00:00"},
        {"end_date": "2090-01-01 09:00"},
        {"before_end_date": "2095-01-01 00:00"},
        {"reservations": []},
        {"events": [{"event_type": "x", "event_date": "2090-01-01 10:00"}]},
        {
            "reservations": [
                {"resource_type": "virtual:floatingip", "amount": 1}
            ]
        },
        {
            "reservations": [
                {
                    "resource_type": "virtual:instance",
                    "vcpus": 0,
                    "memory_mb": 1,
                    "disk_gb": 0,
                    "amount": 1,
                }
            ]
        },
        {
            "reservations": [
                {
                    "resource_type": "virtual:instance",
                    "vcpus": 1,
                    "memory_mb": 1,
                    "disk_gb": 0,
                    "amount": 1,
                    "affinity": "maybe",
                }
            ]
        },
        {
            "reservations": [
                {"resource_type": "physical:host", "min": 2, "max": 1}
            ]
        },
        {
            "reservations": [
                {
                    "resource_type": "physical:host",
                    "min": 1,
                    "max": 1,
                    "hypervisor_properties": '[">=", "vcpus"]',
                }
            ]
        },
        {
            "reservations": [
                {
                    "resource_type": "physical:host",
                    "min": 1,
                    "max": 1,
                    "before_end": "snapshot",
                }
            ]
        },
        {"surprise": 1},
    ],
)
def test_bad_input_is_400(api, hosts, change):
    body = {**instance_body(), **change}
    blazar_error(api.post_json(f"{V1}/leases", body, expect_errors=True), 400)


def test_cli_string_values_are_accepted(api, hosts):
    # python-blazarclient sends affinity "None" and ints as strings when
    # the user typed them oddly; resource_properties "" means none.
    body = instance_body(affinity="None", resource_properties="")
    body["reservations"][0]["amount"] = "2"
    lease = api.post_json(f"{V1}/leases", body).json["lease"]
    assert lease["reservations"][0]["affinity"] is None


def test_start_now(api, hosts):
    body = instance_body()
    body["start_date"] = "now"
    lease = api.post_json(f"{V1}/leases", body).json["lease"]
    assert lease["status"] == "PENDING"


def test_duplicate_name_is_409(api, hosts):
    api.post_json(f"{V1}/leases", instance_body(amount=1))
    blazar_error(
        api.post_json(
            f"{V1}/leases", instance_body(amount=1), expect_errors=True
        ),
        409,
    )


def test_host_reservation_and_exclusivity(api, hosts):
    body = instance_body()
    body["reservations"] = [
        {
            "resource_type": "physical:host",
            "min": 1,
            "max": 2,
            "hypervisor_properties": '[">=", "$vcpus", "4"]',
            "resource_properties": "",
        }
    ]
    lease = api.post_json(f"{V1}/leases", body).json["lease"]
    res = lease["reservations"][0]
    assert (res["min"], res["max"], res["before_end"]) == (1, 2, "default")
    allocs = api.get(f"{V1}/os-hosts/allocations").json["allocations"]
    held = [a for a in allocs if a["reservations"]]
    assert len(held) == 2
    # One host left: three instances on distinct hosts cannot fit.
    blazar_error(
        api.post_json(
            f"{V1}/leases", instance_body("x", amount=2), expect_errors=True
        ),
        409,
    )
    one = api.post_json(f"{V1}/leases", instance_body("y", amount=1)).json
    assert one["lease"]["status"] == "PENDING"


def test_unknown_lease_is_404_and_other_project_is_hidden(api, hosts, conf):
    blazar_error(api.get(f"{V1}/leases/nope", expect_errors=True), 404)
    lease = api.post_json(f"{V1}/leases", instance_body(amount=1)).json[
        "lease"
    ]
    conf.set_override("http_basic_project_id", "other", group="api")
    conf.set_override("noauth_roles", ["member", "reader"], group="api")
    import webtest

    from tacker_ng.api import app as api_app

    other = webtest.TestApp(api_app.build_wsgi_app(conf))
    blazar_error(
        other.get(f"{V1}/leases/{lease['id']}", expect_errors=True), 404
    )
    blazar_error(
        other.put_json(
            f"{V1}/leases/{lease['id']}",
            {"name": "taken"},
            expect_errors=True,
        ),
        404,
    )
    blazar_error(
        other.delete(f"{V1}/leases/{lease['id']}", expect_errors=True), 404
    )
    assert (
        api.get(f"{V1}/leases/{lease['id']}").json["lease"]["name"]
        == (lease["name"])
    )
    assert other.get(f"{V1}/leases").json["leases"] == []
    blazar_error(other.get(f"{V1}/os-hosts", expect_errors=True), 403)


def test_active_reservation_rules_are_409(api, hosts):
    import sqlalchemy as sa

    from tacker_ng.db import api as db_api
    from tacker_ng.db import models_reservation as models

    lease = api.post_json(f"{V1}/leases", instance_body()).json["lease"]
    with db_api.writer() as session:
        session.execute(sa.update(models.Lease).values(status="ACTIVE"))
    rid = lease["reservations"][0]["id"]
    path = f"{V1}/leases/{lease['id']}"
    for change in (
        {"reservations": [{"id": rid, "vcpus": 2}]},
        {"reservations": [{"id": rid, "amount": 1}]},
        {"start_date": "2090-01-01 11:00"},
    ):
        blazar_error(api.put_json(path, change, expect_errors=True), 409)
    ok = api.put_json(path, {"reservations": [{"id": rid, "amount": 3}]})
    assert ok.json["lease"]["reservations"][0]["amount"] == 3
    with db_api.writer() as session:
        session.execute(sa.update(models.Lease).values(status="STARTING"))
    blazar_error(api.put_json(path, {"name": "x"}, expect_errors=True), 409)


def test_versions_and_root_document(api, db):
    resp = api.get("/reservation", status=300)
    assert resp.json["versions"][0]["id"] == "v1.0"
    assert api.get(f"{V1}").json["version"]["status"] == "CURRENT"
    apis = {a["name"]: a["uriPrefix"] for a in api.get("/").json["apis"]}
    assert apis["reservation"] == "/reservation/v1"


def test_wrong_method_and_media_type_keep_blazar_shape(api, db):
    resp = api.patch(f"{V1}/leases", expect_errors=True)
    blazar_error(resp, 405)
    assert "GET" in resp.headers["Allow"]
    blazar_error(
        api.post(
            f"{V1}/leases", "x", content_type="text/plain", expect_errors=True
        ),
        415,
    )
    blazar_error(
        api.post(
            f"{V1}/leases",
            "{bad",
            content_type="application/json",
            expect_errors=True,
        ),
        400,
    )
    blazar_error(api.get(f"{V1}/nothing", expect_errors=True), 404)


def test_lease_list_scales_in_sql(api, db, engine_statements):
    add_hosts(10)
    for i in range(12):
        api.post_json(f"{V1}/leases", instance_body(f"l{i}", amount=1))
    with engine_statements() as seen:
        leases = api.get(f"{V1}/leases").json["leases"]
    assert len(leases) == 12
    # lease rows, reservations+details, events: 3 SELECTs for any count
    assert (
        len([s for s in seen if s.lstrip().upper().startswith("SELECT")]) == 3
    )


@pytest.fixture
def engine_statements(db):
    from tacker_ng.tests.unit.reservation.conftest import count_statements

    return lambda: count_statements(db)
