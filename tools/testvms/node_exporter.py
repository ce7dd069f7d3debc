"""Debian's Prometheus node exporter inside a test VM's namespace.

Test tool, never imported by the product. A test VM (:mod:`.sshd_host`,
and the bodies :mod:`.bodies` gives minicloud's servers) is a network
namespace whose address is the VM's; a real VM would run the exporter as
a service on port 9100 of that address, which is what :func:`start`
does, so Prometheus scrapes ``<VM address>:9100/metrics`` exactly as it
would a VM's. The exporter sees the namespace's network devices (its
veth and lo) and the machine's CPUs, memory and file systems (a network
namespace isolates only the network). Needs root and Debian's
``prometheus-node-exporter`` (tools/test-setup.sh installs it).

    exporter = node_exporter.start(host.name, host.address)
    ...  # scrape http://<host.address>:9100/metrics
    exporter.stop()      # or host.destroy(), which ends the namespace
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

BINARY = "/usr/bin/prometheus-node-exporter"
PORT = 9100
START_TIMEOUT = 20.0
#: The collectors tacker-ng's measurement table reads (cpu, meminfo,
#: filesystem, netdev), and nothing else: the others read hardware
#: sensors, systemd and such, which a test VM has not, and cost time.
COLLECTORS = ("cpu", "meminfo", "filesystem", "netdev")


class NodeExporterError(RuntimeError):
    """The exporter could not be started."""


@dataclasses.dataclass
class NodeExporter:
    """A node exporter running in a namespace."""

    netns: str
    address: str
    port: int
    log_path: Path
    process: subprocess.Popen

    @property
    def target(self) -> str:
        """``host:port`` as a Prometheus target names it."""
        return f"{self.address}:{self.port}"

    @property
    def url(self) -> str:
        return f"http://{self.target}/metrics"

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-3000:]

    def stop(self) -> None:
        """Stop this exporter (its process group) and remove its log."""
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)
        with contextlib.suppress(FileNotFoundError):
            self.log_path.unlink()


def start(netns: str, address: str, port: int = PORT) -> NodeExporter:
    """Run the node exporter in namespace ``netns`` on ``address:port``;
    return once it accepts connections there."""
    if not os.access(BINARY, os.X_OK):
        raise NodeExporterError(
            f"{BINARY} not found: Debian's prometheus-node-exporter is "
            "required; run tools/test-setup.sh"
        )
    fd, log_name = tempfile.mkstemp(prefix=f"node-exporter-{netns}-")
    log_path = Path(log_name)
    argv = [
        "ip", "netns", "exec", netns, BINARY,
        f"--web.listen-address={address}:{port}",
        "--collector.disable-defaults",
        *(f"--collector.{name}" for name in COLLECTORS),
    ]  # fmt: skip
    with os.fdopen(fd, "wb") as log:
        process = subprocess.Popen(
            argv,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    exporter = NodeExporter(netns, address, port, log_path, process)
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            text = exporter.log()
            exporter.stop()
            raise NodeExporterError(f"node exporter exited: {text}")
        with contextlib.suppress(OSError):
            socket.create_connection((address, port), 1).close()
            return exporter
        time.sleep(0.1)
    text = exporter.log()
    exporter.stop()
    raise NodeExporterError(f"node exporter not listening: {text}")
