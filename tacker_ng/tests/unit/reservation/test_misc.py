"""Error format registry, grant seam, host API, property queries, dates."""

import datetime
import json

import pytest
import webob

from tacker_ng.api import errors
from tacker_ng.api.middleware import problem
from tacker_ng.nfvo import local
from tacker_ng.reservation import dates, exceptions, properties
from tacker_ng.reservation import grants as rsv_api
from tacker_ng.reservation.admission import leases as manager
from tacker_ng.reservation.service import lifecycle
from tacker_ng.tests.unit.reservation.conftest import V1, instance_body
from tacker_ng.tests.unit.reservation.service.test_events import (
    FakeNova,
    _lease_now,
)


# -- error format registry ----------------------------------------------------
def _app(status, body, content_type):
    def app(environ, start_response):
        resp = webob.Response(
            status=status, body=body, content_type=content_type, charset=None
        )
        return resp(environ, start_response)

    return problem.ProblemDetailsMiddleware(app)


def test_registry_picks_longest_prefix_on_segment_boundaries(monkeypatch):
    monkeypatch.setattr(errors, "_FORMATS", {})
    fmt = errors.ErrorFormat(
        "x", errors.PROBLEM_DETAILS.render, lambda r: False
    )
    errors.register_error_format("/reservation/", fmt)
    assert errors.error_format_for("/reservation") is fmt
    assert errors.error_format_for("/reservation/v1/leases") is fmt
    assert errors.error_format_for("/reservations") is errors.PROBLEM_DETAILS
    assert errors.error_format_for("/vnflcm/v2") is errors.PROBLEM_DETAILS


def test_foreign_and_problem_errors_become_blazar_under_reservation():
    foreign = _app(
        401, b'{"error": {"message": "no token"}}', "application/json"
    )
    resp = webob.Request.blank("/reservation/v1/leases").get_response(foreign)
    body = json.loads(resp.body)
    assert resp.status_int == 401 and body["error_code"] == 401
    assert resp.headers["WWW-Authenticate"]
    ours = _app(
        503,
        json.dumps(
            {
                "status": 503,
                "title": "Service Unavailable",
                "detail": "No conductor",
            }
        ).encode(),
        errors.PROBLEM_JSON,
    )
    resp = webob.Request.blank("/reservation/v1/os-hosts").get_response(ours)
    body = json.loads(resp.body)
    assert body == {
        "error_code": 503,
        "error_message": "No conductor",
        "error_name": "ServiceUnavailable",
    }
    # Elsewhere nothing changed: ProblemDetails, no Version echo off SOL.
    resp = webob.Request.blank("/v1/ping").get_response(foreign)
    assert resp.content_type == errors.PROBLEM_JSON
    assert "Version" not in resp.headers


def test_unexpected_500_text_never_leaks():
    app = _app(500, b'{"error_message": "secret"}', "text/plain")
    resp = webob.Request.blank("/reservation/v1/leases").get_response(app)
    assert (
        "secret" not in resp.text
        and json.loads(resp.body)["error_code"] == 500
    )


# -- grant seam ---------------------------------------------------------------
def test_grant_info(db, ctx, hosts):
    lease = _lease_now(ctx)
    rid = lease["reservations"][0]["id"]
    with pytest.raises(exceptions.ReservationNotActive):
        rsv_api.grant_info(ctx, rid)
    lifecycle.start_lease(FakeNova(), lease["id"])
    info = rsv_api.grant_info(ctx, rid)
    assert info["reservationId"] == rid
    assert info["flavour_id"] == "ensure_flavor-id"
    assert info["server_group_id"] == "ensure_server_group-id"
    assert len(info["hosts"]) == 1 and info["zones"]
    # One instance slot (amount 1) in the one reserved host's zone.
    assert info["zone_slots"] == {info["zones"][0]: 1}
    with pytest.raises(exceptions.ReservationNotFound):
        rsv_api.grant_info(ctx, "nope")
    from tacker_ng import context as tcontext

    other = tcontext.RequestContext(project_id="p2", is_admin=True)
    with pytest.raises(exceptions.ReservationNotFound):
        rsv_api.grant_info(other, rid)


