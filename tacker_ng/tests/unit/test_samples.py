"""The committed config and policy samples match the code."""

import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]

GENERATORS = [
    (
        "oslo_config.generator",
        "etc/tacker_ng/tacker-config-generator.conf",
        "etc/tacker_ng/tacker.conf.sample",
        "tox -e genconfig",
    ),
    (
        "oslo_policy.generator",
        "etc/tacker_ng/tacker-policy-generator.conf",
        "etc/tacker_ng/policy.yaml.sample",
        "tox -e genpolicy",
    ),
]


@pytest.mark.parametrize("module,config,sample,fix", GENERATORS)
def test_sample_is_current(tmp_path, module, config, sample, fix):
    out = tmp_path / "sample"
    code = (
        f"import sys; sys.argv = ['gen', '--config-file', {config!r}, "
        f"'--output-file', {str(out)!r}]; "
        + (
            "from oslo_config import generator; generator.main()"
            if module == "oslo_config.generator"
            else "from oslo_policy import generator; "
            "generator.generate_sample()"
        )
    )
    subprocess.run(
        [sys.executable, "-W", "ignore", "-c", code], cwd=ROOT, check=True
    )
    committed = (ROOT / sample).read_text()
    assert out.read_text() == committed, f"{sample} is stale: run '{fix}'"
