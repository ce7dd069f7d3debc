"""If-None-Match on the LCM API's GETs: 304 while nothing changed, 200
with a new ETag once something the client would see did."""

from tacker_ng.tests.unit.lcm.conftest import V

INSTANCES = "/vnflcm/v2/vnf_instances"


def _get(lcm, url, tag=None, status=200):
    headers = dict(V)
    if tag:
        headers["If-None-Match"] = tag
    resp = lcm.app.get(url, headers=headers, status=status)
    return resp


def test_instance_304_then_200_after_modify(lcm):
    inst = lcm.create()
    url = f"{INSTANCES}/{inst['id']}"
    first = _get(lcm, url)
    tag = first.headers["ETag"]
    not_modified = _get(lcm, url, tag, status=304)
    assert not_modified.body == b""
    assert not_modified.headers["ETag"] == tag
    resp = lcm.app.patch_json(
        url,
        {"vnfInstanceName": "renamed"},
        headers={**V, "Content-Type": "application/merge-patch+json"},
    )
    lcm.wait(resp.headers["Location"].rsplit("/", 1)[1], ("COMPLETED",))
    changed = _get(lcm, url, tag)
    assert changed.status_int == 200
    assert changed.headers["ETag"] != tag
    assert changed.json["vnfInstanceName"] == "renamed"


def test_list_tag_follows_rows_membership_and_link(lcm, conf):
    conf.set_override("max_page_size", 2, group="api")
    a = lcm.create()
    first = _get(lcm, INSTANCES)
    tag = first.headers["ETag"]
    assert "Link" not in first.headers
    _get(lcm, INSTANCES, tag, status=304)
    # A selector changes the body, so the tag.
    other = _get(lcm, INSTANCES + "?exclude_fields=vnfProvider")
    assert other.headers["ETag"] != tag
    # Membership: a second row.
    lcm.create()
    two = _get(lcm, INSTANCES, tag)
    assert two.status_int == 200 and len(two.json) == 2
    tag2 = two.headers["ETag"]
    # A third row is not on page 1, but page 1 now has a Link: new tag.
    lcm.create()
    linked = _get(lcm, INSTANCES, tag2)
    assert linked.status_int == 200 and "Link" in linked.headers
    assert [i["id"] for i in linked.json] == [i["id"] for i in two.json]
    tag3 = linked.headers["ETag"]
    _get(lcm, INSTANCES, tag3, status=304)
    # A change of a row on the page.
    lcm.app.delete(f"{INSTANCES}/{a['id']}", headers=V, status=204)
    assert _get(lcm, INSTANCES, tag3).status_int == 200


def test_op_occ_and_subscription_lists_and_items(lcm):
    inst = lcm.create()
    occ = lcm.run(inst["id"], "instantiate", {"flavourId": "simple"})
    for url in (
        "/vnflcm/v2/vnf_lcm_op_occs",
        f"/vnflcm/v2/vnf_lcm_op_occs/{occ['id']}",
        "/vnflcm/v2/subscriptions",
    ):
        tag = _get(lcm, url).headers["ETag"]
        assert _get(lcm, url, tag, status=304).body == b""
        assert _get(lcm, url, '"other"').status_int == 200
