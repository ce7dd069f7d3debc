"""Bodies for minicloud's servers: a real sshd on each server's fixed IP.

Test tool, never imported by the product. minicloud's Nova runs the fake
driver: its servers are ACTIVE with fixed IPs but nothing answers there.
For each ACTIVE server of a test, :class:`Bodies` makes a network
namespace carrying the server's fixed IP (one /32 host route to it through
a veth, nothing else routed) and starts OpenSSH's sshd in it serving the
Ed25519 host key found in the server's user data (Nova
``OS-EXT-SRV-ATTR:user_data``, microversion >= 2.3), as cloud-init would.

On the VM's PATH: Debian's kubectl, etcd, etcdctl and haproxy, and
three stand-ins, ``kubeadm`` (tools/testvms/kubeadm: registers/removes the
node in simcloud-k8s), ``systemctl`` (tools/testvms/systemctl: runs etcd
and haproxy in the VM's namespace, in sessions of their own so they outlive
the SSH session) and ``sudo`` (runs its command as the login user: the
VM's "root" files live under its home: ``SYSCONF`` for /etc, ``VARLIB``
for /var/lib). The VMs reach each other (etcd peers): each namespace has a
/32 route to every other body's address through its veth, and the host
forwards what enters from these veths only (per-interface forwarding, the
machine's ``ip_forward`` untouched). Destroying a body kills every process
of its namespace (etcd, haproxy) before deleting it. The simulator is
reached on an address of its own (:class:`ApiAddress`, a veth pair on
the host) that every namespace routes to through its veth: the VMs' "API
server".

Bodies are removed with their server; :meth:`Bodies.sync` follows what
Nova lists, so a healed server's new IP gets a new body.
"""

from __future__ import annotations

import base64
import dataclasses
import json
import os
import secrets
import shutil
import subprocess
from pathlib import Path
from typing import Any

from tools.testvms import sshd_host

HERE = Path(__file__).resolve().parent
STAND_INS = {"kubeadm": HERE / "kubeadm", "systemctl": HERE / "systemctl"}
SUDO = (
    "#!/bin/sh\n# sudo STAND-IN of the test VMs: run as the login user.\n"
    'exec "$@"\n'
)


def _ip(*argv: str) -> None:
    sshd_host._run("ip", *argv)  # noqa: SLF001 - same tool package


@dataclasses.dataclass
class ApiAddress:
    """A host address for the simulator that the VM namespaces reach."""

    address: str
    link: str

    @classmethod
    def create(cls) -> ApiAddress:
        subnet = sshd_host._free_subnet()  # noqa: SLF001
        link = f"tngapi{secrets.token_hex(3)}"
        _ip("link", "add", link, "type", "veth", "peer", "name", f"{link}p")
        try:
            _ip("addr", "add", f"{subnet[1]}/32", "dev", link)
            _ip("link", "set", link, "up")
            _ip("link", "set", f"{link}p", "up")
        except BaseException:
            subprocess.run(["ip", "link", "del", link], check=False)
            raise
        return cls(str(subnet[1]), link)

    def destroy(self) -> None:
        subprocess.run(
            ["ip", "link", "del", self.link], check=False, capture_output=True
        )


def vm_kubeconfig(sim_kubeconfig: str, ca_path: str, endpoint: str) -> str:
    """The simulator's token kubeconfig as a VM uses it: CA embedded,
    ``endpoint`` (https://<ApiAddress>:<port>) as the server."""
    config = json.loads(sim_kubeconfig)
    ca = base64.b64encode(Path(ca_path).read_bytes()).decode()
    config["clusters"][0]["cluster"] = {
        "server": endpoint,
        "certificate-authority-data": ca,
    }
    return json.dumps(config)


def user_data(server: Any) -> str:
    raw = getattr(server, "OS-EXT-SRV-ATTR:user_data", None)
    return base64.b64decode(raw).decode() if raw else ""


def fixed_ip(server: Any) -> str:
    for addresses in (server.addresses or {}).values():
        for item in addresses:
            if item.get("OS-EXT-IPS:type", "fixed") == "fixed":
                return item["addr"]
    raise sshd_host.SshdHostError(f"server {server.name} has no fixed IP")


