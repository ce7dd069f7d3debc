"""``/vnfpkgm/v2/subscriptions`` and the package notifications they get:
onboarding, operational state change, deletion; delivered by the
conductor with the subscription's credentials."""

import base64
import json
import time

import sqlalchemy as sa

from tacker_ng.db import api as db_api
from tacker_ng.db import models
from tacker_ng.tests.unit.packages import helpers
from tacker_ng.tests.unit.vnfpkgm.conftest import V

SUBS = "/vnfpkgm/v2/subscriptions"
CALLBACK = "http://127.0.0.1:9/pkgm"


def _subscribe(pkgm, **extra):
    return pkgm.app.post_json(
        SUBS, {"callbackUri": CALLBACK, **extra}, headers=V, expect_errors=True
    )


def _delivered(web, count, timeout=15) -> list[dict]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        posts = [r for r in web.to(CALLBACK) if r.method == "POST"]
        if len(posts) >= count:
            return [json.loads(r.body) for r in posts]
        time.sleep(0.05)
    raise AssertionError(
        f"{count} notifications expected, got {web.to(CALLBACK)}"
    )


def test_create_show_list_delete(pkgm):
    resp = _subscribe(
        pkgm,
        filter={"notificationTypes": ["VnfPackageOnboardingNotification"]},
        authentication={
            "authType": ["BASIC"],
            "paramsBasic": {"userName": "nfvo", "password": "cb-secret"},
        },
    )
    assert resp.status_int == 201, resp.text
    sub = resp.json
    assert resp.headers["Location"] == sub["_links"]["self"]["href"]
    assert "/vnfpkgm/v2/subscriptions/" in resp.headers["Location"]
    assert "authentication" not in sub and "cb-secret" not in resp.text
    assert "verbosity" not in sub
    assert pkgm.app.get(f"{SUBS}/{sub['id']}", headers=V).json == sub
    # Also under the v1 alias, and never among the LCM subscriptions.
    assert pkgm.app.get(f"/vnfpkgm/v1/subscriptions/{sub['id']}").json == sub
    assert [s["id"] for s in pkgm.app.get(SUBS, headers=V).json] == [sub["id"]]
    lcm = pkgm.app.get(
        "/vnflcm/v2/subscriptions", headers={"Version": "2.0.0"}
    )
    assert lcm.json == []
    pkgm.app.get(
        f"/vnflcm/v2/subscriptions/{sub['id']}",
        headers={"Version": "2.0.0"},
        status=404,
    )
    with db_api.reader() as session:
        stored = session.execute(
            sa.select(models.PkgmSubscription.authentication)
        ).scalar_one()
    assert stored["paramsBasic"]["password"].startswith("fernet:")
    pkgm.app.delete(f"{SUBS}/{sub['id']}", headers=V, status=204)
    pkgm.app.get(f"{SUBS}/{sub['id']}", headers=V, status=404)


def test_duplicate_is_303_and_filters_are_validated(pkgm):
    first = _subscribe(pkgm, filter={"vnfdId": ["a"]})
    again = _subscribe(pkgm, filter={"vnfdId": ["a"]})
    assert again.status_int == 303
    assert again.headers["Location"].endswith(first.json["id"])
    assert _subscribe(pkgm, filter={"vnfdId": ["b"]}).status_int == 201
    for bad in (
        {"notificationTypes": ["VnfLcmOperationOccurrenceNotification"]},
        {"vnfdId": ["a"], "vnfPkgId": ["b"]},
        {"operationalState": ["BROKEN"]},
        {"verbosity": "FULL"},
    ):
        assert _subscribe(pkgm, filter=bad).status_int == 400, bad
    assert _subscribe(pkgm, verbosity="FULL").status_int == 400
    no_params = _subscribe(pkgm, authentication={"authType": ["BASIC"]})
    assert no_params.status_int == 422
    listed = pkgm.app.get(
        SUBS, {"filter": "(eq,filter/vnfdId,b)"}, headers=V
    ).json
    assert len(listed) == 1 and listed[0]["filter"] == {"vnfdId": ["b"]}


def test_onboarding_state_change_and_deletion_are_notified(pkgm, web):
    web.route(CALLBACK, (204, {}, b""))
    everything = _subscribe(
        pkgm,
        authentication={
            "authType": ["BASIC"],
            "paramsBasic": {"userName": "nfvo", "password": "cb-secret"},
        },
    ).json
    # A subscription that must not hear anything of this package.
    _subscribe(pkgm, filter={"vnfdId": ["someone-else"]})
    pkg = pkgm.onboard(helpers.sample_csar("heat_vdu_affinity"))
    onboarding = _delivered(web, 1)[0]
    assert onboarding["notificationType"] == "VnfPackageOnboardingNotification"
    assert onboarding["subscriptionId"] == everything["id"]
    assert onboarding["vnfPkgId"] == pkg["id"]
    assert onboarding["vnfdId"] == pkg["vnfdId"]
    assert onboarding["_links"]["vnfPackage"]["href"].endswith(
        f"/vnfpkgm/v2/vnf_packages/{pkg['id']}"
    )
    assert onboarding["_links"]["subscription"]["href"].endswith(
        f"/vnfpkgm/v2/subscriptions/{everything['id']}"
    )
    pkgm.patch(pkg["id"], {"operationalState": "DISABLED"})
    change = _delivered(web, 2)[1]
    assert change["notificationType"] == "VnfPackageChangeNotification"
    assert change["changeType"] == "OP_STATE_CHANGE"
    assert change["operationalState"] == "DISABLED"
    # userDefinedData changes are not notified (SOL005: only state).
    pkgm.patch(pkg["id"], {"userDefinedData": {"k": "v"}})
    pkgm.delete(pkg["id"])
    posts = _delivered(web, 3)
    assert len(posts) == 3
    gone = posts[2]
    assert gone["changeType"] == "PKG_DELETE"
    assert "operationalState" not in gone
    assert [p["notificationType"] for p in posts] == [
        "VnfPackageOnboardingNotification",
        "VnfPackageChangeNotification",
        "VnfPackageChangeNotification",
    ]
    auth = [r.headers["Authorization"] for r in web.to(CALLBACK)]
    assert set(auth) == {
        "Basic " + base64.b64encode(b"nfvo:cb-secret").decode()
    }
