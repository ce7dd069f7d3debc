"""tacker-ng's own OpenAPI 3 document: every route the API serves.

Built from the jsonschemas the controllers validate request bodies with
(``api/schemas``), so the document cannot promise a body the code refuses.
Served at ``GET /openapi.json`` (no login, like ``/``) and committed as
``doc/source/_static/openapi.json`` (a unit test keeps it current; another
checks each documented path's ``Allow`` header against the routing).
"""

from __future__ import annotations

import copy
from typing import Any

from tacker_ng.api import versions
from tacker_ng.api.controllers.admin import ping
from tacker_ng.api.schemas import vnflcm as lcm_schemas
from tacker_ng.api.schemas import vnfpkgm as pkgm_schemas

TITLE = "tacker-ng"
LCM = "/vnflcm/v2"
PKGM = "/vnfpkgm/v2"
RSV = "/reservation/v1"

ID = {"type": "string", "minLength": 1}
DATETIME = {"type": "string"}
OBJECT = {"type": "object"}
LINK = {
    "type": "object",
    "properties": {"href": {"type": "string"}},
    "required": ["href"],
}


def _obj(required: list[str], **props: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {name: props.get(name, {}) for name in required} | props,
        "required": required,
    }


SCHEMAS: dict[str, dict[str, Any]] = {
    "ProblemDetails": _obj(
        ["status", "detail"],
        status={"type": "integer"},
        detail={"type": "string"},
        title={"type": "string"},
        type={"type": "string"},
        instance={"type": "string"},
    ),
    "BlazarError": _obj(
        ["error_code", "error_message"],
        error_code={"type": "integer"},
        error_message={"type": "string"},
        error_name={"type": "string"},
    ),
    "ApiVersionInformation": _obj(
        ["uriPrefix", "apiVersions"],
        uriPrefix={"type": "string"},
        apiVersions={
            "type": "array",
            "items": _obj(["version"], version={"type": "string"}),
        },
    ),
    "VnfInstance": _obj(
        [
            "id",
            "vnfdId",
            "vnfProvider",
            "vnfProductName",
            "vnfSoftwareVersion",
            "vnfdVersion",
            "instantiationState",
            "_links",
        ],
        id=ID,
        vnfdId=ID,
        instantiationState={"enum": ["NOT_INSTANTIATED", "INSTANTIATED"]},
        instantiatedVnfInfo=OBJECT,
        vimConnectionInfo=OBJECT,
        _links=OBJECT,
    ),
    "VnfLcmOpOcc": _obj(
        [
            "id",
            "operationState",
            "stateEnteredTime",
            "startTime",
            "vnfInstanceId",
            "operation",
            "isAutomaticInvocation",
            "isCancelPending",
            "_links",
        ],
        id=ID,
        operationState={
            "enum": [
                "STARTING",
                "PROCESSING",
                "COMPLETED",
                "FAILED_TEMP",
                "FAILED",
                "ROLLING_BACK",
                "ROLLED_BACK",
            ]
        },
        isAutomaticInvocation={"type": "boolean"},
        isCancelPending={"type": "boolean"},
        error={"$ref": "#/components/schemas/ProblemDetails"},
        _links=OBJECT,
    ),
    "LccnSubscription": _obj(
        ["id", "callbackUri", "verbosity", "_links"],
        id=ID,
        callbackUri={"type": "string"},
        verbosity={"enum": ["FULL", "SHORT"]},
        filter=OBJECT,
        _links=OBJECT,
    ),
    "PkgmSubscription": _obj(
        ["id", "callbackUri", "_links"],
        id=ID,
        callbackUri={"type": "string"},
        filter=OBJECT,
        _links=OBJECT,
    ),
    "VnfPkgInfo": _obj(
        [
            "id",
            "onboardingState",
            "operationalState",
            "usageState",
            "_links",
        ],
        id=ID,
        onboardingState={
            "enum": [
                "CREATED",
                "UPLOADING",
                "PROCESSING",
                "ONBOARDED",
                "ERROR",
            ]
        },
        operationalState={"enum": ["ENABLED", "DISABLED"]},
        usageState={"enum": ["IN_USE", "NOT_IN_USE"]},
        # tacker-ng extension: deviations accepted at onboarding.
        onboardingWarnings={"type": "array", "items": {"type": "string"}},
        _links=OBJECT,
    ),
    "Lease": _obj(
        [
            "id",
            "name",
            "start_date",
            "end_date",
            "status",
            "reservations",
        ],
        id=ID,
        name={"type": "string"},
        reservations={"type": "array", "items": OBJECT},
    ),
    "Host": _obj(["id"], id={}),
    "Conductor": _obj(
        ["hostname", "alive", "online", "rpcVersion"],
        hostname={"type": "string"},
        alive={"type": "boolean"},
        online={"type": "boolean"},
        rpcVersion={"type": "string"},
        claimedOpOccs={
            "type": "array",
            "items": {"type": "string"},
            "description": "Op occs whose run this conductor holds.",
        },
    ),
}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"application/json": {"schema": schema}}


