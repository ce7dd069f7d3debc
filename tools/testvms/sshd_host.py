"""A test host that really answers SSH: OpenSSH's sshd in a netns.

Test tool, never imported by the product. Each host gets its own network
namespace with a private /30 out of 10.254.0.0/16 on a veth pair (the
host side is .1, the namespace side .2; only addresses created here are
ever contacted), a generated Ed25519 host key, a login user ``tngssh``
with a generated client key in authorized_keys and a random password.
The user exists only for this sshd: passwd/shadow with it are bind
mounted over /etc in a private mount namespace, the machine's /etc is
not touched. Needs root (netns, mounts) and Debian's openssh-server
(tools/test-setup.sh installs it).

    python -m tools.testvms.sshd_host   # start one, print it, Ctrl-C ends
"""

from __future__ import annotations

import contextlib
import dataclasses
import ipaddress
import os
import pwd
import random
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

SSHD = "/usr/sbin/sshd"
USER = "tngssh"
NOGROUP = 65534
POOL = ipaddress.ip_network("10.254.0.0/16")
START_TIMEOUT = 20.0
_MOUNT_AND_EXEC = (
    'mount --bind "$1" /etc/passwd && mount --bind "$2" /etc/shadow '
    '&& exec "$3" -D -e -f "$4"'
)


class SshdHostError(RuntimeError):
    """The test host could not be created or started."""


def _run(*argv: str, stdin: str | None = None) -> str:
    proc = subprocess.run(
        argv, input=stdin, capture_output=True, text=True, check=False
    )
    if proc.returncode:
        raise SshdHostError(f"{' '.join(argv)}: {proc.stderr.strip()}")
    return proc.stdout


def _keygen(path: Path, comment: str) -> str:
    _run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", comment,
         "-f", str(path))  # fmt: skip
    return path.with_suffix(".pub").read_text().strip()


def _free_subnet() -> ipaddress.IPv4Network:
    """A /30 of the pool that no interface on this machine uses."""
    used = _run("ip", "-o", "-4", "addr", "show")
    for _ in range(200):
        subnet = random.choice(list(POOL.subnets(new_prefix=24)))
        subnet = random.choice(list(subnet.subnets(new_prefix=30)))
        if f" {subnet[1]}/" not in used and f" {subnet[2]}/" not in used:
            return subnet
    raise SshdHostError("no free /30 in 10.254.0.0/16")


STALE_AFTER = 600.0  # s: a namespace this old without a process is stale


def sweep_stale(prefix: str = "tngssh-") -> list[str]:
    """Delete test namespaces a killed run left behind (no process left
    in them, older than STALE_AFTER), with their veth pairs and routes.

    A run killed mid-test (a session's end, kill -9) leaves its network
    namespaces, their host-side veths and the /32 routes to servers'
    fixed IPs; a later run giving a new host the same address would then
    fail on "ip route add: File exists". Young or busy namespaces are
    another test's and stay."""
    swept = []
    now = time.time()
    for entry in sorted(Path("/run/netns").glob(f"{prefix}*")):
        try:
            age = now - entry.stat().st_mtime
        except OSError:
            continue
        pids = subprocess.run(
            ["ip", "netns", "pids", entry.name],
            capture_output=True, text=True, check=False,
        ).stdout.split()  # fmt: skip
        if age < STALE_AFTER or pids:
            continue
        outer = f"tsh{entry.name.rsplit('-', 1)[-1]}h"
        for argv in (["ip", "link", "del", outer],
                     ["ip", "netns", "del", entry.name]):  # fmt: skip
            subprocess.run(argv, check=False, capture_output=True)
        swept.append(entry.name)
    return swept


def _free_uid() -> int:
    uid = 59990
    while True:
        try:
            pwd.getpwuid(uid)
        except KeyError:
            return uid
        uid += 1


