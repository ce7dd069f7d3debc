"""Fixtures shared by the grant tests."""

import io

import pytest

from tacker_ng.packages import csar
from tacker_ng.tests import lcm_packages


@pytest.fixture(scope="module")
def vnfd(tmp_path_factory):
    """The VNFD of the LCM test package (no hooks)."""
    data = lcm_packages.build(hooks=False)
    dest = tmp_path_factory.mktemp("pkg") / "p"
    return csar.extract_csar(io.BytesIO(data), dest).vnfd