def test_local_grant_from_a_reservation(db, ctx, hosts):
    from oslo_config import cfg

    from tacker_ng.conductor.operations import granting

    lease = _lease_now(ctx)
    rid = lease["reservations"][0]["id"]
    body = {
        "vnfInstanceId": "inst-1",
        "vnfLcmOpOccId": "occ-1",
        "_links": {},
        "addResources": [
            {"id": "c1", "type": "COMPUTE", "vduId": "VDU1"},
            {"id": "s1", "type": "STORAGE", "vduId": "VDU1"},
        ],
    }
    request = {"additionalParams": {"reservationId": rid}}

    def grant(project_id=None):
        return granting._grant_locally(
            ctx,
            body,
            request,
            {},
            "vim1",
            {"vimType": "none"},
            cfg.CONF,
            project_id=project_id,
        )

    # Not started yet: the op occ fails before any VIM call.
    with pytest.raises(exceptions.ReservationNotActive):
        grant()
    lifecycle.start_lease(FakeNova(), lease["id"])
    info = rsv_api.grant_info(ctx, rid)
    out = grant()
    # Only the reserved hosts' zones are granted.
    assert {z["zoneId"] for z in out["zones"]} <= set(info["zones"])
    by_def = {g["resourceDefinitionId"]: g for g in out["addResources"]}
    assert by_def["c1"]["reservationId"] == rid
    assert "reservationId" not in by_def["s1"]
    assert out["vimAssets"]["computeResourceFlavours"][0]["vimFlavourId"] == (
        "ensure_flavor-id"
    )
    assert out["additionalParams"]["reservation"]["serverGroupId"] == (
        "ensure_server_group-id"
    )
    # The VNF's project decides, not the (admin) context of a re-dispatch.
    assert grant(project_id=ctx.project_id)["zones"]
    with pytest.raises(exceptions.ReservationNotFound):
        grant(project_id="another-project")
    # Every reserved zone goes to the driver (AZ reselection's choice).
    assert out["additionalParams"]["reservation"]["zones"] == info["zones"]
    # The lease holds 1 instance: a second new VNFC does not fit, and
    # the grant says so before any VIM call.
    body["addResources"].append({"id": "c2", "type": "COMPUTE", "vduId": "V"})
    with pytest.raises(local.GrantRejected) as exc:
        grant()
    assert f"reservation {rid} cannot hold this operation's" in str(exc.value)
    assert "1 free instance slot(s)" in str(exc.value)
    assert "2 new VNFC(s)" in str(exc.value)
    body["addResources"].pop()
    request["additionalParams"]["reservationId"] = "nope"
    with pytest.raises(exceptions.ReservationNotFound):
        grant()


# -- hosts API ----------------------------------------------------------------
def test_hosts_api(api, hosts):
    listed = api.get(f"{V1}/os-hosts").json["hosts"]
    assert [h["id"] for h in listed] == ["1", "2", "3"]
    host = api.put_json(f"{V1}/os-hosts/1", {"gpu": "true"}).json["host"]
    assert host["gpu"] == "true"
    assert api.get(f"{V1}/os-hosts/1").json["host"]["gpu"] == "true"
    host = api.put_json(f"{V1}/os-hosts/1", {"gpu": None}).json["host"]
    assert "gpu" not in host
    assert (
        api.put_json(
            f"{V1}/os-hosts/1", {"vcpus": 9}, expect_errors=True
        ).status_int
        == 400
    )
    assert api.get(f"{V1}/os-hosts/9", expect_errors=True).status_int == 404
    assert api.get(f"{V1}/os-hosts/abc", expect_errors=True).status_int == 404
    api.post_json(f"{V1}/leases", instance_body(amount=2))
    allocs = api.get(f"{V1}/os-hosts/allocations").json["allocations"]
    assert sum(len(a["reservations"]) for a in allocs) == 2
    one = api.get(f"{V1}/os-hosts/1/allocation").json["allocation"]
    assert one["resource_id"] == "1"
    none = api.get(f"{V1}/os-hosts/allocations?lease_id=x").json["allocations"]
    assert none == []


def test_resource_properties_select_hosts(api, hosts):
    api.put_json(f"{V1}/os-hosts/2", {"gpu": "true"})
    body = instance_body(
        amount=1, resource_properties='["==", "$gpu", "true"]'
    )
    api.post_json(f"{V1}/leases", body)
    allocs = api.get(f"{V1}/os-hosts/allocations").json["allocations"]
    assert [a["resource_id"] for a in allocs if a["reservations"]] == ["2"]


