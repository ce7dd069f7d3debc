"""Property-based API testing (schemathesis) on MariaDB and PostgreSQL.

Two bounded runs (fixed seed) against a real API + conductor on each
database: one from tacker-ng's own OpenAPI document (every route it
serves), one from the official ETSI SOL003 v3.3.1 LCM document. Checks:
no response >= 500, status codes, content types and bodies as the
document says.

Left out, and why: ``POST /reservation/v1/os-hosts`` needs a Nova to
register the host in (this deployment has none, so it answers 503 by
design; the reservation tests run it on minicloud); ``PUT
.../package_content`` takes a zip archive, which schemathesis cannot
generate (hostile archives have their own tests); the ``stateful`` phase
(it needs links the documents do not declare).
"""

import json
import pathlib
import subprocess
import sys

import pytest

from tacker_ng.api import openapi
from tacker_ng.tests.functional import lcm_fixtures, sol003_schemas

SEED = 20261124
CHECKS = ",".join(
    [
        "not_a_server_error",
        "status_code_conformance",
        "content_type_conformance",
        "response_schema_conformance",
    ]
)
ST = pathlib.Path(sys.executable).parent / "st"

pytestmark = pytest.mark.timeout(900)


@pytest.fixture(scope="module", params=["mariadb", "postgresql"])
def dep(request, tmp_path_factory):
    tmp = tmp_path_factory.mktemp(f"fuzz-{request.param}")
    with lcm_fixtures.lcm_deployment(
        tmp, request.param, conductors=("cond-a",)
    ) as deployment:
        deployment.tmp = tmp
        yield deployment


def _run(dep, document: dict, name: str, url: str, *extra: str) -> dict:
    if not ST.exists():
        pytest.fail(f"schemathesis is not installed ({ST})")
    doc = dep.tmp / f"{name}.json"
    doc.write_text(json.dumps(document))
    report = dep.tmp / f"{name}-report.json"
    user, password = "operator", "op-pass"
    done = subprocess.run(
        [
            str(ST),
            "run",
            str(doc),
            "--url",
            url,
            "--auth",
            f"{user}:{password}",
            "--checks",
            CHECKS,
            "--seed",
            str(SEED),
            "--max-examples",
            "10",
            "--phases",
            "examples,coverage,fuzzing",
            # One worker: hypothesis's lambda-description cache races
            # between schemathesis's worker threads ("Inconsistent
            # results" errors in the coverage phase, one run in three).
            "--workers",
            "1",
            # Hypothesis's "data generation is too slow" judges the
            # fuzzer's own speed (the ETSI schemas' regexes on a loaded
            # machine), not the API: it failed one run in three on 2
            # busy cores. Every check on the API's answers still runs.
            "--suppress-health-check",
            "too_slow",
            "--no-color",
            "--report",
            "json",
            "--report-json-path",
            str(report),
            *extra,
        ],
        capture_output=True,
        text=True,
        timeout=840,
        check=False,
    )
    (dep.tmp / f"{name}-output.txt").write_text(done.stdout + done.stderr)
    summary = done.stdout[-8000:]
    assert done.returncode == 0, summary + done.stderr[-2000:]
    return {"stdout": summary, "report": report}


def test_own_document(dep):
    """Every route tacker-ng serves, as its own document describes it."""
    got = _run(
        dep,
        openapi.build_document(),
        "own",
        dep.url,
        "--exclude-operation-id",
        "createHost",
        "--exclude-operation-id",
        "uploadVnfPackageContent",
    )
    assert "generated" in got["stdout"]


def test_official_sol003_lcm_document(dep):
    """The ETSI document's LCM paths; the ones tacker-ng does not serve
    yet answer 404, which the document allows."""
    got = _run(
        dep,
        sol003_schemas.fuzzing_document(f"{dep.url}/vnflcm/v2"),
        "sol003",
        f"{dep.url}/vnflcm/v2",
        "--header",
        "Version: 2.0.0",
    )
    assert "generated" in got["stdout"]
