"""The sample package (heat_vdu_affinity), onboarded once per session."""

import io

import pytest

from tacker_ng.packages import csar
from tacker_ng.tests import lcm_packages


@pytest.fixture(scope="session")
def sample(tmp_path_factory):
    """CsarContents of the sample (its own VNFD, no hooks)."""
    data = lcm_packages.build(hooks=False)
    dest = tmp_path_factory.mktemp("sample") / "pkg"
    return csar.extract_csar(io.BytesIO(data), dest)


@pytest.fixture
def simple(sample):
    return sample.vnfd.flavour("simple")