@dataclasses.dataclass
class Body:
    server_id: str
    name: str
    host: sshd_host.SshdHost
    #: Other bodies' addresses this namespace routes to.
    peers: set[str] = dataclasses.field(default_factory=set)

    @property
    def etc(self) -> Path:
        """What the VM's /etc/kubernetes is (the stand-ins write here)."""
        return self.host.workdir / "home" / "etc-kubernetes"


class Bodies:
    """Every embodied server of a test, by server id."""

    def __init__(
        self,
        api: ApiAddress,
        kubeconfig: str,
        authorized_key: str,
    ) -> None:
        self.api = api
        self.kubeconfig = kubeconfig
        self.authorized_key = authorized_key
        self.bodies: dict[str, Body] = {}

    def _embody(self, server: Any) -> Body:
        try:
            private = sshd_host.host_key_from_user_data(user_data(server))
        except sshd_host.SshdHostError:
            private = None  # no key handed over: sshd makes its own
        address = fixed_ip(server)
        host = sshd_host.create(
            start=False,
            host_key=private,
            address=address,
            routes=(self.api.address,),
            name_prefix="tngvm",
        )
        try:
            w = host.workdir
            home = w / "home"
            uid = home.stat().st_uid
            bin_dir = w / "bin"
            bin_dir.mkdir()
            for name, src in STAND_INS.items():
                shutil.copy(src, bin_dir / name)
                os.chmod(bin_dir / name, 0o755)
            (bin_dir / "sudo").write_text(SUDO)
            os.chmod(bin_dir / "sudo", 0o755)
            kubeconfig = w / "sim-kubeconfig"
            kubeconfig.write_text(self.kubeconfig)
            os.chmod(kubeconfig, 0o644)
            etc = home / "etc-kubernetes"
            for d in (etc, home / "sysconf", home / "varlib", home / "run"):
                d.mkdir()
                os.chown(d, uid, -1)
            (w / "authorized_keys").write_text(self.authorized_key + "\n")
            env = {
                "PATH": f"{bin_dir}:/usr/local/bin:/usr/bin:/bin:/usr/sbin",
                "TNG_NODE_NAME": server.name,
                "TNG_SIM_KUBECONFIG": str(kubeconfig),
                "TNG_ETC": str(etc),
                "KUBE_ETC": str(etc),
                "KUBE_ADMIN_CONF": str(etc / "admin.conf"),
                "SYSCONF": str(home / "sysconf"),
                "VARLIB": str(home / "varlib"),
                "TNG_RUN": str(home / "run"),
            }
            with (w / "sshd_config").open("a") as out:
                # One line: sshd keeps only the first SetEnv directive.
                pairs = " ".join(f"{k}={v}" for k, v in env.items())
                out.write(f"SetEnv {pairs}\n")
            host.start()
            forwarding = (
                f"/proc/sys/net/ipv4/conf/{host.outer_link}/forwarding"
            )
            Path(forwarding).write_text("1\n")
        except BaseException:
            host.destroy()
            raise
        return Body(server.id, server.name, host)

    def sync(self, servers: list[Any]) -> dict[str, Body]:
        """Bodies for the ACTIVE ones of ``servers``; others' removed."""
        active = {s.id: s for s in servers if s.status == "ACTIVE"}
        for server_id in list(self.bodies):
            if server_id not in active:
                self.bodies.pop(server_id).host.destroy()
        for server_id, server in active.items():
            if server_id not in self.bodies:
                self.bodies[server_id] = self._embody(server)
        self._route_peers()
        return dict(self.bodies)

    def _route_peers(self) -> None:
        """Each namespace routes to exactly the other bodies' addresses."""
        addresses = {b.host.address for b in self.bodies.values()}
        for body in self.bodies.values():
            want = addresses - {body.host.address}
            ns = ("netns", "exec", body.host.name, "ip", "route")
            for gone in body.peers - want:
                _ip(*ns, "del", f"{gone}/32")
            for new in want - body.peers:
                # From the fixed IP: the peer routes back to it only.
                via = ("via", body.host.peer_address)
                _ip(*ns, "replace", f"{new}/32", *via,
                    "src", body.host.address)  # fmt: skip
            body.peers = want

    def by_name(self, name: str) -> Body:
        for body in self.bodies.values():
            if body.name == name:
                return body
        raise KeyError(name)

    def destroy(self) -> None:
        for body in self.bodies.values():
            body.host.destroy()
        self.bodies.clear()
