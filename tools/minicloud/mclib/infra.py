"""minicloud's share of the machine's MariaDB and RabbitMQ.

Both servers are already running and belong to the machine: minicloud
only checks them, and creates or drops its own ``mc_*`` databases, its
own DB user, and its own RabbitMQ vhost and user. Nothing else is touched.
"""

from __future__ import annotations

import shutil
import socket
import subprocess

from mclib import MiniCloudError, paths

CMD_TIMEOUT = 30


def _port_open(port: int, timeout: float = 3.0) -> bool:
    try:
        with socket.create_connection((paths.HOST, port), timeout=timeout):
            return True
    except OSError:
        return False


def _run(cmd: list[str], what: str, stdin: str | None = None) -> str:
    try:
        res = subprocess.run(
            cmd,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=CMD_TIMEOUT,
            check=False,
        )
    except FileNotFoundError as exc:
        raise MiniCloudError(f"{what}: command {cmd[0]} not found") from exc
    except subprocess.TimeoutExpired as exc:
        raise MiniCloudError(
            f"{what}: {cmd[0]} hung for {CMD_TIMEOUT}s"
        ) from exc
    if res.returncode:
        raise MiniCloudError(
            f"{what} failed: {(res.stderr or res.stdout)[-800:]}"
        )
    return res.stdout


def mysql(sql: str, what: str = "MariaDB") -> str:
    """Run SQL as MariaDB's root (no password, 127.0.0.1:3306)."""
    client = shutil.which("mariadb") or shutil.which("mysql") or "mariadb"
    cmd = [client, "-uroot", f"-h{paths.HOST}", f"-P{paths.DB_PORT}", "-N"]
    cmd += ["--connect-timeout=5"]
    return _run(cmd, what, stdin=sql)


def rabbitmqctl(*args: str) -> str:
    """Run rabbitmqctl (we are root, so it has the Erlang cookie)."""
    return _run(["rabbitmqctl", "-q", *args], f"rabbitmqctl {args[0]}")


def check_mariadb() -> None:
    """Fail fast, naming MariaDB, when it does not answer."""
    where = f"MariaDB at {paths.HOST}:{paths.DB_PORT}"
    if not _port_open(paths.DB_PORT):
        raise MiniCloudError(
            f"prerequisite missing: {where} is not listening (start it: "
            "start-stop-daemon --start --oknodo --background "
            "--exec /usr/sbin/mariadbd)"
        )
    mysql("SELECT 1;", f"prerequisite check: {where} as root")


def check_rabbitmq() -> None:
    """Fail fast, naming RabbitMQ, when it does not answer."""
    where = f"RabbitMQ at {paths.HOST}:{paths.RABBIT_PORT}"
    hint = "(start it: rabbitmq-server -detached)"
    try:
        with socket.create_connection((paths.HOST, paths.RABBIT_PORT), 3) as s:
            s.settimeout(5)
            s.sendall(b"AMQP\x00\x00\x09\x01")
            frame = s.recv(7)
    except OSError as exc:
        raise MiniCloudError(
            f"prerequisite missing: {where} does not answer ({exc}) {hint}"
        ) from exc
    if not frame.startswith(b"\x01\x00\x00"):  # Connection.Start frame
        raise MiniCloudError(
            f"prerequisite missing: {where} did not speak AMQP 0-9-1 {hint}"
        )


def create() -> None:
    """Create mc_* databases, DB user, vhost and user (idempotent)."""
    user = f"'{paths.DB_USER}'@'%s' IDENTIFIED BY '{paths.DB_PASSWORD}'"
    sql = [f"CREATE DATABASE IF NOT EXISTS {db};" for db in paths.DATABASES]
    for host in ("127.0.0.1", "localhost"):
        sql.append(f"CREATE USER IF NOT EXISTS {user % host};")
        pattern = paths.DB_PREFIX.replace("_", r"\_") + "%"
        grant = f"GRANT ALL PRIVILEGES ON `{pattern}`.* TO '{paths.DB_USER}'"
        sql.append(f"{grant}@'{host}';")
    mysql("\n".join(sql), "creating minicloud's databases")
    vhosts = rabbitmqctl("list_vhosts").split()
    if paths.RABBIT_VHOST not in vhosts:
        rabbitmqctl("add_vhost", paths.RABBIT_VHOST)
    users = [
        line.split()[0] for line in rabbitmqctl("list_users").splitlines()
    ]
    if paths.RABBIT_USER not in users:
        rabbitmqctl("add_user", paths.RABBIT_USER, paths.RABBIT_PASSWORD)
    rabbitmqctl(
        "set_permissions",
        "-p",
        paths.RABBIT_VHOST,
        paths.RABBIT_USER,
        ".*",
        ".*",
        ".*",
    )


def present() -> bool:
    """True when all of minicloud's databases and its vhost exist (they
    may vanish if someone recreated the shared servers)."""
    pattern = paths.DB_PREFIX.replace("_", r"\_") + "%"
    rows = mysql(f"SHOW DATABASES LIKE '{pattern}';").split()
    if not set(paths.DATABASES) <= set(rows):
        return False
    return paths.RABBIT_VHOST in rabbitmqctl("list_vhosts").split()


def drop() -> None:
    """Drop everything create() made, and only that."""
    sql = [f"DROP DATABASE IF EXISTS {db};" for db in paths.DATABASES]
    for host in ("127.0.0.1", "localhost"):
        sql.append(f"DROP USER IF EXISTS '{paths.DB_USER}'@'{host}';")
    mysql("\n".join(sql), "dropping minicloud's databases")
    if paths.RABBIT_VHOST in rabbitmqctl("list_vhosts").split():
        rabbitmqctl("delete_vhost", paths.RABBIT_VHOST)
    users = [
        line.split()[0] for line in rabbitmqctl("list_users").splitlines()
    ]
    if paths.RABBIT_USER in users:
        rabbitmqctl("delete_user", paths.RABBIT_USER)