@dataclasses.dataclass
class SshdHost:
    """One namespace with its address and (when started) its sshd."""

    name: str
    workdir: Path
    address: str
    peer_address: str
    port: int
    username: str
    password: str
    client_key_path: Path
    host_public_key: str
    process: subprocess.Popen | None = None

    @property
    def client_private_key(self) -> str:
        return self.client_key_path.read_text()

    @property
    def host_fingerprint(self) -> str:
        out = _run("ssh-keygen", "-lf", str(self.workdir / "hostkey.pub"))
        return out.split()[1]

    @property
    def log(self) -> str:
        path = self.workdir / "sshd.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def start(self) -> None:
        """Start sshd in the namespace; return once it accepts TCP."""
        if self.process is not None and self.process.poll() is None:
            return
        Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)  # privsep dir
        w = self.workdir
        with open(w / "sshd.log", "ab") as log:
            self.process = subprocess.Popen(
                ["ip", "netns", "exec", self.name, "unshare", "-m",
                 "sh", "-c", _MOUNT_AND_EXEC, "sh", str(w / "passwd"),
                 str(w / "shadow"), SSHD, str(w / "sshd_config")],
                stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SshdHostError(f"sshd exited: {self.log[-2000:]}")
            with contextlib.suppress(OSError):
                socket.create_connection((self.address, self.port), 1).close()
                return
            time.sleep(0.1)
        raise SshdHostError(f"sshd not listening: {self.log[-2000:]}")

    def stop(self) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)
        self.process = None

    @property
    def outer_link(self) -> str:
        """The host side of the namespace's veth pair."""
        return f"tsh{self.name.rsplit('-', 1)[-1]}h"

    def kill_all(self) -> None:
        """Kill every process of the namespace (sshd's children and what
        they left running in sessions of their own: etcd, haproxy)."""
        out = subprocess.run(
            ["ip", "netns", "pids", self.name],
            capture_output=True,
            text=True,
            check=False,
        )
        for pid in out.stdout.split():
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.kill(int(pid), signal.SIGKILL)

    def destroy(self) -> None:
        """Stop sshd, kill what still runs in the namespace, delete the
        namespace (and its veth pair), the files."""
        self.stop()
        self.kill_all()
        # The veth pair (and the host route through it) goes now, even if
        # the kernel frees the namespace later (sockets still closing):
        # a new host may get the same address at once (a healed server).
        subprocess.run(["ip", "link", "del", self.outer_link], check=False,
                       capture_output=True)  # fmt: skip
        subprocess.run(["ip", "netns", "del", self.name], check=False,
                       capture_output=True)  # fmt: skip
        shutil.rmtree(self.workdir, ignore_errors=True)


def _write_files(
    w: Path, address: str, uid: int, password: str, env: dict[str, str]
) -> None:
    home = w / "home"
    home.mkdir()
    os.chown(home, uid, NOGROUP)
    crypted = _run("openssl", "passwd", "-6", "-stdin", stdin=password)
    crypted = crypted.strip()
    passwd = Path("/etc/passwd").read_text()
    shadow = Path("/etc/shadow").read_text()
    (w / "passwd").write_text(
        f"{passwd.rstrip()}\n{USER}:x:{uid}:{NOGROUP}::{home}:/bin/sh\n"
    )
    (w / "shadow").write_text(
        f"{shadow.rstrip()}\n{USER}:{crypted}:19000:0:99999:7:::\n"
    )
    os.chmod(w / "shadow", 0o600)
    (w / "sshd_config").write_text(
        f"ListenAddress {address}\nPort 22\n"
        f"HostKey {w / 'hostkey'}\nPidFile {w / 'sshd.pid'}\n"
        f"AuthorizedKeysFile {w / 'authorized_keys'}\n"
        "PubkeyAuthentication yes\nPasswordAuthentication yes\n"
        "KbdInteractiveAuthentication no\nUsePAM no\nStrictModes no\n"
        f"PermitRootLogin no\nAllowUsers {USER}\nLogLevel VERBOSE\n"
        "MaxStartups 50\nSubsystem sftp internal-sftp\n"
        + "".join(f"SetEnv {k}={v}\n" for k, v in env.items())
    )


def host_key_from_user_data(user_data: str) -> str:
    """The Ed25519 private host key a ``#cloud-config`` hands a VM
    (``ssh_keys: ed25519_private``), as cloud-init would install it."""
    import yaml  # noqa: PLC0415 - only this helper needs it

    if not user_data.startswith("#cloud-config"):
        raise SshdHostError("user data is not a #cloud-config document")
    doc = yaml.safe_load(user_data) or {}
    key = (doc.get("ssh_keys") or {}).get("ed25519_private")
    if not key:
        raise SshdHostError("user data has no ssh_keys.ed25519_private")
    return key


