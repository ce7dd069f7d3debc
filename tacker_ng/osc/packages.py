"""``openstack vnf package onboard``: a VNF package from a CSAR file or
a package directory, onboarded in one command.

python-tackerclient needs three steps (``vnf package create``,
``upload``, then polling ``show`` until the asynchronous onboarding
ends) and a zip file; this one builds the CSAR of a directory, uploads
it and waits, so that ``vnflcm create <vnfd-id>`` can follow at once.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import time
import zipfile
from pathlib import Path
from typing import Any

from osc_lib import exceptions
from osc_lib.command import command

COLUMNS = (
    "ID",
    "VNFD ID",
    "VNF Product Name",
    "Onboarding State",
    "Operational State",
    "Usage State",
)
FINAL = ("ONBOARDED", "ERROR")


def zip_directory(source: Path) -> bytes:
    """The files below ``source`` as a zip, paths relative to it (a
    manifest, if the package has one, must already hold their hashes;
    ``tools/build_csar.py`` rewrites them). Symbolic links are refused:
    the VNFM would refuse them too."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as csar:
        for dirpath, dirnames, filenames in os.walk(source):
            dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
            for name in sorted(filenames):
                full = Path(dirpath, name)
                if full.is_symlink() or not full.is_file():
                    raise exceptions.CommandError(
                        f"{full} is not a regular file"
                    )
                csar.write(full, full.relative_to(source).as_posix())
    return out.getvalue()


def csar_bytes(path: str) -> bytes:
    """A CSAR file's bytes, or the CSAR built from a package directory."""
    source = Path(path)
    if source.is_dir():
        return zip_directory(source)
    if source.is_file():
        return source.read_bytes()
    raise exceptions.CommandError(f"{path}: no such file or directory")


def _row(pkg: dict[str, Any]) -> tuple:
    return (
        pkg.get("id"),
        pkg.get("vnfdId"),
        pkg.get("vnfProductName"),
        pkg.get("onboardingState"),
        pkg.get("operationalState"),
        pkg.get("usageState"),
    )


class OnboardPackage(command.ShowOne):
    """Create a VNF package, upload a CSAR (or a package directory) and
    wait until it is ONBOARDED (exit code 1 if onboarding fails)."""

    def get_parser(self, prog_name: str) -> argparse.ArgumentParser:
        parser = super().get_parser(prog_name)
        parser.add_argument(
            "--path",
            metavar="<csar-or-directory>",
            required=True,
            help="CSAR zip file, or a package directory (TOSCA-Metadata/, "
            "Definitions/, ...) to build one from",
        )
        parser.add_argument(
            "--timeout",
            metavar="<seconds>",
            type=float,
            default=300.0,
            help="Give up after this many seconds (default 300)",
        )
        return parser

    def take_action(self, parsed_args: argparse.Namespace):
        tacker = self.app.client_manager.tacker_ng
        data = csar_bytes(parsed_args.path)
        pkg = tacker.create_package()
        tacker.upload_package(pkg["id"], data)
        deadline = time.monotonic() + parsed_args.timeout
        delay = 0.2
        while pkg.get("onboardingState") not in FINAL:
            if time.monotonic() > deadline:
                raise exceptions.CommandError(
                    f"VNF package {pkg['id']} was not onboarded within "
                    f"{parsed_args.timeout:.0f} s"
                )
            time.sleep(delay)
            delay = min(delay * 1.5, 2.0)
            pkg = tacker.package(pkg["id"])
        if pkg["onboardingState"] == "ERROR":
            details = pkg.get("onboardingFailureDetails") or {}
            stderr = self.app.stderr or sys.stderr
            stderr.write(
                f"Onboarding failed: {details.get('detail', details)}\n"
            )
            self.failed = True
        return COLUMNS, _row(pkg)

    failed = False

    def run(self, parsed_args: argparse.Namespace) -> int:
        result = super().run(parsed_args)
        return 1 if self.failed else result
