"""Run ``openstack`` commands as forks of one warm child process.

Each ``openstack`` console-script run imports python-openstackclient,
its plugins (python-tackerclient's, python-blazarclient's, tacker-ng's)
and their client libraries: 2-3 s of CPU before the command starts, on
every call. The CLI tests make hundreds of calls, so that import was a
large share of the services half's CPU.

A fork server imports the same modules once and then, for each command,
forks a child that runs exactly what the console script runs -
``openstackclient.shell.main()`` with ``sys.argv`` set - with its own
stdout and stderr (files), environment, working directory and exit
status. Each command is still a separate process with a fresh copy of
every module's state (a fork), and plugins are found through the same
entry points. test_plugin's terminal progress bar, wrong credentials
and ``noauth`` tests keep running the installed console script itself.

Run as a module, this file is the server; :func:`run` is the client
(one server per test process, started on first use). With ``--socket
PATH`` it serves ``forkclient.py`` instead, a stand-in for the
``openstack`` command in shell scripts: test_demo runs tools/demo.sh's
commands through it (the demo itself runs the console script).
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

from tacker_ng.tests.functional import processes as procs

#: Entry point groups whose modules the server imports before forking:
#: the plugin list OSC reads at every start, and every command group.
_PRELOAD_PREFIX = "openstack."


def _preload() -> None:
    from importlib.metadata import distributions

    # cliff names the class from sys.argv[0] when it is imported.
    sys.argv = [procs.script("openstack")]
    import openstackclient.shell  # noqa: F401
    from cliff import command

    # cliff maps modules to distributions for every command's help
    # epilog by reading every installed distribution's metadata (about a
    # second), once per process: once here for every fork.
    command._get_distributions_by_modules()

    for ep in (ep for d in distributions() for ep in d.entry_points):
        if ep.group.startswith(_PRELOAD_PREFIX):
            # A broken plugin fails when its command is used, as in OSC.
            with contextlib.suppress(Exception):
                ep.load()


def _child(req: dict[str, Any], stdio: list[int] | None = None) -> None:
    """In the fork: become ``openstack <args>`` and exit with its status;
    on the caller's ``stdio`` (stdin, stdout, stderr) if given, else on
    /dev/null and the request's files."""
    os.setpgrp()
    if stdio is not None:
        for fd, theirs in enumerate(stdio):
            os.dup2(theirs, fd)
    else:
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        for fd, path in ((1, req["stdout"]), (2, req["stderr"])):
            out = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            os.dup2(out, fd)
            os.close(out)
    os.environ.clear()
    os.environ.update(req["env"])
    os.chdir(req["cwd"])
    sys.argv = ["openstack", *req["args"]]
    rc: Any = 1
    try:
        from openstackclient.shell import main

        rc = main()
    except SystemExit as exc:
        rc = exc.code
    except BaseException:  # noqa: BLE001 - reported like the script would
        import traceback

        traceback.print_exc()
    if rc is None:
        rc = 0
    elif not isinstance(rc, int):
        print(rc, file=sys.stderr)
        rc = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(rc & 0xFF)


def _wait(pid: int, timeout: float) -> int | None:
    """The child's exit status, or None (killed) after ``timeout``."""
    import select

    fd = os.pidfd_open(pid)
    try:
        ready, _, _ = select.select([fd], [], [], timeout)
        if not ready:
            os.killpg(pid, 9)
        _, status = os.waitpid(pid, 0)
    finally:
        os.close(fd)
    return os.waitstatus_to_exitcode(status) if ready else None


def serve() -> None:
    """One JSON request per stdin line, one JSON answer per stdout line."""
    answers = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)  # what the imports print must not reach the answers
    _preload()
    for line in sys.stdin:
        req = json.loads(line)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            _child(req)
        rc = _wait(pid, req["timeout"])
        answers.write(json.dumps({"rc": rc}) + "\n")


def serve_socket(path: str) -> None:
    """Serve ``forkclient.py`` on the UNIX socket ``path``, one command
    at a time: a client sends its arguments, environment and working
    directory with its stdin, stdout and stderr (SCM_RIGHTS); the fork
    runs on those and the client gets its exit status back. For shell
    scripts (tools/demo.sh under test) whose commands must write where
    the script's own output goes."""
    _preload()
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path + ".new")
    server.listen(4)
    os.rename(path + ".new", path)  # it exists: it accepts
    while True:
        conn, _ = server.accept()
        with conn:
            try:
                _serve_one(server, conn)
            except (OSError, ValueError) as exc:  # a client gone mid-way
                print(f"forkserver: {exc!r}", file=sys.stderr)


def _serve_one(server: socket.socket, conn: socket.socket) -> None:
    data, stdio, _, _ = socket.recv_fds(conn, 1 << 16, 3)
    try:
        size = int.from_bytes(data[:4], "big")
        while len(data) < 4 + size:
            more = conn.recv(1 << 16)
            if not more:
                raise ValueError("request cut short")
            data += more
        req = json.loads(data[4 : 4 + size])
        if len(stdio) != 3:
            raise ValueError(f"{len(stdio)} descriptors, not 3")
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            server.close()
            conn.close()
            _child(req, stdio)
    finally:
        for fd in stdio:
            os.close(fd)
    rc = _wait(pid, req.get("timeout", 3600))
    conn.sendall(str(255 if rc is None else rc & 0xFF).encode())


class _Client:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.proc: subprocess.Popen | None = None
        self.tmp = Path(tempfile.mkdtemp(prefix="osc-fork-"))
        atexit.register(self.close)

    def _server(self) -> subprocess.Popen:
        if self.proc is None or self.proc.poll() is not None:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", __name__],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                bufsize=1,
            )
        return self.proc

    def run(self, args, env, timeout) -> subprocess.CompletedProcess:
        with self.lock:
            proc = self._server()
            out, err = self.tmp / "stdout", self.tmp / "stderr"
            req = {
                "args": list(args),
                "env": dict(os.environ if env is None else env),
                "cwd": os.getcwd(),
                "timeout": timeout,
                "stdout": str(out),
                "stderr": str(err),
            }
            assert proc.stdin and proc.stdout
            proc.stdin.write(json.dumps(req) + "\n")
            answer = proc.stdout.readline()
            if not answer:
                raise RuntimeError("the openstack fork server died")
            rc = json.loads(answer)["rc"]
            argv = [procs.script("openstack"), *args]
            stdout, stderr = out.read_text(), err.read_text()
        if rc is None:
            raise subprocess.TimeoutExpired(argv, timeout, stdout, stderr)
        return subprocess.CompletedProcess(argv, rc, stdout, stderr)

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            assert self.proc.stdin
            self.proc.stdin.close()
            self.proc.wait(timeout=30)


@functools.cache
def _client() -> _Client:
    return _Client()


def run(
    args, env: dict[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess:
    """``openstack <args>`` (environment ``env``, default this process's)
    as a fork of the warm server: like ``subprocess.run(...,
    capture_output=True, text=True)`` of the console script."""
    return _client().run(args, env, timeout)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--socket"]:
        serve_socket(sys.argv[2])
    else:
        serve()
