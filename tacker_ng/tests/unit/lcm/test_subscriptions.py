"""Subscriptions API and the notifications they get in the outbox."""

import sqlalchemy as sa

from tacker_ng.db import api as db_api
from tacker_ng.db import models
from tacker_ng.tests.unit.lcm.conftest import V

CALLBACK = "http://127.0.0.1:9/callback"


def _subscribe(lcm, **extra):
    body = {"callbackUri": CALLBACK, **extra}
    return lcm.app.post_json(
        "/vnflcm/v2/subscriptions", body, headers=V, expect_errors=True
    )


def _outbox(sub_id) -> list[dict]:
    with db_api.reader() as session:
        rows = session.execute(
            sa.select(models.LcmNotification.payload)
            .where(models.LcmNotification.subscription_id == sub_id)
            .order_by(models.LcmNotification.id)
        ).scalars()
        return list(rows)


def test_create_show_list_delete(lcm):
    resp = _subscribe(
        lcm,
        authentication={
            "authType": ["BASIC"],
            "paramsBasic": {"userName": "nfvo", "password": "cb-secret"},
        },
    )
    assert resp.status_int == 201
    sub = resp.json
    assert resp.headers["Location"].endswith(sub["id"])
    assert sub["callbackUri"] == CALLBACK
    assert sub["verbosity"] == "FULL"
    assert "authentication" not in sub and "cb-secret" not in resp.text
    got = lcm.app.get(f"/vnflcm/v2/subscriptions/{sub['id']}", headers=V)
    assert got.json == sub
    listed = lcm.app.get("/vnflcm/v2/subscriptions", headers=V).json
    assert [s["id"] for s in listed] == [sub["id"]]
    with db_api.reader() as session:
        stored = session.execute(
            sa.select(models.LccnSubscription.authentication)
        ).scalar_one()
    assert stored["paramsBasic"]["password"].startswith("fernet:")
    assert (
        lcm.app.delete(
            f"/vnflcm/v2/subscriptions/{sub['id']}", headers=V
        ).status_int
        == 204
    )
    assert (
        lcm.app.get(
            f"/vnflcm/v2/subscriptions/{sub['id']}",
            headers=V,
            expect_errors=True,
        ).status_int
        == 404
    )


def test_duplicate_is_303_to_the_existing_one(lcm):
    first = _subscribe(lcm, filter={"operationTypes": ["INSTANTIATE"]})
    again = _subscribe(lcm, filter={"operationTypes": ["INSTANTIATE"]})
    assert again.status_int == 303
    assert again.headers["Location"].endswith(first.json["id"])
    other = _subscribe(lcm, filter={"operationTypes": ["TERMINATE"]})
    assert other.status_int == 201


def test_bad_subscriptions(lcm):
    assert _subscribe(lcm, verbosity="LOUD").status_int == 400
    assert _subscribe(lcm, filter={"operationTypes": ["FLY"]}).status_int == (
        400
    )
    assert _subscribe(
        lcm, authentication={"authType": ["BASIC"]}
    ).status_int == (422)
    resp = lcm.app.post_json(
        "/vnflcm/v2/subscriptions",
        {"callbackUri": "not a uri"},
        headers=V,
        expect_errors=True,
    )
    assert resp.status_int == 400


def test_notifications_written_in_order_with_the_state(lcm):
    all_sub = _subscribe(lcm).json
    only_result = _subscribe(
        lcm, filter={"operationStates": ["COMPLETED"]}, verbosity="SHORT"
    ).json
    inst = lcm.create()
    occ = lcm.run(inst["id"], "instantiate", {"flavourId": "simple"})
    got = _outbox(all_sub["id"])
    assert [p["notificationType"] for p in got] == [
        "VnfIdentifierCreationNotification",
        "VnfLcmOperationOccurrenceNotification",
        "VnfLcmOperationOccurrenceNotification",
        "VnfLcmOperationOccurrenceNotification",
    ]
    states = [
        (p.get("operationState"), p.get("notificationStatus")) for p in got[1:]
    ]
    assert states == [
        ("STARTING", "START"),
        ("PROCESSING", "START"),
        ("COMPLETED", "RESULT"),
    ]
    result = got[-1]
    assert result["vnfLcmOpOccId"] == occ["id"]
    assert result["affectedVnfcs"]
    assert result["_links"]["subscription"]["href"].endswith(all_sub["id"])
    short = _outbox(only_result["id"])
    # operationStates filters op-occ notifications only.
    assert [p.get("operationState") for p in short] == [None, "COMPLETED"]
    assert "affectedVnfcs" not in short[1]
