"""Malformed VNFDs never crash the parser: only InvalidVnfd or success.

Values in the sample VNFDs are replaced, one at a time, by values of the
wrong shape; whatever the result, the conductor must get a precise
InvalidVnfd, never a KeyError/TypeError that would end as a 500. Every
fourth value is tried (with a rotating replacement) to keep the test fast.
"""

import copy as copy_module
import shutil

import pytest
import yaml

from tacker_ng.packages.exceptions import InvalidVnfd
from tacker_ng.packages.vnfd.parser import load_vnfd
from tacker_ng.tests.unit.packages import helpers

WEIRD = [None, 7, "x", [], {}, ["x"], {"x": 1}, True]
STRIDE = 4
_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

TARGETS = [
    (
        "heat_vdu_affinity",
        "Definitions/heat_vdu_affinity_top.vnfd.yaml",
        "Definitions/heat_vdu_affinity_df_internal_vl.yaml",
    ),
    (
        "k8s_cluster",
        "Definitions/k8s_cluster_top.vnfd.yaml",
        "Definitions/k8s_cluster_df_cluster_install.yaml",
    ),
    (
        "k8s_cluster",
        "Definitions/k8s_cluster_top.vnfd.yaml",
        "Definitions/k8s_cluster_types.yaml",
    ),
    (
        "cnf_deployment",
        "Definitions/cnf_deployment.vnfd.yaml",
        "Definitions/cnf_deployment.vnfd.yaml",
    ),
]


def paths(data, prefix=()):
    """Every (path) to a value in a nested YAML structure."""
    yield prefix
    if isinstance(data, dict):
        for key, value in data.items():
            yield from paths(value, (*prefix, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from paths(value, (*prefix, index))


def replaced(data, path, value):
    if not path:
        return value
    copy = copy_module.deepcopy(data)
    target = copy
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return copy


@pytest.mark.parametrize(("sample", "entry", "target"), TARGETS)
def test_no_crash_on_malformed_values(tmp_path, sample, entry, target):
    root = tmp_path / "pkg"
    shutil.copytree(helpers.SAMPLES / sample, root)
    original = yaml.safe_load((root / target).read_text())
    tried = refused = 0
    for number, path in enumerate(list(paths(original))[::STRIDE]):
        weird = WEIRD[number % len(WEIRD)]
        (root / target).write_text(
            yaml.dump(replaced(original, path, weird), Dumper=_DUMPER)
        )
        tried += 1
        try:
            load_vnfd(root, entry)
        except InvalidVnfd:
            refused += 1
    assert tried > 10
    assert refused > tried // 4
