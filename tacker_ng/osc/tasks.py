"""``openstack vnflcm scale-to-level`` and ``vnflcm change-flavour``.

python-tackerclient has no command for these two SOL003 tasks
(ScaleVnfToLevelRequest, ChangeVnfFlavourRequest). Each prints the new op
occ (so ``-f value -c id`` feeds ``vnflcm op wait``) or, with ``--wait``,
follows it to its end.
"""

import argparse
import json
from pathlib import Path
from typing import Any

from osc_lib import exceptions

from tacker_ng.osc import op_wait, views


def key_value(text: str) -> tuple[str, str]:
    """argparse type of ``KEY=VALUE``."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    return key, value


def scale_level(text: str) -> dict[str, Any]:
    """argparse type of ``ASPECT=LEVEL`` (a ScaleInfo)."""
    aspect, level = key_value(text)
    try:
        number = int(level)
    except ValueError:
        number = -1
    if number < 0:
        raise argparse.ArgumentTypeError(
            f"scale level of {aspect!r} must be an integer >= 0, got {level!r}"
        )
    return {"aspectId": aspect, "scaleLevel": number}


def read_request_file(path: str | None) -> dict[str, Any]:
    """The JSON object of ``--request-file`` ({} when not given)."""
    if not path:
        return {}
    try:
        body = json.loads(Path(path).read_text())
    except (OSError, ValueError) as exc:
        raise exceptions.CommandError(
            f"Cannot read request file {path}: {exc}"
        ) from exc
    if not isinstance(body, dict):
        raise exceptions.CommandError(
            f"Request file {path} must hold a JSON object."
        )
    return body


def _additional(body: dict[str, Any], pairs: list | None) -> None:
    if pairs:
        body.setdefault("additionalParams", {}).update(dict(pairs))


def scale_to_level_body(args: argparse.Namespace) -> dict[str, Any]:
    """ScaleVnfToLevelRequest (SOL003 5.5.2.6) from the options."""
    body = read_request_file(args.request_file)
    if args.instantiation_level_id:
        body["instantiationLevelId"] = args.instantiation_level_id
    if args.scale_level:
        body["scaleInfo"] = list(args.scale_level)
    _additional(body, args.additional_param)
    if ("instantiationLevelId" in body) == ("scaleInfo" in body):
        raise exceptions.CommandError(
            "Give either --instantiation-level-id or --scale-level "
            "(one of the two, not both)."
        )
    return body


def change_flavour_body(args: argparse.Namespace) -> dict[str, Any]:
    """ChangeVnfFlavourRequest (SOL003 5.5.2.7) from the options."""
    body = read_request_file(args.request_file)
    if args.flavour_id:
        body["newFlavourId"] = args.flavour_id
    if args.instantiation_level_id:
        body["instantiationLevelId"] = args.instantiation_level_id
    _additional(body, args.additional_param)
    if not body.get("newFlavourId"):
        raise exceptions.CommandError(
            "--flavour-id (or newFlavourId in --request-file) is required."
        )
    return body


class _Task(op_wait.WaitCommand):
    """Start one LCM task; print its op occ or wait for it."""

    task = ""

    def get_parser(self, prog_name: str) -> argparse.ArgumentParser:
        parser = super().get_parser(prog_name)
        parser.add_argument(
            "vnf_instance", metavar="<vnf-instance>", help="VNF instance ID"
        )
        parser.add_argument(
            "--instantiation-level-id",
            metavar="<level-id>",
            help="Target instantiation level of the VNFD",
        )
        parser.add_argument(
            "--additional-param",
            metavar="<key=value>",
            type=key_value,
            action="append",
            help="additionalParams entry (repeat for several)",
        )
        parser.add_argument(
            "--request-file",
            metavar="<file>",
            help="JSON file with the request body; options override it",
        )
        parser.add_argument(
            "--wait",
            action="store_true",
            help="Wait until the operation ends; exit code 1 unless it is "
            "COMPLETED",
        )
        op_wait.add_wait_options(parser)
        return parser

    def body(self, parsed_args: argparse.Namespace) -> dict[str, Any]:
        raise NotImplementedError

    def take_action(
        self, parsed_args: argparse.Namespace
    ) -> tuple[tuple[str, ...], tuple]:
        body = self.body(parsed_args)
        tacker = self.app.client_manager.tacker_ng
        occ_id = tacker.start_task(parsed_args.vnf_instance, self.task, body)
        if parsed_args.wait:
            return self.follow(occ_id, parsed_args)
        return views.occ_summary(tacker.op_occ(occ_id))


class ScaleVnfToLevel(_Task):
    """Scale a VNF instance to an instantiation level or to scale levels.

    Sends a ScaleVnfToLevelRequest: either --instantiation-level-id, or
    one --scale-level ASPECT=LEVEL per aspect.
    """

    task = "scale_to_level"

    def get_parser(self, prog_name: str) -> argparse.ArgumentParser:
        parser = super().get_parser(prog_name)
        parser.add_argument(
            "--scale-level",
            metavar="<aspect=level>",
            type=scale_level,
            action="append",
            help="Target scale level of an aspect (repeat per aspect)",
        )
        return parser

    def body(self, parsed_args: argparse.Namespace) -> dict[str, Any]:
        return scale_to_level_body(parsed_args)


class ChangeVnfFlavour(_Task):
    """Change the deployment flavour of a VNF instance.

    Sends a ChangeVnfFlavourRequest with --flavour-id (and optionally the
    instantiation level); other fields (extVirtualLinks,
    vimConnectionInfo, ...) come from --request-file.
    """

    task = "change_flavour"

    def get_parser(self, prog_name: str) -> argparse.ArgumentParser:
        parser = super().get_parser(prog_name)
        parser.add_argument(
            "--flavour-id",
            metavar="<flavour-id>",
            help="New deployment flavour (newFlavourId)",
        )
        return parser

    def body(self, parsed_args: argparse.Namespace) -> dict[str, Any]:
        return change_flavour_body(parsed_args)
