"""Start, watch and stop minicloud's service processes.

Each service runs in its own session (process group), with its pid in
HOME/run/<name>.pid; stopping signals the whole group, so worker children
(conductor, scheduler, heat-engine) never outlive their parent.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

from mclib import MiniCloudError, clean_env, paths


def pidfile(name: str) -> Path:
    """The pid file of one service."""
    return paths.RUN / f"{name}.pid"


def _start_time(pid: int) -> str | None:
    """Kernel start time of a pid (guards against pid reuse)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()[19]


def _record(name: str) -> list[str]:
    try:
        return pidfile(name).read_text().split()
    except OSError:
        return []


def pid_of(name: str) -> int | None:
    """Pid of the service when it is running and really ours."""
    rec = _record(name)
    if len(rec) < 2 or not rec[0].isdigit():
        return None
    pid = int(rec[0])
    return pid if _start_time(pid) == rec[1] else None


def running() -> list[str]:
    """Names of all services with a live pid."""
    return sorted(
        p.stem for p in paths.RUN.glob("*.pid") if pid_of(p.stem) is not None
    )


def log_tail(name: str, lines: int = 25) -> str:
    """Tail of the service's logs (oslo log and stdout), for error text."""
    out = []
    for suffix in (".log", ".out", "-gunicorn.log"):
        f = paths.LOGS / f"{name}{suffix}"
        if f.exists() and f.stat().st_size:
            text = f.read_text(errors="replace").splitlines()[-lines:]
            out.append(f"--- tail of {f}\n" + "\n".join(text))
    return "\n".join(out) or f"(no log for {name} in {paths.LOGS})"


def start(
    name: str,
    cmd: list[str],
    env: dict[str, str] | None = None,
    fingerprint: str = "-",
) -> int:
    """Start a service unless it already runs with the same fingerprint
    (hash of its command and config); a changed one is restarted."""
    pid = pid_of(name)
    if pid and _record(name)[2:] == [fingerprint]:
        return pid
    if pid:
        stop(name)
    full_env = clean_env(MINICLOUD_LOGS=str(paths.LOGS), **(env or {}))
    with (paths.LOGS / f"{name}.out").open("ab") as out:
        proc = subprocess.Popen(
            cmd,
            cwd=paths.HOME,
            env=full_env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    started = _start_time(proc.pid)
    pidfile(name).write_text(f"{proc.pid} {started} {fingerprint}\n")
    return proc.pid


def stop(name: str, grace: float = 10.0) -> bool:
    """Stop a service's whole process group; True if it was running."""
    pid = pid_of(name)
    pidfile(name).unlink(missing_ok=True)
    return pid is not None and _stop_group(pid, grace)


def _stop_group(pgid: int, grace: float = 10.0) -> bool:
    try:
        os.killpg(pgid, signal.SIGTERM)
    except ProcessLookupError:
        return False
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.2)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pgid, signal.SIGKILL)
    return True


def sweep_orphans() -> list[int]:
    """Stop minicloud processes that lost their pid file (e.g. a crashed
    `up`): run in HOME, started from its venv or titled [minicloud-*],
    in no group of a live pid file. Returns the groups stopped."""
    known = {pid_of(p.stem) for p in paths.RUN.glob("*.pid")}
    groups = set()
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            if os.readlink(proc / "cwd") != str(paths.HOME):
                continue
            cmdline = (proc / "cmdline").read_bytes()
            pgid = os.getpgid(int(proc.name))
        except (OSError, ValueError):
            continue
        ours = str(paths.VENV).encode() in cmdline or b"[minicloud-" in cmdline
        if ours and pgid not in known and pgid != os.getpgid(0):
            groups.add(pgid)
    for pgid in groups:
        _stop_group(pgid)
    return sorted(groups)


def wait_http(name: str, url: str, timeout: float = 120.0) -> float:
    """Wait until url answers any HTTP status; fail with the log tail if
    the service dies or the time runs out. Returns seconds waited."""
    t0 = time.monotonic()
    interval = 0.1
    while True:
        try:
            with urllib.request.urlopen(url, timeout=3):  # noqa: S310
                return time.monotonic() - t0
        except urllib.error.HTTPError:
            return time.monotonic() - t0
        except (urllib.error.URLError, OSError):
            pass
        if pid_of(name) is None:
            raise MiniCloudError(
                f"{name} exited during start-up\n{log_tail(name)}"
            )
        if time.monotonic() - t0 > timeout:
            raise MiniCloudError(
                f"{name} did not answer on {url} within {timeout:.0f}s\n"
                f"{log_tail(name)}"
            )
        time.sleep(interval)
        interval = min(interval * 1.5, 1.0)


def run(name: str, cmd: list[str], timeout: float = 300.0) -> None:
    """Run a one-shot command (db sync, bootstrap), logging to
    HOME/logs/<name>.log; fail with its tail."""
    log = paths.LOGS / f"{name}.log"
    with log.open("ab") as out:
        out.write(f"\n$ {' '.join(cmd)}\n".encode())
        out.flush()
        try:
            rc = subprocess.run(
                cmd,
                cwd=paths.HOME,
                env=clean_env(),
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                timeout=timeout,
                check=False,
            ).returncode
        except subprocess.TimeoutExpired as exc:
            raise MiniCloudError(
                f"{name} timed out after {timeout:.0f}s\n{log_tail(name)}"
            ) from exc
    if rc:
        raise MiniCloudError(f"{name} failed (rc={rc})\n{log_tail(name)}")


def port_owner(port: int) -> str | None:
    """Who listens on 127.0.0.1:port (ss line), or None when free."""
    try:
        res = subprocess.run(
            ["ss", "-Hltnp", f"sport = :{port}"],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return res.stdout.strip() or None