def _ok(status: str, schema: dict[str, Any] | None, what: str) -> dict:
    body = {"description": what}
    if schema is not None:
        body["content"] = _json(schema)
    return {status: body}


def _errors(codes: tuple[str, ...], blazar: bool = False) -> dict:
    schema = _ref("BlazarError" if blazar else "ProblemDetails")
    media = "application/json" if blazar else "application/problem+json"
    return {
        code: {
            "description": "Error",
            "content": {media: {"schema": schema}},
        }
        for code in codes
    }


#: Errors any route may answer (auth, policy, method, media, limits, ours).
COMMON = ("400", "401", "403", "404", "405", "406", "413", "415", "500", "503")


def _op(
    op_id: str,
    summary: str,
    responses: dict,
    body: dict | None = None,
    media: str = "application/json",
    extra_errors: tuple[str, ...] = (),
    blazar: bool = False,
) -> dict[str, Any]:
    op: dict[str, Any] = {
        "operationId": op_id,
        "summary": summary,
        "responses": {**responses, **_errors(COMMON + extra_errors, blazar)},
    }
    if body is not None:
        op["requestBody"] = {
            "required": True,
            "content": {media: {"schema": copy.deepcopy(body)}},
        }
    return op


def _id_param(name: str) -> dict[str, Any]:
    return {
        "name": name,
        "in": "path",
        "required": True,
        "schema": {"type": "string"},
    }


_LCM_TASKS = {
    "instantiate": lcm_schemas.INSTANTIATE_VNF_REQUEST,
    "scale": lcm_schemas.SCALE_VNF_REQUEST,
    "scale_to_level": lcm_schemas.SCALE_VNF_TO_LEVEL_REQUEST,
    "change_flavour": lcm_schemas.CHANGE_VNF_FLAVOUR_REQUEST,
    "terminate": lcm_schemas.TERMINATE_VNF_REQUEST,
    "heal": lcm_schemas.HEAL_VNF_REQUEST,
    "change_ext_conn": lcm_schemas.CHANGE_EXT_VNF_CONNECTIVITY_REQUEST,
    "change_vnfpkg": lcm_schemas.CHANGE_CURRENT_VNF_PKG_REQUEST,
    "operate": lcm_schemas.OPERATE_VNF_REQUEST,
    "create_snapshot": lcm_schemas.CREATE_VNF_SNAPSHOT_REQUEST,
    "revert_to_snapshot": lcm_schemas.REVERT_TO_VNF_SNAPSHOT_REQUEST,
}


def _version_header(version: str) -> dict[str, Any]:
    """SOL013: the Version header names the API version (required)."""
    return {
        "name": "Version",
        "in": "header",
        "required": True,
        "schema": {"type": "string", "enum": [version]},
    }


def _with_version(paths: dict[str, dict], version: str) -> dict[str, dict]:
    header = _version_header(version)
    for item in paths.values():
        item["parameters"] = [header, *item.get("parameters", [])]
    return paths