def _install_host_key(path: Path, private_key: str) -> str:
    """Write a given private host key (0600); its public key line."""
    path.write_text(private_key if private_key.endswith("\n") else
                    private_key + "\n")  # fmt: skip
    os.chmod(path, 0o600)
    public = _run("ssh-keygen", "-y", "-f", str(path)).strip()
    path.with_suffix(".pub").write_text(public + "\n")
    return public


def create(
    start: bool = True,
    host_key: str | None = None,
    *,
    address: str | None = None,
    routes: tuple[str, ...] = (),
    env: dict[str, str] | None = None,
    name_prefix: str = "tngssh",
) -> SshdHost:
    """A new test host; with ``start`` its sshd is already listening.

    ``host_key``: the private host key to serve (as a VM gets it from its
    user data); by default one is generated here. ``address``: an extra
    address (a test server's fixed IP) the namespace carries as a /32 and
    sshd listens on, reached through one host route to that address only
    (:mod:`tools.testvms.bodies`). ``routes``: host addresses (/32) the
    namespace reaches through its veth (e.g. the API server stand-in).
    ``env``: sshd ``SetEnv`` variables of every session."""
    sweep_stale(f"{name_prefix}-")
    suffix = secrets.token_hex(3)
    name = f"{name_prefix}-{suffix}"
    workdir = Path(tempfile.mkdtemp(prefix=f"{name}-"))
    os.chmod(workdir, 0o755)  # sshd reads authorized_keys as the user
    subnet = _free_subnet()
    host = SshdHost(
        name=name,
        workdir=workdir,
        address=address or str(subnet[2]),
        peer_address=str(subnet[1]),
        port=22,
        username=USER,
        password=secrets.token_urlsafe(12),
        client_key_path=workdir / "client_key",
        host_public_key="",
    )
    try:
        if host_key:
            public = _install_host_key(workdir / "hostkey", host_key)
        else:
            public = _keygen(workdir / "hostkey", name)
        host.host_public_key = " ".join(public.split()[:2])
        (workdir / "authorized_keys").write_text(
            _keygen(workdir / "client_key", "tacker-ng test") + "\n"
        )
        os.chmod(workdir / "authorized_keys", 0o644)
        _write_files(
            workdir, host.address, _free_uid(), host.password, env or {}
        )
        outer, inner = f"tsh{suffix}h", f"tsh{suffix}n"
        _run("ip", "netns", "add", name)
        _run("ip", "link", "add", outer, "type", "veth", "peer", "name", inner)
        _run("ip", "link", "set", inner, "netns", name)
        _run("ip", "addr", "add", f"{host.peer_address}/30", "dev", outer)
        _run("ip", "link", "set", outer, "up")
        ns = ("ip", "netns", "exec", name)
        _run(*ns, "ip", "addr", "add", f"{subnet[2]}/30", "dev", inner)
        _run(*ns, "ip", "link", "set", inner, "up")
        _run(*ns, "ip", "link", "set", "lo", "up")
        if address:
            _run(*ns, "ip", "addr", "add", f"{address}/32", "dev", inner)
            # The host reaches this one address through the veth; no
            # other traffic is routed (no default route, no forwarding).
            via = ("via", str(subnet[2]), "dev", outer)
            # replace, not add: a route a killed run left is overwritten.
            _run("ip", "route", "replace", f"{address}/32", *via,
                 "src", host.peer_address)  # fmt: skip
        for route in routes:
            _run(*ns, "ip", "route", "add", f"{route}/32", "via",
                 host.peer_address)  # fmt: skip
        if start:
            host.start()
    except BaseException:
        host.destroy()
        raise
    return host


def main() -> None:
    host = create()
    print(f"sshd {host.username}@{host.address} host key "
          f"{host.host_fingerprint}; password {host.password}; key "
          f"{host.client_key_path}; Ctrl-C to end")  # fmt: skip
    try:
        signal.pause()
    except KeyboardInterrupt:
        pass
    finally:
        host.destroy()


if __name__ == "__main__":
    main()
