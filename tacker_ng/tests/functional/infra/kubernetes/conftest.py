"""Per module and SQL backend: a deployment with the CNF sample onboarded."""

import pytest

from tacker_ng.tests.functional.infra.kubernetes import cnf


@pytest.fixture(scope="module", params=["mariadb", "postgresql"])
def nfvo(request, tmp_path_factory):
    """(deployment, SOL003 client, vnfdId of the cnf_deployment sample)."""
    tmp = tmp_path_factory.mktemp(f"cnf-{request.param}")
    with cnf.nfvo(request.param, tmp) as got:
        yield got
