"""Run tacker-ng's real console scripts as child processes for tests."""

import configparser
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterable, Iterator

import requests

BIN = os.path.dirname(sys.executable)


def script(name: str) -> str:
    """Path of a console script installed beside this interpreter."""
    path = os.path.join(BIN, name)
    if not os.path.exists(path):
        path = shutil.which(name) or path
    return path


def write_config(path: str, sections: dict[str, dict[str, object]]) -> str:
    """Write an ini file from ``{section: {option: value}}``."""
    parser = configparser.ConfigParser(interpolation=None)
    for section, options in sections.items():
        if section != "DEFAULT":
            parser.add_section(section)
        for key, value in options.items():
            parser.set(section, key, str(value))
    with open(path, "w") as f:
        parser.write(f)
    return path


class Process:
    """One child process with its output in a log file."""

    def __init__(
        self,
        name: str,
        argv: list[str],
        log_path: str,
        env: dict[str, str] | None = None,
    ) -> None:
        self.name = name
        self.argv = argv
        self.env = env
        self.log_path = log_path
        self._log = open(log_path, "wb")  # noqa: SIM115 - closed in stop()
        #: The signal stop() was already sent (by :func:`stop_all`).
        self._signalled: int | None = None
        self.popen = subprocess.Popen(
            argv,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
        )

    def respawn(self, log_path: str) -> "Process":
        """The same command started again (this one must have ended),
        logging to ``log_path``."""
        self.stop()
        return Process(self.name, self.argv, log_path, env=self.env)

    def log_tail(self, lines: int = 40) -> str:
        with open(self.log_path, errors="replace") as f:
            return "".join(f.readlines()[-lines:])

    def log_text(self) -> str:
        with open(self.log_path, errors="replace") as f:
            return f.read()

    def assert_running(self) -> None:
        code = self.popen.poll()
        if code is not None:
            raise AssertionError(
                f"{self.name} exited with {code}:\n{self.log_tail()}"
            )

    def send_signal(self, sig: int = signal.SIGTERM) -> None:
        """Send ``sig`` to the process group without waiting (once: a
        stop() with the same signal then only waits)."""
        if self.popen.poll() is None and self._signalled != sig:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.popen.pid, sig)
            self._signalled = sig

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 30) -> int:
        """Signal the process group; kill it if it does not exit in time."""
        if self.popen.poll() is None:
            self.send_signal(sig)
            try:
                self.popen.wait(timeout)
            except subprocess.TimeoutExpired:
                os.killpg(self.popen.pid, signal.SIGKILL)
                self.popen.wait(10)
        self._log.close()
        return self.popen.returncode


def run(argv: list[str], timeout: float = 120) -> subprocess.CompletedProcess:
    """Run a short command; raise with its output when it fails."""
    done = subprocess.run(
        argv, capture_output=True, text=True, timeout=timeout, check=False
    )
    if done.returncode:
        raise AssertionError(
            f"{' '.join(argv)} failed ({done.returncode}):\n"
            f"{done.stdout}\n{done.stderr}"
        )
    return done


def wait_http(url: str, proc: Process, timeout: float = 60, **kw) -> None:
    """Wait until ``url`` answers (any status) while ``proc`` lives.

    A refused connection and a slow first answer (a loaded machine: the
    server accepted but is still importing) both mean "not yet".
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        proc.assert_running()
        try:
            requests.get(url, timeout=(2, 10), **kw)
            return
        except (requests.ConnectionError, requests.Timeout):
            time.sleep(0.2)
    raise AssertionError(
        f"{url} did not answer within {timeout}s:\n{proc.log_tail()}"
    )


def wait_for(predicate, timeout: float, what: str, interval=0.3):
    """Poll ``predicate`` until it returns a truthy value."""
    deadline = time.monotonic() + timeout
    value = None
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(
        f"timed out after {timeout}s waiting for {what} (last: {value!r})"
    )


@contextlib.contextmanager
def processes() -> Iterator[list[Process]]:
    """Collect processes; stop every one at the end, even on failure."""
    started: list[Process] = []
    try:
        yield started
    finally:
        stop_all(reversed(started))


def stop_all(processes: Iterable[Process]) -> None:
    """Stop ``processes`` side by side: signal every one, then wait for
    each. A conductor's graceful stop takes seconds of waiting (its RPC
    server and threads), tacker-ng-api's a few more; one after the other
    a deployment's teardown took their sum (19-24 s on a loaded 2-core
    machine)."""
    processes = list(processes)
    for proc in processes:
        proc.send_signal()
    for proc in processes:
        proc.stop()


def port_is_listening(port: int) -> bool:
    with (
        contextlib.suppress(OSError),
        socket.create_connection(("127.0.0.1", port), timeout=1),
    ):
        return True
    return False
