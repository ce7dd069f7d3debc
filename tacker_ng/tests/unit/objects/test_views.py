"""VnfInstance ``_links``: the task resources of SOL003 5.5.2.2 that the
instance's state allows, each pointing at a route the API serves."""

import json
from pathlib import Path

from tacker_ng.objects import lcm, views

BASE = "http://vnfm"
SELF = f"{BASE}/vnflcm/v2/vnf_instances/i-1"
SOL003 = (
    Path(__file__).resolve().parents[2]
    / "functional"
    / "sol003"
    / "SOL003-VNFLifecycleManagement-API.json"
)


def _links(state: str) -> dict:
    return views.instance_links(
        BASE, {"id": "i-1", "instantiation_state": state}
    )


def test_not_instantiated_offers_instantiate_only():
    assert _links(lcm.InstantiationState.NOT_INSTANTIATED) == {
        "self": {"href": SELF},
        "instantiate": {"href": f"{SELF}/instantiate"},
    }


def test_instantiated_offers_every_task_including_operate_and_snapshots():
    links = _links(lcm.InstantiationState.INSTANTIATED)
    assert {k: v["href"].removeprefix(SELF) for k, v in links.items()} == {
        "self": "",
        "terminate": "/terminate",
        "scale": "/scale",
        "scaleToLevel": "/scale_to_level",
        "changeFlavour": "/change_flavour",
        "heal": "/heal",
        "operate": "/operate",
        "changeExtConn": "/change_ext_conn",
        "createSnapshot": "/create_snapshot",
        "revertToSnapshot": "/revert_to_snapshot",
    }


def test_every_task_link_is_a_path_of_the_sol003_document():
    paths = json.loads(SOL003.read_text())["paths"]
    links = _links(lcm.InstantiationState.INSTANTIATED)
    for name, link in links.items():
        if name == "self":
            continue
        path = link["href"].removeprefix(BASE + "/vnflcm/v2")
        path = path.replace("i-1", "{vnfInstanceId}")
        assert path in paths, (name, path)
