"""[placement] options: defaults, OpenStack Tacker's [v2_vnfm] aliases,
and the generated sample that documents both."""

from pathlib import Path

from oslo_config import cfg

from tacker_ng.conf import openstack as openstack_conf
from tacker_ng.conf import placement as placement_conf
from tacker_ng.placement import az_errors

ROOT = Path(__file__).resolve().parents[4]
SAMPLE = ROOT / "etc" / "tacker_ng" / "tacker.conf.sample"


def _conf(tmp_path, text: str) -> cfg.ConfigOpts:
    path = tmp_path / "tacker.conf"
    path.write_text(text)
    conf = cfg.ConfigOpts()
    placement_conf.register_opts(conf)
    openstack_conf.register_opts(conf)
    conf(["--config-file", str(path)], project="t")
    return conf


def test_defaults(tmp_path):
    conf = _conf(tmp_path, "")
    assert conf.placement.fallback_best_effort is False
    assert conf.placement.az_select_retry == 0
    assert az_errors.is_capacity_error(
        "No valid host was found. ", conf.placement.az_resource_error_regex
    )
    assert conf.openstack.zone_choice_seed is None


def test_tacker_v2_vnfm_names_still_work(tmp_path):
    conf = _conf(
        tmp_path,
        "[v2_vnfm]\n"
        "placement_fallback_best_effort = true\n"
        "placement_az_select_retry = 3\n"
        "placement_az_resource_error = Resource CREATE failed:(.*)\n",
    )
    assert conf.placement.fallback_best_effort is True
    assert conf.placement.az_select_retry == 3
    assert conf.placement.az_resource_error_regex == (
        "Resource CREATE failed:(.*)"
    )


def test_new_names_win_over_aliases(tmp_path):
    conf = _conf(
        tmp_path,
        "[v2_vnfm]\nplacement_az_select_retry = 3\n"
        "[placement]\naz_select_retry = 1\n",
    )
    assert conf.placement.az_select_retry == 1


def test_sample_documents_options_and_aliases():
    text = SAMPLE.read_text()
    section = text[text.index("[placement]") :]
    section = section[: section.index("\n[", 1)]
    for name, alias in (
        ("fallback_best_effort", "placement_fallback_best_effort"),
        ("az_resource_error_regex", "placement_az_resource_error"),
        ("az_select_retry", "placement_az_select_retry"),
    ):
        assert f"#{name} = " in section
        assert f"# Deprecated group/name - [v2_vnfm]/{alias}" in section
    assert "[openstack]" in text
    assert "#stack_timeout = 1800" in text
