"""``[vnf_package]`` options and the limits built from them."""

from oslo_config import cfg

from tacker_ng import conf as tconf
from tacker_ng.conf import vnf_package
from tacker_ng.packages.limits import CsarLimits


def test_options_are_registered_with_help():
    assert "vnf_package" in tconf.SECTION_MODULES
    ((section, opts),) = vnf_package.list_opts()
    assert section == "vnf_package"
    assert all(opt.help for opt in opts)
    names = {opt.name for opt in opts}
    assert {
        "vnf_package_csar_path",
        "max_archive_size",
        "max_uncompressed_size",
        "max_members",
        "max_compression_ratio",
    } <= names


def test_limits_defaults_match_the_options():
    conf = cfg.ConfigOpts()
    conf.register_opt(cfg.StrOpt("state_path", default="/var/lib/x"))
    vnf_package.register_opts(conf)
    conf([])
    assert CsarLimits.from_conf(conf) == CsarLimits()
    assert conf.vnf_package.vnf_package_csar_path == "/var/lib/x/vnf_packages"


def test_limits_follow_the_config():
    conf = cfg.ConfigOpts()
    vnf_package.register_opts(conf)
    conf([])
    conf.set_override("max_members", 7, group="vnf_package")
    conf.set_override("require_manifest", True, group="vnf_package")
    limits = CsarLimits.from_conf(conf)
    assert limits.max_members == 7
    assert limits.require_manifest is True


def test_limits_from_global_conf():
    assert CsarLimits.from_conf().max_members == (
        tconf.CONF.vnf_package.max_members
    )