def _lcm_paths() -> dict[str, dict]:
    inst = f"{LCM}/vnf_instances/{{vnfInstanceId}}"
    occ = f"{LCM}/vnf_lcm_op_occs/{{vnfLcmOpOccId}}"
    accepted = _ok("202", None, "Accepted; Location names the op occ.")
    paths: dict[str, dict] = {
        f"{LCM}/vnf_instances": {
            "get": _op(
                "listVnfInstances",
                "List VNF instances.",
                _ok(
                    "200",
                    {"type": "array", "items": _ref("VnfInstance")},
                    "The page.",
                ),
            ),
            "post": _op(
                "createVnfInstance",
                "Create a VNF instance.",
                _ok("201", _ref("VnfInstance"), "Created."),
                lcm_schemas.CREATE_VNF_REQUEST,
                extra_errors=("422",),
            ),
        },
        inst: {
            "parameters": [_id_param("vnfInstanceId")],
            "get": _op(
                "showVnfInstance",
                "Show a VNF instance.",
                _ok("200", _ref("VnfInstance"), "The instance."),
            ),
            "patch": _op(
                "modifyVnfInstance",
                "Modify a VNF instance's information.",
                accepted,
                lcm_schemas.VNF_INFO_MODIFICATION_REQUEST,
                media="application/merge-patch+json",
                extra_errors=("409", "412", "422"),
            ),
            "delete": _op(
                "deleteVnfInstance",
                "Delete a VNF instance.",
                _ok("204", None, "Deleted."),
                extra_errors=("409",),
            ),
        },
    }
    for task, schema in _LCM_TASKS.items():
        paths[f"{inst}/{task}"] = {
            "parameters": [_id_param("vnfInstanceId")],
            "post": _op(
                f"{task}VnfInstance",
                f"Start the {task} operation.",
                accepted,
                schema,
                extra_errors=("409", "422"),
            ),
        }
    paths[f"{LCM}/vnf_lcm_op_occs"] = {
        "get": _op(
            "listVnfLcmOpOccs",
            "List LCM operation occurrences.",
            _ok(
                "200",
                {"type": "array", "items": _ref("VnfLcmOpOcc")},
                "The page.",
            ),
        )
    }
    paths[occ] = {
        "parameters": [_id_param("vnfLcmOpOccId")],
        "get": _op(
            "showVnfLcmOpOcc",
            "Show an LCM operation occurrence.",
            _ok("200", _ref("VnfLcmOpOcc"), "The op occ."),
        ),
    }
    for task in ("retry", "rollback", "cancel"):
        paths[f"{occ}/{task}"] = {
            "parameters": [_id_param("vnfLcmOpOccId")],
            "post": _op(
                f"{task}VnfLcmOpOcc",
                f"{task.capitalize()} an LCM operation occurrence.",
                accepted,
                lcm_schemas.CANCEL_MODE if task == "cancel" else None,
                extra_errors=("409",),
            ),
        }
    paths[f"{occ}/fail"] = {
        "parameters": [_id_param("vnfLcmOpOccId")],
        "post": _op(
            "failVnfLcmOpOcc",
            "Mark an LCM operation occurrence as failed.",
            _ok("200", _ref("VnfLcmOpOcc"), "The failed op occ."),
            extra_errors=("409",),
        ),
    }
    paths.update(
        _subscription_paths(
            LCM,
            "LccnSubscription",
            lcm_schemas.LCCN_SUBSCRIPTION_REQUEST,
            "LCM",
        )
    )
    return _with_version(paths, "2.0.0")


def _subscription_paths(
    prefix: str, kind: str, request: dict, what: str
) -> dict[str, dict]:
    """The subscriptions collection and item of one SOL API."""
    return {
        f"{prefix}/subscriptions": {
            "get": _op(
                f"list{kind}s",
                "List subscriptions.",
                _ok(
                    "200",
                    {"type": "array", "items": _ref(kind)},
                    "The page.",
                ),
            ),
            "post": _op(
                f"create{kind}",
                f"Subscribe to {what} notifications.",
                {
                    **_ok("201", _ref(kind), "Created."),
                    **_ok("303", None, "The same subscription exists."),
                },
                request,
                extra_errors=("422",),
            ),
        },
        f"{prefix}/subscriptions/{{subscriptionId}}": {
            "parameters": [_id_param("subscriptionId")],
            "get": _op(
                f"show{kind}",
                "Show a subscription.",
                _ok("200", _ref(kind), "The subscription."),
            ),
            "delete": _op(
                f"delete{kind}",
                "Delete a subscription.",
                _ok("204", None, "Deleted."),
            ),
        },
    }


