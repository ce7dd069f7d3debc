"""SOL013 attribute selectors on response dicts, and list query parsing."""

import copy

import pytest
import webob

from tacker_ng import exceptions
from tacker_ng.api import listing, selectors

INSTANCE = {
    "id": "i1",
    "vnfInstanceName": "alpha",
    "vnfdId": "vnfd-1",
    "instantiationState": "INSTANTIATED",
    "vnfConfigurableProperties": {"isAutoscaleEnabled": True},
    "vimConnectionInfo": {
        "vim1": {"vimId": "v1", "vimType": "openstack", "extra": {"a": 1}},
        "vim2": {"vimId": "v2", "vimType": "kubernetes"},
    },
    "instantiatedVnfInfo": {
        "flavourId": "simple",
        "vnfState": "STARTED",
        "vnfcResourceInfo": [
            {
                "id": "c1",
                "vduId": "VDU1",
                "computeResource": {"resourceId": "s1"},
            },
            {"id": "c2", "vduId": "VDU2"},
        ],
    },
    "metadata": {"tenant": "blue"},
    "extensions": {"e": 1},
    "_links": {"self": {"href": "http://h/i1"}},
}
SIMPLE = {
    "id",
    "vnfInstanceName",
    "vnfdId",
    "instantiationState",
    "_links",
}
COMPLEX = set(selectors.VNF_INSTANCE.complex)


def select(query: str, body=INSTANCE, spec=selectors.VNF_INSTANCE) -> dict:
    params = webob.Request.blank("/?" + query).GET
    original = copy.deepcopy(body)
    out = selectors.parse(params, spec).apply(body)
    assert body == original  # the input is never modified
    return out


def test_no_selector_is_exclude_default():
    assert set(select("")) == SIMPLE
    assert select("") == select("exclude_default")


def test_all_fields_keeps_everything():
    assert select("all_fields") == INSTANCE
    assert select("all_fields=") == INSTANCE


def test_fields_adds_listed_complex_attributes():
    out = select("fields=metadata,vimConnectionInfo")
    assert set(out) == SIMPLE | {"metadata", "vimConnectionInfo"}
    assert out["vimConnectionInfo"] == INSTANCE["vimConnectionInfo"]


def test_fields_with_nested_path_keeps_only_that_part():
    out = select("fields=instantiatedVnfInfo/vnfState")
    assert out["instantiatedVnfInfo"] == {"vnfState": "STARTED"}
    assert "metadata" not in out


def test_nested_fields_go_through_arrays_and_maps():
    out = select(
        "fields=instantiatedVnfInfo/vnfcResourceInfo/vduId,"
        "vimConnectionInfo/*/vimType"
    )
    assert out["instantiatedVnfInfo"] == {
        "vnfcResourceInfo": [{"vduId": "VDU1"}, {"vduId": "VDU2"}]
    }
    assert out["vimConnectionInfo"] == {
        "vim1": {"vimType": "openstack"},
        "vim2": {"vimType": "kubernetes"},
    }


def test_whole_attribute_wins_over_its_parts_in_any_order():
    for query in (
        "fields=instantiatedVnfInfo/vnfState,instantiatedVnfInfo",
        "fields=instantiatedVnfInfo,instantiatedVnfInfo/vnfState",
    ):
        out = select(query)
        assert out["instantiatedVnfInfo"] == INSTANCE["instantiatedVnfInfo"]


def test_exclude_fields_drops_only_the_listed_parts():
    out = select(
        "exclude_fields=metadata,instantiatedVnfInfo/vnfcResourceInfo"
    )
    assert set(out) == set(INSTANCE) - {"metadata"}
    assert out["instantiatedVnfInfo"] == {
        "flavourId": "simple",
        "vnfState": "STARTED",
    }


def test_exclude_fields_through_arrays_and_maps():
    out = select(
        "exclude_fields=instantiatedVnfInfo/vnfcResourceInfo/computeResource,"
        "vimConnectionInfo/*/extra"
    )
    assert out["instantiatedVnfInfo"]["vnfcResourceInfo"] == [
        {"id": "c1", "vduId": "VDU1"},
        {"id": "c2", "vduId": "VDU2"},
    ]
    assert out["vimConnectionInfo"]["vim1"] == {
        "vimId": "v1",
        "vimType": "openstack",
    }


def test_exclude_default_with_fields():
    out = select("exclude_default&fields=metadata")
    assert set(out) == SIMPLE | {"metadata"}


def test_fields_alone_drops_every_optional_complex_attribute():
    body = {
        "id": "o1",
        "operationState": "COMPLETED",
        "operationParams": {"a": 1},
        "error": {"status": 500},
        "modificationsTriggeredByVnfPkgChange": {"vnfdId": "x"},
    }
    spec = selectors.VNF_LCM_OP_OCC
    # no selector: the default set goes, other complex attributes stay
    assert set(select("", body, spec)) == {
        "id",
        "operationState",
        "modificationsTriggeredByVnfPkgChange",
    }
    # fields: every optional complex attribute not listed goes
    assert set(select("fields=error", body, spec)) == {
        "id",
        "operationState",
        "error",
    }
    assert set(select("exclude_default&fields=error", body, spec)) == {
        "id",
        "operationState",
        "error",
        "modificationsTriggeredByVnfPkgChange",
    }


def test_simple_attribute_in_fields_is_accepted():
    assert set(select("fields=vnfInstanceName")) == SIMPLE


def test_missing_and_scalar_parts_are_left_alone():
    body = {"id": "x", "metadata": "not-a-dict", "_links": {}}
    assert select("fields=metadata/a", body)["metadata"] == "not-a-dict"
    assert (
        select("exclude_fields=metadata/a", body)["metadata"] == "not-a-dict"
    )
    assert "instantiatedVnfInfo" not in select(
        "fields=instantiatedVnfInfo/vnfState", body
    )


