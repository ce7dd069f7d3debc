"""The layer contracts (.importlinter) hold, and catch an upward import."""

import pathlib
import shutil
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]
LINT = pathlib.Path(sys.executable).parent / "lint-imports"


def _copy_tree(dst: pathlib.Path) -> pathlib.Path:
    """The product's modules (no tests) and the contracts, under ``dst``."""
    shutil.copytree(
        REPO / "tacker_ng",
        dst / "tacker_ng",
        ignore=shutil.ignore_patterns("tests", "__pycache__", "*.yaml"),
    )
    shutil.copy(REPO / ".importlinter", dst / ".importlinter")
    return dst


def _lint(root: pathlib.Path) -> subprocess.CompletedProcess:
    if not LINT.exists():
        pytest.fail(f"import-linter is not installed ({LINT})")
    return subprocess.run(
        [str(LINT), "--no-logo", "--no-cache"],
        cwd=root,
        env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_contracts_hold_and_an_upward_import_breaks_them(tmp_path):
    root = _copy_tree(tmp_path)
    kept = _lint(root)
    assert kept.returncode == 0, kept.stdout + kept.stderr
    assert "3 kept, 0 broken" in kept.stdout
    # db (a low layer) reaching up into the API: refused.
    models = root / "tacker_ng" / "db" / "models.py"
    models.write_text(
        models.read_text() + "\nfrom tacker_ng.api import app  # noqa\n"
    )
    broken = _lint(root)
    assert broken.returncode != 0
    assert (
        "Layers: a module imports only from its own layer or below "
        "BROKEN" in broken.stdout
    )
    assert "tacker_ng.db.models -> tacker_ng.api.app" in broken.stdout
