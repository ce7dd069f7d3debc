"""The API's own OpenAPI document: current, served, and true to routing."""

import importlib.util
import pathlib
import re
import uuid

import jsonschema
import pytest

from tacker_ng.api import openapi

REPO = pathlib.Path(__file__).resolve().parents[4]
METHODS = ("get", "post", "put", "patch", "delete")


def _tool():
    spec = importlib.util.spec_from_file_location(
        "openapi_tool", REPO / "tools" / "openapi.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_committed_document_is_current():
    tool = _tool()
    assert tool.DEFAULT.read_text() == tool.render(), (
        "doc/source/_static/openapi.json is stale: run tox -e genopenapi"
    )


def test_document_is_valid_openapi():
    import schemathesis

    schema = schemathesis.openapi.from_dict(openapi.build_document())
    operations = list(schema.get_all_operations())
    assert len(operations) > 40
    # Every request body schema is a valid JSON schema.
    for item in openapi.build_document()["paths"].values():
        for method in METHODS:
            body = (item.get(method) or {}).get("requestBody")
            for media in (body or {}).get("content", {}).values():
                jsonschema.Draft7Validator.check_schema(media["schema"])


def test_served_without_login(api, conf):
    resp = api.get("/openapi.json")
    assert resp.status_int == 200
    assert (
        resp.json["paths"].keys() == openapi.build_document()["paths"].keys()
    )
    assert api.post("/openapi.json", expect_errors=True).status_int == 405


def _concrete(template: str) -> str:
    return re.sub(r"\{[^}]+\}", lambda _: str(uuid.uuid4()), template)


@pytest.mark.parametrize(
    "path", sorted(openapi.build_document()["paths"]), ids=str
)
def test_documented_methods_are_the_routed_ones(api, path):
    """For every documented path, a method the document does not list is
    a 405 whose ``Allow`` names exactly the documented ones: the document
    and the routing cannot drift apart."""
    item = openapi.build_document()["paths"][path]
    documented = {m.upper() for m in METHODS if m in item}
    missing = [
        m for m in ("PUT", "DELETE", "PATCH", "POST") if m not in documented
    ]
    if not missing:
        pytest.fail(f"{path}: every method documented; test cannot check it")
    headers = {}
    if path.startswith("/vnflcm"):
        headers = {"Version": "2.0.0"}
    elif path.startswith("/vnfpkgm"):
        headers = {"Version": "2.1.0"}
    elif path.startswith("/vnffm"):
        headers = {"Version": "1.3.0"}
    elif path.startswith("/grant"):
        headers = {"Version": "1.4.0"}
    elif path.startswith("/vnfpm"):
        headers = {"Version": "2.1.0"}
    resp = api.request(
        _concrete(path),
        method=missing[0],
        headers=headers,
        expect_errors=True,
    )
    assert resp.status_int == 405, (path, resp.status, resp.text)
    allowed = {m.strip() for m in resp.headers["Allow"].split(",") if m}
    allowed.discard("HEAD")
    assert allowed == documented, path
