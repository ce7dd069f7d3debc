"""A newcomer's clients, set up as for Tacker and Blazar, are told what to
change by the answer they print.

python-tackerclient calls ``/vnflcm/v1`` unless given API version 2;
python-blazarclient given the endpoint the other plugins use calls
``/leases`` on the API root. Both used to print a bare "not found" (or a
raw dict); now the real ``openstack`` command shows the option to set,
and with it set the same command works.
"""

import pytest

from tacker_ng.tests.functional import deployment, services
from tacker_ng.tests.functional.osc.cli import Cli


@pytest.fixture(scope="module")
def dep(tmp_path_factory):
    """The API and one conductor: no VNF is needed to be misdirected."""
    tmp = tmp_path_factory.mktemp("misdirected")
    with (
        services.scratch_database("mariadb") as sql_url,
        deployment.deploy(
            tmp, sql_url, conductors=("cond-m",), api_workers=1
        ) as deployed,
    ):
        yield deployed


@pytest.fixture(scope="module")
def cli(dep):
    return Cli(dep.url, "operator", "op-pass")


def _last_line(done) -> str:
    return done.stderr.strip().splitlines()[-1]


@pytest.mark.parametrize(
    "args",
    [
        ("vnflcm", "list"),
        ("vnflcm", "create", "9b2a7f0e-0000-4000-8000-000000000001"),
        ("vnflcm", "op", "list"),
    ],
)
def test_tackerclient_without_api_version_2_names_it(cli, args):
    done = cli.run(*args, check=False)
    assert done.returncode == 1
    said = _last_line(done)
    assert said.startswith("tacker-ng serves VNF lifecycle management")
    assert "--os-tacker-api-version 2" in said
    assert "OS_TACKER_API_VERSION=2" in said
    assert "Traceback" not in done.stderr


def test_tackerclient_with_the_variable_it_names(cli):
    done = cli.run(
        "vnflcm", "list", "-f", "json", env={"OS_TACKER_API_VERSION": "2"}
    )
    assert done.stdout.strip() == "[]"


def test_blazarclient_at_the_api_root_is_told_the_endpoint(dep, cli):
    endpoint = f"{dep.url}/reservation/v1"
    for args in (("lease", "list"), ("host", "list")):
        done = cli.run("reservation", *args, check=False)
        assert done.returncode == 1
        said = _last_line(done)
        assert said.startswith(
            f"ERROR: tacker-ng's reservation API is at {endpoint}, not at /"
        )
        assert f"OS_RESERVATION_ENDPOINT_OVERRIDE={endpoint}" in said
        assert "{'status': 404" not in done.stderr
    # What it says works, beside the API root the other plugins use.
    env = {"OS_RESERVATION_ENDPOINT_OVERRIDE": endpoint}
    leases = cli.run("reservation", "lease", "list", "-f", "json", env=env)
    assert leases.stdout.strip() == "[]"
    cli.run("tacker-ng", "conductor", "list", env=env)