def _pkgm_paths() -> dict[str, dict]:
    pkg = f"{PKGM}/vnf_packages/{{vnfPkgId}}"
    onb = f"{PKGM}/onboarded_vnf_packages/{{vnfdId}}"
    zip_or_text = {
        "description": "The content.",
        "content": {
            "application/zip": {"schema": {"type": "string"}},
            "text/plain": {"schema": {"type": "string"}},
            "application/octet-stream": {"schema": {"type": "string"}},
        },
    }
    paths: dict[str, dict] = {
        f"{PKGM}/vnf_packages": {
            "get": _op(
                "listVnfPackages",
                "List VNF packages.",
                _ok(
                    "200",
                    {"type": "array", "items": _ref("VnfPkgInfo")},
                    "The page.",
                ),
            ),
            "post": _op(
                "createVnfPackage",
                "Create a VNF package resource.",
                _ok("201", _ref("VnfPkgInfo"), "Created."),
                pkgm_schemas.CREATE_VNF_PKG_INFO_REQUEST,
            ),
        },
        pkg: {
            "parameters": [_id_param("vnfPkgId")],
            "get": _op(
                "showVnfPackage",
                "Show a VNF package.",
                _ok("200", _ref("VnfPkgInfo"), "The package."),
            ),
            "patch": _op(
                "modifyVnfPackage",
                "Enable/disable a package, change its user data.",
                _ok("200", OBJECT, "The modifications applied."),
                pkgm_schemas.VNF_PKG_INFO_MODIFICATIONS,
                media="application/merge-patch+json",
                extra_errors=("409",),
            ),
            "delete": _op(
                "deleteVnfPackage",
                "Delete a VNF package.",
                _ok("204", None, "Deleted."),
                extra_errors=("409",),
            ),
        },
        f"{pkg}/package_content": {
            "parameters": [_id_param("vnfPkgId")],
            "get": _op(
                "getVnfPackageContent",
                "Fetch the package archive.",
                {"200": zip_or_text},
                extra_errors=("409", "416"),
            ),
            "put": _op(
                "uploadVnfPackageContent",
                "Upload the package archive.",
                _ok("202", None, "Accepted; onboarding runs."),
                {"type": "string", "format": "binary"},
                media="application/zip",
                extra_errors=("409",),
            ),
        },
        f"{pkg}/package_content/upload_from_uri": {
            "parameters": [_id_param("vnfPkgId")],
            "post": _op(
                "uploadVnfPackageFromUri",
                "Have the package fetched from a URI.",
                _ok("202", None, "Accepted; download and onboarding run."),
                pkgm_schemas.UPLOAD_VNF_PKG_FROM_URI_REQUEST,
                extra_errors=("409",),
            ),
        },
        f"{pkg}/vnfd": {
            "parameters": [_id_param("vnfPkgId")],
            "get": _op(
                "getVnfd",
                "Fetch the VNFD.",
                {"200": zip_or_text},
                extra_errors=("409",),
            ),
        },
        onb: {
            "parameters": [_id_param("vnfdId")],
            "get": _op(
                "showOnboardedVnfPackage",
                "Show an onboarded package by vnfdId.",
                _ok("200", _ref("VnfPkgInfo"), "The package."),
            ),
        },
        f"{onb}/vnfd": {
            "parameters": [_id_param("vnfdId")],
            "get": _op(
                "getOnboardedVnfd",
                "Fetch the VNFD of an onboarded package.",
                {"200": zip_or_text},
            ),
        },
        f"{onb}/package_content": {
            "parameters": [_id_param("vnfdId")],
            "get": _op(
                "getOnboardedVnfPackageContent",
                "Fetch the archive of an onboarded package.",
                {"200": zip_or_text},
                extra_errors=("416",),
            ),
        },
    }
    paths.update(
        _subscription_paths(
            PKGM,
            "PkgmSubscription",
            pkgm_schemas.PKGM_SUBSCRIPTION_REQUEST,
            "VNF package",
        )
    )
    return _with_version(paths, "2.1.0")


def _rsv_paths() -> dict[str, dict]:
    lease = f"{RSV}/leases/{{leaseId}}"
    host = f"{RSV}/os-hosts/{{hostId}}"
    one_lease = _obj(["lease"], lease=_ref("Lease"))
    one_host = _obj(["host"], host=_ref("Host"))

    def rop(op_id, summary, responses, body=None, extra=()):
        return _op(
            op_id,
            summary,
            responses,
            body,
            extra_errors=("409", *extra),
            blazar=True,
        )

    return {
        "/reservation": {
            "get": rop(
                "reservationVersions",
                "The reservation API's versions (300).",
                _ok("300", OBJECT, "The versions."),
            )
        },
        RSV: {
            "get": rop(
                "reservationV1",
                "The reservation API v1.",
                _ok("200", OBJECT, "This version."),
            )
        },
        f"{RSV}/leases": {
            "get": rop(
                "listLeases",
                "List leases.",
                _ok(
                    "200",
                    _obj(
                        ["leases"],
                        leases={"type": "array", "items": _ref("Lease")},
                    ),
                    "The leases.",
                ),
            ),
            "post": rop(
                "createLease",
                "Create a lease.",
                _ok("201", one_lease, "Created."),
                _obj(["name", "reservations"], name={"type": "string"}),
            ),
        },
        lease: {
            "parameters": [_id_param("leaseId")],
            "get": rop(
                "showLease",
                "Show a lease.",
                _ok("200", one_lease, "The lease."),
            ),
            "put": rop(
                "updateLease",
                "Rename, move or resize a lease.",
                _ok("200", one_lease, "The lease."),
                OBJECT,
            ),
            "delete": rop(
                "deleteLease", "Delete a lease.", _ok("204", None, "Deleted.")
            ),
        },
        f"{RSV}/os-hosts": {
            "get": rop(
                "listHosts",
                "List the freepool's hosts.",
                _ok(
                    "200",
                    _obj(["hosts"], hosts={"type": "array", "items": OBJECT}),
                    "The hosts.",
                ),
            ),
            "post": rop(
                "createHost",
                "Add a Nova compute host to the freepool.",
                _ok("201", one_host, "Created."),
                _obj(["name"], name={"type": "string"}),
            ),
        },
        host: {
            "parameters": [_id_param("hostId")],
            "get": rop(
                "showHost", "Show a host.", _ok("200", one_host, "The host.")
            ),
            "put": rop(
                "updateHost",
                "Change a host's extra capabilities.",
                _ok("200", one_host, "The host."),
                OBJECT,
            ),
            "delete": rop(
                "deleteHost",
                "Remove a host from the freepool.",
                _ok("204", None, "Removed."),
            ),
        },
    }


