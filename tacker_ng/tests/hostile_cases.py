"""Hostile requests and what each must get: shared by the unit tests
(SQLite, in process) and the functional tests (MariaDB and PostgreSQL,
real API processes), so the three engines are held to one answer."""

import dataclasses

INSTANCES = "/vnflcm/v2/vnf_instances"


@dataclasses.dataclass(frozen=True)
class Case:
    name: str
    method: str
    path: str
    body: bytes | None
    status: int
    detail: str
    content_type: str = "application/json"


def _deep_arrays(n: int) -> bytes:
    return b"[" * n + b"]" * n


def _deep_params(n: int) -> bytes:
    inner = b'{"a":' * n + b"1" + b"}" * n
    return b'{"flavourId":"simple","additionalParams":' + inner + b"}"


def _create(name: bytes) -> bytes:
    return b'{"vnfdId":"x","vnfInstanceName":"' + name + b'"}'


CASES = [
    Case(
        "nested-objects-5000",
        "POST",
        INSTANCES,
        b'{"a":' * 5000 + b"1" + b"}" * 5000,
        400,
        "nests deeper than",
    ),
    Case(
        "nested-arrays-5000",
        "POST",
        INSTANCES,
        _deep_arrays(5000),
        400,
        "nests deeper than",
    ),
    Case(
        "additional-params-950-deep",
        "POST",
        INSTANCES + "/00000000-0000-0000-0000-000000000000/instantiate",
        _deep_params(950),
        400,
        "nests deeper than",
    ),
    Case(
        "wide",
        "POST",
        INSTANCES,
        b'{"vnfdId":"x","metadata":{"a":[' + b"1," * 30000 + b"1]}}",
        400,
        "more than",
    ),
    Case(
        "huge-string",
        "POST",
        INSTANCES,
        _create(b"n" * 70000),
        400,
        "longer than",
    ),
    Case("nul", "POST", INSTANCES, _create(b"a\\u0000b"), 400, "control"),
    Case("raw-nul", "POST", INSTANCES, _create(b"a\x00b"), 400, "JSON"),
    Case("bell", "POST", INSTANCES, _create(b"a\\u0007b"), 400, "control"),
    Case(
        "escape-in-key",
        "POST",
        INSTANCES,
        b'{"vnfdId":"x","metadata":{"a\\u001bb":1}}',
        400,
        "control",
    ),
    Case(
        "lone-surrogate", "POST", INSTANCES, _create(b"\\ud800"), 400, "lone"
    ),
    Case(
        "not-utf8-body", "POST", INSTANCES, _create(b"\xff\xfe"), 400, "UTF-8"
    ),
    Case("nan", "POST", INSTANCES, b'{"vnfdId":NaN}', 400, "JSON"),
    Case(
        "merge-patch-nul",
        "PATCH",
        INSTANCES + "/00000000-0000-0000-0000-000000000000",
        b'{"vnfInstanceName":"a\\u0000"}',
        400,
        "control",
        "application/merge-patch+json",
    ),
    Case("not-utf8-path", "GET", INSTANCES + "/%FF%FE", None, 400, "path"),
    Case("nul-in-path", "GET", INSTANCES + "/a%00b", None, 400, "path"),
    Case(
        "nul-in-filter",
        "GET",
        INSTANCES + "?filter=(eq,vnfInstanceName,a%00b)",
        None,
        400,
        "query string",
    ),
    Case(
        "not-utf8-query",
        "GET",
        INSTANCES + "?filter=(eq,vnfInstanceName,%FF)",
        None,
        400,
        "query string",
    ),
    Case(
        "not-utf8-path-packages",
        "GET",
        "/vnfpkgm/v1/vnf_packages/%C3%28",
        None,
        400,
        "path",
    ),
    Case(
        "not-utf8-path-leases",
        "GET",
        "/reservation/v1/leases/%FF",
        None,
        400,
        "path",
    ),
]

#: Free text that every engine stores and returns unchanged.
ACCEPTED_NAME = "tab\there\nnew line\r\u00e9\u4e2d\U0001f600"
