"""Validate responses against the official SOL003 OpenAPI documents."""

import functools
import json
import pathlib
import re

import jsonschema

HERE = pathlib.Path(__file__).parent / "sol003"
LCM_DOC = HERE / "SOL003-VNFLifecycleManagement-API.json"
GRANT_DOC = HERE / "SOL003-VNFLifecycleOperationGranting-API.json"
LCM_PREFIX = "/vnflcm/v2"
GRANT_PREFIX = "/grant/v1"
#: URI prefix -> the document of its API.
DOCS = {LCM_PREFIX: LCM_DOC, GRANT_PREFIX: GRANT_DOC}


@functools.cache
def _doc(path: pathlib.Path) -> dict:
    return json.loads(path.read_text())


@functools.cache
def _templates(path: pathlib.Path) -> list[tuple[re.Pattern, str]]:
    out = []
    for template in _doc(path)["paths"]:
        regex = re.sub(r"\{[^}]+\}", r"[^/]+", template)
        out.append((re.compile(f"^{regex}$"), template))
    # Literal segments win over parameters (e.g. /vnf_instances/x/scale).
    out.sort(key=lambda t: t[1].count("{"))
    return out


def _is_exclusive_choice(options) -> bool:
    return isinstance(options, list) and all(
        isinstance(o, dict) and set(o) == {"required"} for o in options
    )


def _relax(node):
    """Read ETSI's ``oneOf: [{required: [a]}, {required: [b]}]`` as "at
    most one of a, b".

    SOL003 marks such attributes as mutually exclusive and each optional
    (e.g. VnfLcmOpOcc ``changedInfo`` / ``modificationsTriggeredByVnfPkg
    Change``, subscription filter ``vnfdIds`` / ``vnfProductsFromProviders``),
    but the bundled OpenAPI encodes that as "exactly one", which would
    reject every op occ that has neither.
    """
    if isinstance(node, list):
        return [_relax(n) for n in node]
    if not isinstance(node, dict):
        return node
    out = {k: _relax(v) for k, v in node.items() if k != "oneOf"}
    if "oneOf" in node:
        options = node["oneOf"]
        if _is_exclusive_choice(options):
            names = [o["required"][0] for o in options]
            out["not"] = {
                "anyOf": [
                    {"required": [a, b]}
                    for i, a in enumerate(names)
                    for b in names[i + 1 :]
                ]
            }
        else:
            out["oneOf"] = _relax(options)
    return out


#: Required names of the bundled v3.3.1 document that its own properties
#: (and the data model tables of SOL003 5.5.2.21a/5.5.2.23) name
#: otherwise: VnfSnapshot "vnfInfo" is ``vnfInstance``, VnfcSnapshotInfo
#: "vnfcResourceId" is ``vnfcResourceInfoId``, both "triggeredAt" are
#: ``creationStartedAt``.
_RENAMED_REQUIRED = {
    "vnfInfo": "vnfInstance",
    "vnfcResourceId": "vnfcResourceInfoId",
    "triggeredAt": "creationStartedAt",
}


def _errata(node):
    """Read a required name that is no property as the property the
    table names (see :data:`_RENAMED_REQUIRED`)."""
    if isinstance(node, list):
        return [_errata(n) for n in node]
    if not isinstance(node, dict):
        return node
    out = {k: _errata(v) for k, v in node.items()}
    props = node.get("properties")
    if isinstance(props, dict) and isinstance(node.get("required"), list):
        out["required"] = [
            _RENAMED_REQUIRED.get(name, name)
            if name not in props and _RENAMED_REQUIRED.get(name) in props
            else name
            for name in node["required"]
        ]
    return out


#: The common error codes of SOL013 clause 6.4 (table 6.4-1) that a
#: SOL003 resource may answer besides those its own table lists.
SOL013_COMMON = frozenset({400, 401, 403, 404, 405, 406, 413, 414, 416, 422})


def _resolve(doc: dict, node: dict) -> dict:
    while "$ref" in node:
        section, name = node["$ref"].split("/")[-2:]
        node = doc["components"][section][name]
    return node


def response_schema(
    path: str, method: str, status: int, doc_path: pathlib.Path = LCM_DOC
) -> dict | None:
    """The JSON schema of a response, or None when it has no body."""
    for prefix, doc in DOCS.items():
        if path.startswith(prefix + "/") and doc == doc_path:
            path = path[len(prefix) :] or "/"
    doc = _doc(doc_path)
    for regex, template in _templates(doc_path):
        if regex.match(path):
            operation = doc["paths"][template][method.lower()]
            responses = operation["responses"]
            if str(status) not in responses and status in SOL013_COMMON:
                # Every SOL003 table ends "In addition, the 4xx/5xx
                # response codes defined in clause 6.4 of ETSI GS NFV-SOL
                # 013 may be returned": a ProblemDetails like the 400's.
                responses = {**responses, str(status): responses["400"]}
            if str(status) not in responses:
                raise AssertionError(
                    f"SOL003 allows no {status} for {method} {template}"
                )
            response = _resolve(doc, responses[str(status)])
            if "response body shall be empty" in response.get(
                "description", ""
            ):
                # e.g. PATCH 202 also carries a VnfInstance schema, which
                # contradicts its own normative text.
                return None
            content = response.get("content") or {}
            media = content.get("application/json")
            return _errata(_relax(media["schema"])) if media else None
    raise AssertionError(f"{method} {path} is not a SOL003 resource")