def _admin_paths() -> dict[str, dict]:
    return {
        "/v1/ping": {
            "post": _op(
                "ping",
                "RPC round trip to any conductor (admin).",
                _ok("200", OBJECT, "Who answered and when."),
                ping.PING_SCHEMA,
            )
        },
        "/v1/conductors": {
            "get": _op(
                "listConductors",
                "The conductor fleet (admin).",
                _ok(
                    "200",
                    _obj(
                        ["conductors"],
                        conductors={
                            "type": "array",
                            "items": _ref("Conductor"),
                        },
                    ),
                    "The fleet.",
                ),
            )
        },
    }


def _version_paths() -> dict[str, dict]:
    paths: dict[str, dict] = {
        "/": {
            "get": _op(
                "listApis",
                "The APIs this server offers (no login).",
                _ok("200", OBJECT, "The APIs."),
            )
        }
    }
    for api in versions.SOL_APIS:
        for prefix in (f"/{api.name}", api.uri_prefix):
            paths[f"{prefix}/api_versions"] = {
                "get": _op(
                    f"apiVersions_{prefix.strip('/').replace('/', '_')}",
                    f"Supported versions of {api.name}.",
                    _ok(
                        "200",
                        _ref("ApiVersionInformation"),
                        "The versions.",
                    ),
                )
            }
    return paths


def build_document() -> dict[str, Any]:
    """The OpenAPI 3.0 document of every route the API serves."""
    paths = {
        **_version_paths(),
        **_lcm_paths(),
        **_pkgm_paths(),
        **_rsv_paths(),
        **_admin_paths(),
    }
    # They build on this module.
    from tacker_ng.api import (
        openapi_fm,
        openapi_grant,
        openapi_pm,
        openapi_snapshots,
    )

    paths.update(openapi_fm.paths())
    SCHEMAS.update(openapi_fm.SCHEMAS)
    paths.update(openapi_grant.paths())
    SCHEMAS.update(openapi_grant.SCHEMAS)
    paths.update(openapi_snapshots.paths())
    SCHEMAS.update(openapi_snapshots.SCHEMAS)
    paths.update(openapi_pm.paths())
    SCHEMAS.update(openapi_pm.SCHEMAS)
    return {
        "openapi": "3.0.3",
        "info": {
            "title": TITLE,
            "version": "1",
            "description": "Every route of the tacker-ng API: SOL003 VNF "
            "LCM (/vnflcm/v2, header Version 2.0.0), VNF packages "
            "(/vnfpkgm/v2, header Version 2.1.0; also served at "
            "/vnfpkgm/v1 without the header for python-tackerclient), "
            "VNF fault management (/vnffm/v1, header Version 1.3.0), "
            "VNF performance management (/vnfpm/v2, header Version "
            "2.1.0), "
            "the local NFVO's grants (/grant/v1, header Version 1.4.0), "
            "Blazar-compatible reservations "
            "(/reservation/v1) and the admin API (/v1). Errors are "
            "ProblemDetails (application/problem+json), Blazar's error "
            "body under /reservation.",
        },
        "paths": dict(sorted(paths.items())),
        "components": {
            "schemas": SCHEMAS,
            "securitySchemes": {
                "keystone": {
                    "type": "apiKey",
                    "in": "header",
                    "name": "X-Auth-Token",
                },
                "basic": {"type": "http", "scheme": "basic"},
            },
        },
        "security": [{"keystone": []}, {"basic": []}],
    }
