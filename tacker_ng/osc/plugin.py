"""The ``openstack`` CLI plugin interface of tacker-ng.

python-openstackclient loads this module through the
``openstack.cli.extension`` entry point; it names the plugin's API, its
global option and how to build the client from the shell's Keystone
session. The commands live in ``openstack.tacker_ng.v1`` entry points.
"""

import argparse
from typing import Any

from osc_lib import utils

from tacker_ng.osc import client

API_NAME = "tacker_ng"
API_VERSION_OPTION = "os_tacker_ng_api_version"
DEFAULT_API_VERSION = "1"
API_VERSIONS = {"1": "tacker_ng.osc.client.Client"}


def make_client(instance: Any) -> client.Client:
    """Build the client from the shell's ClientManager.

    The endpoint comes, like the other OpenStack clients do it, from
    ``--os-endpoint`` (http_basic, none) or an endpoint override, else
    from the Keystone catalog entry of type ``nfv-orchestration``.
    """
    endpoint = instance.get_endpoint_for_service_type(
        client.SERVICE_TYPE,
        region_name=instance.region_name,
        interface=instance.interface,
    )
    return client.Client(
        instance.session,
        endpoint=endpoint,
        region_name=instance.region_name,
        interface=instance.interface,
    )


def build_option_parser(
    parser: argparse.ArgumentParser,
) -> argparse.ArgumentParser:
    """Add the plugin's global option (its API version)."""
    parser.add_argument(
        "--os-tacker-ng-api-version",
        metavar="<tacker-ng-api-version>",
        default=utils.env(
            "OS_TACKER_NG_API_VERSION", default=DEFAULT_API_VERSION
        ),
        help="tacker-ng CLI plugin API version, default="
        f"{DEFAULT_API_VERSION} (Env: OS_TACKER_NG_API_VERSION)",
    )
    return parser
