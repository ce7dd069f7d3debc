#!/usr/bin/env python3
"""Build a VNF package (CSAR zip) from a sample directory.

Usage: tools/build_csar.py <sample dir> <out.zip> [--algorithm SHA-512]

The manifest named by TOSCA.meta (ETSI-Entry-Manifest) or the single .mf
at the root gets a Source/Algorithm/Hash block for every other file. With
--check, the built archive is also onboarded into a temporary directory
with the same checks the conductor runs.
"""

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tacker_ng.packages import InvalidPackage, InvalidVnfd  # noqa: E402
from tacker_ng.packages.builder import build_csar  # noqa: E402
from tacker_ng.packages.csar import extract_csar  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    """Build the CSAR; with --check also extract and parse it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sample_dir", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument(
        "--algorithm", default="SHA-256", choices=["SHA-256", "SHA-512"]
    )
    parser.add_argument(
        "--check", action="store_true", help="onboard the result to verify it"
    )
    args = parser.parse_args(argv)
    out = build_csar(args.sample_dir, args.out, args.algorithm)
    print(f"wrote {out} ({out.stat().st_size} bytes)")
    if args.check:
        with tempfile.TemporaryDirectory() as tmp:
            try:
                contents = extract_csar(out, Path(tmp) / "pkg")
            except (InvalidPackage, InvalidVnfd) as exc:
                print(f"package refused: {exc.detail}", file=sys.stderr)
                return 1
            vnfd = contents.vnfd
            print(
                f"ok: vnfdId {vnfd.descriptor_id}, flavours "
                f"{', '.join(sorted(vnfd.flavours))}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
