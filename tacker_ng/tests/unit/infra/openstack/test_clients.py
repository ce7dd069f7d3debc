"""Pure helpers of the Heat and Nova wrappers (no client calls)."""

from tacker_ng.infra.openstack import heat, nova


def test_usable_zones_need_an_enabled_running_compute():
    detail = [
        {
            "zoneName": "AZ-1",
            "zoneState": {"available": True},
            "hosts": {
                "h1": {"nova-compute": {"available": True, "active": True}}
            },
        },
        {
            "zoneName": "AZ-2",
            "zoneState": {"available": True},
            "hosts": {
                "h2": {"nova-compute": {"available": False, "active": True}}
            },
        },
        {
            "zoneName": "AZ-3",
            "zoneState": {"available": False},
            "hosts": {
                "h3": {"nova-compute": {"available": True, "active": True}}
            },
        },
        {
            "zoneName": "internal",
            "zoneState": {"available": True},
            "hosts": {
                "c": {"nova-conductor": {"available": True, "active": True}}
            },
        },
        {"zoneName": "AZ-0", "zoneState": {"available": True}, "hosts": None},
        {
            "zoneName": "AZ-4",
            "zoneState": {"available": True},
            "hosts": {
                "h4": {"nova-compute": {"available": True, "active": False}}
            },
        },
    ]
    assert nova.usable_zones(detail) == ["AZ-1"]


def _res(name, rtype, parent=None, stack="s1"):
    r = {
        "resource_name": name,
        "resource_type": rtype,
        "physical_resource_id": f"id-{name}-{parent}",
        "links": [{"rel": "stack", "href": f"http://h/v1/p/stacks/n/{stack}"}],
    }
    if parent:
        r["parent_resource"] = parent
    return r


def test_servers_by_vnfc_nested_and_top_level():
    resources = [
        _res("VDU1-0", "VDU1.yaml"),
        _res("VDU1", heat.SERVER_TYPE, "VDU1-0", "nested-0"),
        _res("VDU1_CP1", "OS::Neutron::Port", "VDU1-0", "nested-0"),
        _res("VDU2-0", heat.SERVER_TYPE),
        _res("VDU9", heat.SERVER_TYPE, "other"),
    ]
    found = heat.servers_by_vnfc(resources, {"VDU1-0", "VDU2-0"})
    assert found["VDU1-0"]["physical_resource_id"] == "id-VDU1-VDU1-0"
    assert found["VDU2-0"]["resource_name"] == "VDU2-0"
    assert set(found) == {"VDU1-0", "VDU2-0"}
    assert heat.nested_stack_id(found["VDU1-0"]) == "nested-0"
    assert heat.nested_stack_id({"links": []}) is None


class _Zone:
    def __init__(self, name: str) -> None:
        self.zoneName = name
        self.zoneState = {"available": True}

    def to_dict(self) -> dict:
        return {
            "zoneName": self.zoneName,
            "zoneState": self.zoneState,
            "hosts": {
                "h": {"nova-compute": {"available": True, "active": True}}
            },
        }


class _Zones:
    def __init__(self, names: list[str]) -> None:
        self.names = names

    def list(self, detailed: bool) -> list[_Zone]:
        return [_Zone(n) for n in self.names]


def _nova(names: list[str], allowed: list[str]) -> nova.Nova:
    """A Nova wrapper on a stub client (its __init__ needs a session)."""
    client = nova.Nova.__new__(nova.Nova)
    client.client = type("C", (), {"availability_zones": _Zones(names)})()
    client.allowed = frozenset(allowed)
    return client


def test_zones_are_kept_to_the_configured_availability_zones():
    names = ["AZ-1", "AZ-2", "L1-AZ-1", "L1-AZ-2"]
    assert _nova(names, []).zones() == sorted(names)
    assert _nova(names, ["L1-AZ-2", "L1-AZ-1", "gone"]).zones() == [
        "L1-AZ-1",
        "L1-AZ-2",
    ]
