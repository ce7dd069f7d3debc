"""A saved bring-up: minicloud's databases and files right after a clean
``up``, restored instead of initializing the cloud again.

A first ``up`` spends most of its time making the same result from the
same inputs: eight schema syncs, Keystone's bootstrap, the identity, the
baseline of every lane (zones, flavors, image, projects, networks). Right
after such a bring-up its databases (mariadb-dump), the files the
services keep (Keystone's key repositories, Glance's image store, each
compute's node identity) and state.json are saved under
``HOME/saved/<fingerprint>``. The fingerprint hashes what shapes them:
the installed requirement set, the config templates, the expanded
topology and the setup scripts. An ``up`` that finds no initialized
cloud (a new machine, after ``wipe``, or databases that vanished) and a
saved state of the same fingerprint restores it; one whose baseline was
built from the same fingerprint skips the baseline step and only waits
for the services. Any change of those inputs builds anew (and saves the
new state).
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import tarfile
from pathlib import Path
from typing import Any

from mclib import MiniCloudError, infra, install, paths

SAVED = paths.HOME / "saved"
#: The fingerprint of the baseline the running databases hold.
BASELINE_FP = paths.HOME / "baseline.fingerprint"
#: Bump when what is saved (or how) changes.
FORMAT = "1"
SCRIPTS = (
    "setup_cloud.py",
    "baseline.py",
    "lanes.py",
    "cleanup.py",
    "placement_sync.py",
)


def fingerprint(topo: dict[str, Any]) -> str:
    """Hash of everything the saved databases and files depend on."""
    h = hashlib.sha256(FORMAT.encode())
    h.update(install.requirement_hash().encode())
    h.update(json.dumps(topo, sort_keys=True).encode())
    h.update(str(paths.INSTANCE).encode())
    templates = sorted((paths.TOOL_DIR / "etc").glob("*"))
    for f in [*templates, *(paths.TOOL_DIR / s for s in SCRIPTS)]:
        h.update(f.name.encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:24]


def _dir(fp: str) -> Path:
    return SAVED / fp


def exists(fp: str) -> bool:
    """Whether a complete saved state of ``fp`` is there."""
    return (_dir(fp) / "complete").exists()


def baseline_matches(fp: str) -> bool:
    """Whether the running databases hold the baseline of ``fp``."""
    return BASELINE_FP.exists() and BASELINE_FP.read_text().strip() == fp


def mark_baseline(fp: str) -> None:
    BASELINE_FP.write_text(fp + "\n")


def _client(*names: str) -> str:
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    raise MiniCloudError(f"none of {', '.join(names)} found")


def _db_args() -> list[str]:
    return ["-uroot", f"-h{paths.HOST}", f"-P{paths.DB_PORT}"]


def save(fp: str) -> Path:
    """Save the databases, files and state of the cloud as it is now
    (right after a clean bring-up); returns the folder."""
    tmp = SAVED / f".{fp}.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    dump = _client("mariadb-dump", "mysqldump")
    for db in paths.DATABASES:
        with (tmp / f"{db}.sql").open("wb") as out:
            done = subprocess.run(
                [dump, *_db_args(), "--single-transaction", "--routines", db],
                stdout=out,
                stderr=subprocess.PIPE,
                timeout=300,
                check=False,
            )
        if done.returncode:
            shutil.rmtree(tmp, ignore_errors=True)
            raise MiniCloudError(
                f"saving {db} failed: {done.stderr.decode()[-500:]}"
            )
    with tarfile.open(tmp / "data.tar.gz", "w:gz") as tar:
        tar.add(paths.DATA, arcname="data")
    for f in (paths.STATE_FILE, paths.HOME / "topology.json"):
        shutil.copy2(f, tmp / f.name)
    (tmp / "complete").write_text(fp + "\n")
    shutil.rmtree(_dir(fp), ignore_errors=True)
    tmp.rename(_dir(fp))
    # Keep the newest saved state only: each is a few MB.
    for old in SAVED.iterdir():
        if old.name != fp and not old.name.startswith("."):
            shutil.rmtree(old, ignore_errors=True)
    return _dir(fp)


def restore(fp: str) -> None:
    """Put the saved state of ``fp`` back (minicloud must be down)."""
    src = _dir(fp)
    infra.create()
    client = _client("mariadb", "mysql")
    for db in paths.DATABASES:
        infra.mysql(
            f"DROP DATABASE IF EXISTS {db}; CREATE DATABASE {db};",
            f"recreating {db}",
        )
        with (src / f"{db}.sql").open("rb") as dump:
            done = subprocess.run(
                [client, *_db_args(), db],
                stdin=dump,
                stderr=subprocess.PIPE,
                timeout=300,
                check=False,
            )
        if done.returncode:
            raise MiniCloudError(
                f"restoring {db} failed: {done.stderr.decode()[-500:]}"
            )
    shutil.rmtree(paths.DATA, ignore_errors=True)
    with tarfile.open(src / "data.tar.gz") as tar:
        tar.extractall(paths.HOME, filter="data")
    for name in ("state.json", "topology.json"):
        shutil.copy2(src / name, paths.HOME / name)
    mark_baseline(fp)
