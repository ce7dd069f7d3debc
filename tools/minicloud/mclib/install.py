"""Install minicloud's own virtualenv, once per pinned requirement set.

The marker file holds a hash of everything that decides what gets
installed, so a second run with the same inputs installs nothing.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from mclib import MiniCloudError, clean_env, paths

REQUIREMENTS = paths.TOOL_DIR / "requirements.txt"
CONSTRAINTS = paths.TOOL_DIR / "upper-constraints-2026.1.txt"
PLUGIN = paths.TOOL_DIR / "anyhost"
MARKER = paths.VENV / ".minicloud-requirements.sha256"
PIP_LOG = paths.LOGS / "pip-install.log"
INSTALL_TIMEOUT = 1200


def requirement_hash() -> str:
    """Hash of the pinned requirement set (requirements, constraints,
    plugin source, interpreter version)."""
    h = hashlib.sha256()
    h.update(sys.version.encode())
    # The plugin's own sources only: pip leaves build/ and *.egg-info in
    # the checkout, and counting them made every new checkout (CI's)
    # reinstall a venv that was current.
    sources = sorted((PLUGIN / "mc_anyhost").rglob("*.py"))
    files = [REQUIREMENTS, CONSTRAINTS, *sources]
    files.append(PLUGIN / "pyproject.toml")
    for f in files:
        h.update(str(f.relative_to(paths.TOOL_DIR)).encode())
        h.update(f.read_bytes())
    return h.hexdigest()


def is_current() -> bool:
    """True when the venv exists and was built from the same inputs."""
    return (
        (paths.VBIN / "python").exists()
        and MARKER.exists()
        and MARKER.read_text().strip() == requirement_hash()
    )


def check_index(timeout: float = 10.0) -> None:
    """Fail fast, naming the index, when PyPI cannot be reached."""
    url = os.environ.get("PIP_INDEX_URL", "https://pypi.org/simple/")
    url = url.rstrip("/") + "/pip/"
    try:
        with urllib.request.urlopen(url, timeout=timeout) as resp:  # noqa: S310
            resp.read(1)
    except (urllib.error.URLError, OSError) as exc:
        raise MiniCloudError(
            f"prerequisite missing: cannot reach the Python package index "
            f"{url} to install minicloud's virtualenv ({exc})"
        ) from exc


def _pip(*args: str) -> None:
    cmd = [str(paths.VBIN / "python"), "-m", "pip", *args]
    cmd += ["--timeout", "20", "--retries", "2", "--progress-bar", "off"]
    with PIP_LOG.open("a") as log:
        log.write(f"\n$ {' '.join(cmd)}\n")
        log.flush()
        try:
            rc = subprocess.run(
                cmd,
                stdout=log,
                stderr=subprocess.STDOUT,
                timeout=INSTALL_TIMEOUT,
                check=False,
                env=clean_env(),
            ).returncode
        except subprocess.TimeoutExpired as exc:
            raise MiniCloudError(
                f"pip install timed out after {INSTALL_TIMEOUT}s; "
                f"see {PIP_LOG}"
            ) from exc
    if rc:
        tail = "\n".join(PIP_LOG.read_text().splitlines()[-15:])
        raise MiniCloudError(
            f"pip install failed (rc={rc}); is the package index reachable?"
            f" Log {PIP_LOG}:\n{tail}"
        )


def ensure_venv(log=print) -> bool:
    """Create or update the venv when its marker is stale; True if it
    installed something."""
    if is_current():
        return False
    check_index()
    paths.ensure_dirs()
    t0 = time.monotonic()
    if not (paths.VBIN / "python").exists():
        if paths.VENV.exists():
            shutil.rmtree(paths.VENV)
        subprocess.run(
            [sys.executable, "-m", "venv", str(paths.VENV)], check=True
        )
    MARKER.unlink(missing_ok=True)
    log(f"installing minicloud venv into {paths.VENV} (log: {PIP_LOG})")
    _pip("install", "-U", "pip", "setuptools", "wheel")
    _pip("install", "-c", str(CONSTRAINTS), "-r", str(REQUIREMENTS))
    _pip("install", "--no-deps", "--no-build-isolation", str(PLUGIN))
    MARKER.write_text(requirement_hash() + "\n")
    log(f"venv installed in {time.monotonic() - t0:.0f}s")
    return True


def venv_python() -> Path:
    """The minicloud venv's interpreter."""
    return paths.VBIN / "python"
