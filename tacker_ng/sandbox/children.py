"""Simulators as child processes: started with a command line, ready when
they print their ready line (``<PREFIX> {json}``), stopped with SIGTERM.

Their output goes to a log file in the sandbox's state directory; the
ready line is read from a pipe first, then the pipe is drained into the
log by a thread so a chatty child never blocks on a full pipe.
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

#: Run before the simulator, in its own process: ask Linux for SIGTERM
#: when tacker-ng-all dies (even by SIGKILL; the request survives exec),
#: then become the simulator. A preexec_fn would do the same in the
#: forked child of a threaded process, which is not safe.
_LAUNCHER = (
    "import ctypes, os, signal, sys\n"
    "parent = int(sys.argv[1])\n"
    "try:\n"
    "    ctypes.CDLL(None).prctl(1, signal.SIGTERM)\n"
    "except (OSError, AttributeError):\n"
    "    pass\n"
    "if os.getppid() != parent:\n"
    "    sys.exit(1)\n"
    "os.execv(sys.argv[2], sys.argv[2:])\n"
)


class ChildFailed(RuntimeError):
    """A simulator did not come up (its log tail says why)."""


class Child:
    """One running simulator."""

    def __init__(self, name: str, argv: list[str], log: Path) -> None:
        self.name = name
        self.log = log
        self._log = log.open("ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _LAUNCHER, str(os.getpid()), *argv],
            stdout=subprocess.PIPE,
            stderr=self._log,
            stdin=subprocess.DEVNULL,
        )

    def ready(self, prefix: str, timeout: float) -> dict[str, Any]:
        """The JSON of the ready line, or :class:`ChildFailed`."""
        assert self.proc.stdout is not None
        sel = selectors.DefaultSelector()
        sel.register(self.proc.stdout, selectors.EVENT_READ)
        deadline = time.monotonic() + timeout
        buf = b""
        try:
            while b"\n" not in buf:
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(timeout=left):
                    raise self._failed(f"not ready within {timeout:.0f} s")
                chunk = self.proc.stdout.read1(65536)
                if not chunk:
                    raise self._failed("exited before it was ready")
                buf += chunk
        finally:
            sel.close()
        line, _, rest = buf.partition(b"\n")
        text = line.decode(errors="replace")
        if not text.startswith(prefix + " "):
            raise self._failed(f"said {text[:200]!r}")
        self._log.write(rest)
        threading.Thread(
            target=self._drain, name=f"{self.name}-log", daemon=True
        ).start()
        return json.loads(text[len(prefix) + 1 :])

    def _drain(self) -> None:
        assert self.proc.stdout is not None
        try:
            for chunk in iter(lambda: self.proc.stdout.read1(65536), b""):
                self._log.write(chunk)
                self._log.flush()
        except (ValueError, OSError):
            return  # stopped: the log or the pipe is closed

    def _failed(self, what: str) -> ChildFailed:
        self._log.flush()
        self.stop()
        tail = self.log.read_text(errors="replace")[-2000:]
        return ChildFailed(f"{self.name} {what}; {self.log}:\n{tail}")

    def stop(self, timeout: float = 10.0) -> None:
        """SIGTERM, then SIGKILL after ``timeout``."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._log.close()