# -- property queries and dates -----------------------------------------------
@pytest.mark.parametrize(
    "query,attrs,expected",
    [
        ('[">=", "$vcpus", "4"]', {"vcpus": 8}, True),
        ('[">=", "$vcpus", "4"]', {"vcpus": 2}, False),
        (
            '["==", "$hypervisor_type", "QEMU"]',
            {"hypervisor_type": "QEMU"},
            True,
        ),
        (
            '["and", ["<", "$memory_mb", 4096], ["!=", "$az", "x"]]',
            {"memory_mb": 2048, "az": "y"},
            True,
        ),
        ('["or", ["==", "$a", "1"], ["==", "$b", "1"]]', {"b": 1}, True),
        ('["not", ["==", "$a", "1"]]', {"a": "1"}, False),
        ('["in", "$zone", "AZ-1", "AZ-2"]', {"zone": "AZ-2"}, True),
        ('["==", "$missing", "1"]', {}, False),
        ('["==", "$gpu", "true"]', {"gpu": True}, True),
        ("", {}, True),
    ],
)
def test_property_queries(query, attrs, expected):
    assert properties.evaluate(properties.parse(query), attrs) is expected


@pytest.mark.parametrize(
    "query",
    [
        "nope",
        "{}",
        '["=="]',
        '["xor", ["==", "$a", 1]]',
        '["==", "a", 1]',
        '["and"]',
    ],
)
def test_malformed_property_queries_are_400(query):
    with pytest.raises(exceptions.InvalidLease):
        properties.parse(query)


def test_dates():
    now = datetime.datetime(2030, 5, 17, 9, 7, 42, tzinfo=datetime.UTC)
    assert dates.parse("now", now) == now.replace(second=0)
    parsed = dates.parse("2017-05-17 09:07", now)
    assert parsed == datetime.datetime(2017, 5, 17, 9, 7, tzinfo=datetime.UTC)
    assert dates.parse("2017-05-17T09:07:00.000000", now) == parsed
    assert dates.parse("2017-05-17T11:07:00+02:00", now) == parsed
    assert dates.render(parsed) == "2017-05-17T09:07:00.000000"
    for bad in ("17/05/2017", None, 5):
        with pytest.raises(exceptions.InvalidDate):
            dates.parse(bad, now)


def test_date_errors_name_the_field(conf):
    now = datetime.datetime(2017, 5, 17, 9, 7, 30, tzinfo=datetime.UTC)
    with pytest.raises(exceptions.MissingDate) as missing:
        dates.parse(None, now, "end_date")
    assert str(missing.value) == (
        "end_date is required: 'YYYY-MM-DD HH:MM' (UTC) or 'now'."
    )
    with pytest.raises(exceptions.InvalidDate) as bad:
        dates.parse("17/05/2017", now, "start_date")
    assert "Invalid start_date '17/05/2017'" in str(bad.value)
    assert "None" not in str(missing.value)


def test_default_before_end_is_clipped_to_start(conf):
    start = datetime.datetime(2030, 1, 1, tzinfo=datetime.UTC)
    end = start + datetime.timedelta(minutes=10)
    assert manager.default_before_end(start, end) == start
    conf.set_override("minutes_before_end_lease", 0, group="reservation")
    assert manager.default_before_end(start, end) is None


def test_free_slots_subtract_the_vnfcs_booted_with_the_reservation():
    from tacker_ng.conductor.operations import granting

    def vnfc(server, zone, flavour):
        return {
            "zoneId": zone,
            "computeResource": {"resourceId": server},
            "metadata": {"computeFlavourId": flavour},
        }

    instance = {
        "instantiatedVnfInfo": {
            "vnfcResourceInfo": [
                vnfc("s1", "AZ-1", "rsv"),
                vnfc("s2", "AZ-2", "rsv"),
                vnfc("s3", "AZ-2", "m1.small"),  # not in the reservation
            ]
        }
    }
    slots = {"AZ-1": 1, "AZ-2": 2}
    assert granting.free_slots(slots, instance, "rsv", set()) == {
        "AZ-1": 0,
        "AZ-2": 1,
    }
    # A VNFC this operation removes gives its slot back.
    assert granting.free_slots(slots, instance, "rsv", {"s1"}) == {
        "AZ-1": 1,
        "AZ-2": 1,
    }
    assert granting.free_slots(slots, {}, "rsv", set()) == slots
