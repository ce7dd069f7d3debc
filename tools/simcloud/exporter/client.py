"""Start the test exporter as a process and drive its control API.

with client.running() as exporter:
    vnfc = exporter.put("VDU1-0", {"memory": {"MemTotal": 8 << 30}})
    prometheus.write_targets("vnf-1", [exporter.target("VDU1-0", labels)])
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import requests

REPO = Path(__file__).resolve().parents[3]
START_TIMEOUT = 20.0


class ExporterControl:
    """The control API of one running exporter."""

    def __init__(self, url: str) -> None:
        self.url = url.rstrip("/")

    def _call(self, method: str, name: str, body: dict | None = None) -> Any:
        quoted = urllib.parse.quote(name, safe="")
        resp = requests.request(
            method, f"{self.url}/control/vnfcs/{quoted}", json=body, timeout=10
        )
        if resp.status_code >= 400:
            raise AssertionError(
                f"{method} {name}: {resp.status_code} {resp.text}"
            )
        return resp.json() if resp.content else None

    def put(self, name: str, spec: dict | None = None) -> dict:
        """Create or replace VNFC ``name`` (spec: see nodemetrics)."""
        return self._call("PUT", name, spec or {})

    def patch(self, name: str, spec: dict) -> dict:
        """Change some of VNFC ``name``'s values."""
        return self._call("PATCH", name, spec)

    def get(self, name: str) -> dict:
        return self._call("GET", name)

    def delete(self, name: str) -> None:
        self._call("DELETE", name)

    def metrics(self, name: str) -> str:
        """The text a scrape of ``name`` gets now (counts as a scrape)."""
        resp = requests.get(f"{self.url}{self.get(name)['path']}", timeout=10)
        resp.raise_for_status()
        return resp.text

    def target(self, name: str, labels: dict[str, str]) -> dict:
        """A file_sd target group that scrapes VNFC ``name``: its own
        port when it has one, else the path on the exporter's port."""
        state = self.get(name)
        if state["address"]:
            return {"targets": [state["address"]], "labels": dict(labels)}
        netloc = urllib.parse.urlsplit(self.url).netloc
        return {
            "targets": [netloc],
            "labels": {**labels, "__metrics_path__": state["path"]},
        }


@contextlib.contextmanager
def running(*args: str, netns: str | None = None) -> Iterator[ExporterControl]:
    """Run ``python -m tools.simcloud.exporter *args`` (inside network
    namespace ``netns`` if given: bind to its address); stop it after."""
    argv = [sys.executable, "-m", "tools.simcloud.exporter", *args]
    if netns:
        argv = ["ip", "netns", "exec", netns, *argv]
    # Errors go to a file: a pipe nobody reads would block the exporter.
    log = tempfile.NamedTemporaryFile(  # noqa: SIM115 - closed below
        prefix="tng-exporter-", suffix=".log", delete=False
    )
    proc = subprocess.Popen(
        argv,
        cwd=str(REPO),
        stdout=subprocess.PIPE,
        stderr=log,
        stdin=subprocess.DEVNULL,
        start_new_session=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    try:
        try:
            line = _ready_line(proc)
        except RuntimeError as exc:
            log.flush()
            tail = Path(log.name).read_text(errors="replace")[-2000:]
            raise RuntimeError(f"{exc}; log:\n{tail}") from None
        yield ExporterControl(json.loads(line.split(" ", 2)[2])["url"])
    finally:
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(10)
        if proc.stdout:
            proc.stdout.close()
        log.close()
        os.unlink(log.name)


def _ready_line(proc: subprocess.Popen) -> str:
    import selectors
    import time

    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    deadline = time.monotonic() + START_TIMEOUT
    seen = b""
    while time.monotonic() < deadline:
        if not sel.select(timeout=max(0.0, deadline - time.monotonic())):
            break
        chunk = os.read(proc.stdout.fileno(), 65536)
        if not chunk:
            break
        seen += chunk
        for line in seen.decode(errors="replace").splitlines():
            if line.startswith("EXPORTER READY "):
                return line
    raise RuntimeError(f"test exporter did not start: {seen.decode()[-2000:]}")
