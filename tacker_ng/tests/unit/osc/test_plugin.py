"""The plugin as python-openstackclient loads it, beside the others.

python-tackerclient and python-blazarclient must keep working in the
same virtualenv: no command name of ours may be one they (or OSC itself)
register, and the plugin's API name and global option must be its own.
"""

import argparse
import importlib
import types
from importlib import metadata

import pytest

from tacker_ng.osc import client, plugin

GROUP = "openstack.tacker_ng.v1"
EXPECTED = {
    "vnflcm scale-to-level",
    "vnflcm change-flavour",
    "vnflcm op wait",
    "vnf package onboard",
    "vnflcm placement show",
    "vnflcm observed show",
    "tacker-ng conductor list",
    "vnflcm snapshot create",
    "vnflcm snapshot list",
    "vnflcm snapshot show",
    "vnflcm snapshot delete",
    "vnflcm snapshot revert",
    "vnfpm report list",
}


def _commands(group: str) -> set[str]:
    return {
        ep.name.replace("_", " ") for ep in metadata.entry_points(group=group)
    }


def _other_groups() -> set[str]:
    groups = {
        ep.group
        for dist in metadata.distributions()
        for ep in dist.entry_points
        if ep.group.startswith("openstack.")
    }
    return groups - {GROUP, "openstack.cli.extension"}


def test_our_commands_are_registered():
    assert _commands(GROUP) == EXPECTED


def test_no_command_name_clashes_with_installed_clients():
    others = _other_groups()
    # The clients this must live beside are installed (test-requirements).
    assert {
        "openstack.tackerclient.v1",
        "openstack.tackerclient.v2",
        "openstack.reservation.v1",
        "openstack.compute.v2",
    } <= others
    for group in others:
        assert not EXPECTED & _commands(group), group


def test_three_plugins_load_with_distinct_names_and_options():
    plugins = {
        ep.name: ep.load()
        for ep in metadata.entry_points(group="openstack.cli.extension")
    }
    assert plugins["tacker_ng"] is plugin
    mods = [plugins[n] for n in ("tacker_ng", "tackerclient", "reservation")]
    assert len({m.API_NAME for m in mods}) == 3
    assert len({m.API_VERSION_OPTION for m in mods}) == 3
    parser = argparse.ArgumentParser()
    for mod in mods:
        mod.build_option_parser(parser)  # argparse raises on a clash
    assert parser.parse_args([]).os_tacker_ng_api_version == "1"


def test_api_versions_name_the_client_class():
    for path in plugin.API_VERSIONS.values():
        module, _, name = path.rpartition(".")
        assert getattr(importlib.import_module(module), name) is (
            client.Client
        )


@pytest.mark.parametrize("ep", metadata.entry_points(group=GROUP))
def test_every_command_has_help_text(ep):
    cls = ep.load()
    app = types.SimpleNamespace(options=None)
    parser = cls(app, None).get_parser(f"openstack {ep.name}")
    text = parser.format_help()
    assert parser.description and len(parser.description) > 20, ep.name
    assert "usage:" in text


def test_make_client_uses_the_shells_endpoint_and_session():
    seen = {}

    class Manager:
        session = object()
        region_name = "RegionOne"
        interface = "public"

        def get_endpoint_for_service_type(self, service_type, **kw):
            seen.update(kw, service_type=service_type)
            return "http://tacker.example:9890/"

    made = plugin.make_client(Manager())
    assert seen == {
        "service_type": "nfv-orchestration",
        "region_name": "RegionOne",
        "interface": "public",
    }
    assert made.http.endpoint_override == "http://tacker.example:9890"
    assert made.http.service_type == "nfv-orchestration"


def test_without_an_endpoint_the_catalog_decides():
    made = client.Client(object(), endpoint=None, interface="internal")
    assert made.http.endpoint_override is None
    assert made.http.interface == "internal"


def test_the_plugin_imports_nothing_of_the_service():
    """A client: installed beside OSC, it needs none of the server."""
    import ast
    import pathlib

    root = pathlib.Path(plugin.__file__).parent
    imported = set()
    for path in root.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                imported |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module)
    ours = {name for name in imported if name.startswith("tacker_ng")}
    assert ours and all(n.startswith("tacker_ng.osc") for n in ours), ours
    assert not {"oslo_config", "sqlalchemy", "pecan"} & {
        n.split(".")[0] for n in imported
    }
