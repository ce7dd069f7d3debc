"""Start tacker-ng-api (and optionally conductors) for a benchmark run."""

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator

BIN = os.path.dirname(sys.executable)


def mysql_admin_url() -> str:
    """MariaDB's admin URL for the benchmarks: the C driver (mysqlclient,
    about twice as fast per row) when installed, else PyMySQL."""
    try:
        import MySQLdb  # noqa: F401
    except ImportError:
        return "mysql+pymysql://root@127.0.0.1:3306/"
    return "mysql+mysqldb://root@127.0.0.1:3306/"


class ApiUrl(str):
    """The API's base URL, carrying the pid of its master process."""

    pid: int


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def write_conf(path: str, sections: dict[str, dict]) -> None:
    with open(path, "w") as f:
        for section, options in sections.items():
            f.write(f"[{section}]\n")
            for key, value in options.items():
                f.write(f"{key} = {value}\n")
            f.write("\n")


def _wait(url: str, proc: subprocess.Popen, log: str, timeout=60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            with open(log) as f:
                raise SystemExit(f"server exited:\n{f.read()[-3000:]}")
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"server did not answer on {url}")


@contextlib.contextmanager
def api_server(
    workers: int = 2,
    sections: dict[str, dict] | None = None,
    conductors: int = 0,
    state: str | None = None,
) -> Iterator[str]:
    """Run tacker-ng-api with ``workers``; yield its base URL."""
    state = state or tempfile.mkdtemp(prefix="tacker-ng-bench-")
    port = free_port()
    conf = {
        "DEFAULT": {
            "state_path": state,
            "transport_url": "rabbit://guest:guest@127.0.0.1:5672/",
        },
        "api": {
            "port": port,
            "workers": workers,
            "auth_strategy": "noauth",
        },
    }
    for section, options in (sections or {}).items():
        conf.setdefault(section, {}).update(options)
    conf_path = os.path.join(state, "tacker.conf")
    write_conf(conf_path, conf)
    subprocess.run(
        [
            os.path.join(BIN, "tacker-ng-db-manage"),
            "--config-file",
            conf_path,
            "upgrade",
        ],
        check=True,
    )
    procs: list[subprocess.Popen] = []
    log = os.path.join(state, "api.log")

    def spawn(argv: list[str], log_path: str) -> subprocess.Popen:
        with open(log_path, "wb") as out:
            proc = subprocess.Popen(
                argv,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        procs.append(proc)
        return proc

    try:
        for i in range(conductors):
            host_conf = os.path.join(state, f"c{i}.conf")
            write_conf(host_conf, {"DEFAULT": {"host": f"bench-{i}"}})
            spawn(
                [
                    os.path.join(BIN, "tacker-ng-conductor"),
                    "--config-file",
                    conf_path,
                    "--config-file",
                    host_conf,
                ],
                os.path.join(state, f"c{i}.log"),
            )
        api = spawn(
            [os.path.join(BIN, "tacker-ng-api"), "--config-file", conf_path],
            log,
        )
        url = ApiUrl(f"http://127.0.0.1:{port}")
        url.pid = api.pid
        _wait(url + "/", api, log)
        yield url
    finally:
        for proc in procs:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
