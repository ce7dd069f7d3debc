#!/usr/bin/env python3
"""Build a VNF package (CSAR zip) from a sample directory.

Usage: tools/build_csar.py <sample dir> <out.zip> [--algorithm SHA-512]

The manifest named by TOSCA.meta (ETSI-Entry-Manifest) or the single .mf
at the root gets a Source/Algorithm/Hash block for every other file. With
--check, the built archive is also onboarded into a temporary directory
with the same checks the conductor runs.
"""

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _reexec_in_project_venv() -> None:
    """Run again with the project's virtualenv (``.venv`` of
    tools/run-embedded.sh, else tox's) when this python lacks tacker-ng's
    dependencies, e.g. the system python a newcomer's PATH finds first."""
    for venv in (ROOT / ".venv", ROOT / ".tox" / "py3"):
        python = venv / "bin" / "python"
        if python.exists() and Path(sys.prefix).resolve() != venv.resolve():
            os.execv(str(python), [str(python), __file__, *sys.argv[1:]])
    sys.exit(
        "tools/build_csar.py needs tacker-ng's dependencies: run "
        "tools/run-embedded.sh once (it installs .venv) or use the "
        "virtualenv tacker-ng is installed in."
    )


try:
    import oslo_config  # noqa: F401
except ModuleNotFoundError:
    _reexec_in_project_venv()

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
