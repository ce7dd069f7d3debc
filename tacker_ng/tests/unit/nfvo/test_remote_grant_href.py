"""Where a remote NFVO keeps a grant: the Location it answered, kept as
the grant's absolute ``_links.self`` (what the op occ links to)."""

import pytest

from tacker_ng.nfvo import remote


@pytest.fixture
def nfvo(conf):
    conf.set_override("mode", "remote", group="nfvo")
    conf.set_override("endpoint", "https://nfvo.example/api/", group="nfvo")
    return conf


@pytest.mark.parametrize(
    ("location", "self_href", "expected"),
    [
        # A path is under the endpoint (which may carry a prefix).
        (
            "/grant/v1/grants/g1",
            None,
            "https://nfvo.example/api/grant/v1/grants/g1",
        ),
        # An absolute Location wins over the body's self link.
        (
            "https://grants.example/g1",
            "https://nfvo.example/api/grant/v1/grants/g1",
            "https://grants.example/g1",
        ),
        # No Location (an NFVO that omits it): the body's self link.
        (
            None,
            "/grant/v1/grants/g1",
            "https://nfvo.example/api/grant/v1/grants/g1",
        ),
        (None, "https://x.example/g1", "https://x.example/g1"),
    ],
)
def test_location_becomes_the_self_link(nfvo, location, self_href, expected):
    grant = {"id": "g1", "_links": {"vnfInstance": {"href": "/i"}}}
    if self_href:
        grant["_links"]["self"] = {"href": self_href}
    got = remote._located(grant, location, nfvo)
    assert got["_links"]["self"] == {"href": expected}
    assert got["_links"]["vnfInstance"] == {"href": "/i"}
    assert remote.grant_href(got, nfvo) == expected


def test_without_location_or_self_link_the_sol003_resource_uri(nfvo):
    grant = remote._located({"id": "g1"}, None, nfvo)
    assert "self" not in grant["_links"]
    assert (
        remote.grant_href(grant, nfvo)
        == "https://nfvo.example/api/grant/v1/grants/g1"
    )
    assert remote.grant_href({}, nfvo) is None