def validate(path: str, method: str, status: int, body) -> None:
    """Raise AssertionError unless ``body`` is what SOL003 says (the LCM
    or, under ``/grant/v1``, the Grant interface's document)."""
    doc_path = GRANT_DOC if path.startswith(GRANT_PREFIX + "/") else LCM_DOC
    schema = response_schema(path, method, status, doc_path)
    if schema is None:
        assert body in (None, b"", ""), f"{method} {path} {status}: no body"
        return
    if (
        method.upper() == "GET"
        and schema.get("type") == "object"
        and isinstance(body, list)
    ):
        # The bundled document declares the 200 of GET /vnf_lcm_op_occs
        # and GET /subscriptions as one object; SOL003 (tables 5.4.12.3.2
        # and 5.4.18.3.2) says an array of them.
        schema = {"type": "array", "items": schema}
    elif (
        method.upper() == "GET"
        and schema.get("type") == "array"
        and isinstance(body, dict)
        and "/vnf_snapshots/" in path
    ):
        # The bundled document declares the 200 of GET /vnf_snapshots/{id}
        # as an array; SOL003 (table 5.4.24.3.2) says one VnfSnapshotInfo.
        schema = schema["items"]
    try:
        jsonschema.Draft4Validator(schema).validate(body)
    except jsonschema.ValidationError as exc:
        where = "/".join(str(p) for p in exc.absolute_path)
        raise AssertionError(
            f"{method} {path} {status} does not match SOL003 at "
            f"'/{where}': {exc.message}"
        ) from None


def grant_request_schema() -> dict:
    """Schema of the GrantRequest body (SOL003 Grant interface 1.4.0)."""
    doc = _doc(GRANT_DOC)
    body = _resolve(doc, doc["paths"]["/grants"]["post"]["requestBody"])
    return _relax(body["content"]["application/json"]["schema"])


def validate_grant_request(body) -> None:
    """Raise AssertionError unless ``body`` is a SOL003 GrantRequest."""
    try:
        jsonschema.Draft4Validator(grant_request_schema()).validate(body)
    except jsonschema.ValidationError as exc:
        where = "/".join(str(p) for p in exc.absolute_path)
        raise AssertionError(
            f"GrantRequest does not match SOL003 at '/{where}': {exc.message}"
        ) from None


def fuzzing_document(server: str) -> dict:
    """The SOL003 LCM document as schemathesis should read it: served at
    ``server``, with the bundled document's known defects read the way
    :func:`validate` reads them (at most one of a oneOf-of-required; the
    list 200s of op occs and subscriptions are arrays; a PATCH 202 has no
    body, whatever schema it also carries) and one more: its error
    responses declare ``application/json``, where SOL013 clause 6.4 says a
    ProblemDetails is ``application/problem+json`` (both are accepted),
    and each operation may answer the common 4xx codes of SOL013 6.4
    (e.g. 422) that every SOL003 table allows besides its own, and 415
    for a body in another media type.
    The VnfSnapshot defects too: required names read as the data model
    tables name them (:data:`_RENAMED_REQUIRED`), and the 200 of GET
    /vnf_snapshots/{id} is one VnfSnapshotInfo, not an array."""
    doc = _errata(_relax(json.loads(LCM_DOC.read_text())))
    doc["servers"] = [{"url": server}]
    for template in ("/vnf_lcm_op_occs", "/subscriptions"):
        response = _resolve(
            doc, doc["paths"][template]["get"]["responses"]["200"]
        )
        media = response["content"]["application/json"]
        if media["schema"].get("type") == "object":
            media["schema"] = {"type": "array", "items": media["schema"]}
    one = _resolve(
        doc,
        doc["paths"]["/vnf_snapshots/{vnfSnapshotInfoId}"]["get"]["responses"][
            "200"
        ],
    )["content"]["application/json"]
    if one["schema"].get("type") == "array":
        one["schema"] = one["schema"]["items"]
    for item in doc["paths"].values():
        for operation in item.values():
            if not isinstance(operation, dict):
                continue
            responses = operation.get("responses") or {}
            if "400" in responses:
                # As validate() reads it: the SOL013 6.4 common codes too,
                # and 415 (RFC 9110 15.5.16) for a body in a media type
                # the resource does not take, which the document lists
                # nowhere though the fuzzer sends such bodies.
                codes = set(SOL013_COMMON)
                if "requestBody" in operation:
                    codes.add(415)
                for code in sorted(codes):
                    responses.setdefault(str(code), responses["400"])
            for status, response in responses.items():
                target = _resolve(doc, response)
                content = target.get("content") or {}
                if status.startswith(("4", "5")) and "application/json" in (
                    content
                ):
                    content.setdefault(
                        "application/problem+json", content["application/json"]
                    )
                if "response body shall be empty" in target.get(
                    "description", ""
                ):
                    operation["responses"][status] = {
                        "description": target["description"]
                    }
    for item in doc["paths"].values():
        for operation in item.values():
            body = isinstance(operation, dict) and operation.get("requestBody")
            if body:
                operation["requestBody"] = _without_not(_resolve(doc, body))
    return doc


def _without_not(node):
    """``node`` without ``not`` keywords: in request bodies the "at most
    one of" reading only narrows what may be sent, and schemathesis's
    coverage phase fails intermittently to generate against it
    ("Inconsistent results")."""
    if isinstance(node, list):
        return [_without_not(n) for n in node]
    if not isinstance(node, dict):
        return node
    return {k: _without_not(v) for k, v in node.items() if k != "not"}