@pytest.mark.parametrize(
    ("query", "reason"),
    [
        (
            "all_fields&fields=metadata",
            "all_fields and fields cannot be combined",
        ),
        (
            "all_fields&exclude_fields=metadata",
            "all_fields and exclude_fields",
        ),
        ("all_fields&exclude_default", "all_fields and exclude_default"),
        (
            "fields=metadata&exclude_fields=extensions",
            "fields and exclude_fields",
        ),
        (
            "exclude_fields=metadata&exclude_default",
            "exclude_fields and exclude_default",
        ),
        ("fields=", "fields is empty"),
        ("exclude_fields=", "exclude_fields is empty"),
        ("fields=metadata,", "empty attribute name"),
        ("fields=metadata//a", "empty attribute name or path segment"),
        ("fields=/metadata", "empty attribute name or path segment"),
        ("fields=bogus", "'bogus', which is not an attribute of VnfInstance"),
        ("exclude_fields=bogus/x", "'bogus', which is not an attribute"),
        ("fields=a&fields=b", "fields is given more than once"),
        ("all_fields&all_fields", "all_fields is given more than once"),
        ("fields=" + ",".join(["metadata"] * 65), "more than 64 attributes"),
    ],
)
def test_bad_selectors_are_400(query, reason):
    with pytest.raises(exceptions.BadRequest) as err:
        select(query)
    assert err.value.status == 400
    assert reason in err.value.detail


def test_includes_tells_which_columns_to_load():
    params = webob.Request.blank("/?fields=instantiatedVnfInfo/vnfState").GET
    selector = selectors.parse(params, selectors.VNF_INSTANCE)
    assert selector.includes("instantiatedVnfInfo")
    assert selector.includes("id")
    assert not selector.includes("metadata")
    params = webob.Request.blank("/?exclude_fields=id").GET
    assert not selectors.parse(params, selectors.VNF_INSTANCE).includes("id")


def test_plain_mapping_params():
    selector = selectors.parse({"fields": "metadata"}, selectors.VNF_INSTANCE)
    assert "metadata" in selector.apply(INSTANCE)


# --- the whole list query ---------------------------------------------------


def test_parse_list_query(conf):
    request = webob.Request.blank(
        "/vnflcm/v2/vnf_instances?filter=(eq,vnfdId,x)&fields=metadata"
        "&nextpage_opaque_marker=abc.def"
    )
    query = listing.parse_list_query(request, listing.VNF_INSTANCES, conf)
    assert str(query.filter) == "(eq,vnfdId,x)"
    assert query.marker == "abc.def"
    assert query.limit == conf.api.max_page_size
    assert set(query.select(INSTANCE)) == SIMPLE | {"metadata"}
    assert query.includes("metadata") and not query.includes("extensions")


def test_filter_terms_separated_by_a_bare_semicolon(conf):
    """SOL013 separates a filter's terms with ';', which clients rarely
    percent-encode; WebOb's own query parsing splits on it."""
    request = webob.Request.blank(
        "/vnflcm/v2/vnf_instances?filter=(eq,vnfdId,x);(neq,vnfProvider,y)"
        "&fields=metadata"
    )
    query = listing.parse_list_query(request, listing.VNF_INSTANCES, conf)
    assert str(query.filter) == "(eq,vnfdId,x);(neq,vnfProvider,y)"
    assert query.includes("metadata")


def test_query_string_not_utf8_is_400(conf):
    request = webob.Request.blank("/vnflcm/v2/vnf_instances?filter=%FF")
    with pytest.raises(exceptions.BadRequest, match="not valid UTF-8"):
        listing.parse_list_query(request, listing.VNF_INSTANCES, conf)


def test_parse_list_query_defaults(conf):
    conf.set_override("max_page_size", 7, group="api")
    request = webob.Request.blank("/vnflcm/v2/subscriptions?all_fields")
    query = listing.parse_list_query(request, listing.SUBSCRIPTIONS, conf)
    assert query.filter is None and query.marker is None
    assert query.limit == 7
    assert query.selector is None  # subscriptions take no selectors
    assert query.select({"id": "s", "filter": {}}) == {"id": "s", "filter": {}}
    assert query.includes("filter")


@pytest.mark.parametrize(
    ("query", "reason"),
    [
        ("filter=(eq,nope,1)", "attribute 'nope' is not supported"),
        ("filter=(eq,vnfdId,x", "expected ')'"),
        ("filter=", "the filter is empty"),
        ("filter=(eq,a,b)&filter=(eq,c,d)", "filter is given more than once"),
        ("nextpage_opaque_marker=", "nextpage_opaque_marker is empty"),
        (
            "nextpage_opaque_marker=a&nextpage_opaque_marker=b",
            "more than once",
        ),
        ("all_fields&fields=metadata", "cannot be combined"),
    ],
)
def test_bad_list_queries_are_400(conf, query, reason):
    request = webob.Request.blank("/vnflcm/v2/vnf_instances?" + query)
    with pytest.raises(exceptions.BadRequest) as err:
        listing.parse_list_query(request, listing.VNF_INSTANCES, conf)
    assert reason in err.value.detail


def test_every_resource_has_field_map_and_selector_spec():
    for resource in (
        listing.VNF_INSTANCES,
        listing.VNF_LCM_OP_OCCS,
        listing.SUBSCRIPTIONS,
        listing.VNF_PACKAGES,
    ):
        assert resource.fields.name == resource.name
        if resource.selectors is not None:
            spec = resource.selectors
            assert spec.name == resource.name
            assert spec.default_excluded <= spec.complex <= spec.attributes
            # every filterable document is an attribute selectors know
            assert set(resource.fields.documents) <= spec.attributes
