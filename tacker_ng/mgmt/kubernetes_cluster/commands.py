"""Pure helpers: the package scripts' arguments, join data, kubeconfigs.

No I/O here, so what becomes a remote argument or a registered VIM is
unit tested on hostile input. Secrets (bootstrap tokens, certificate
keys, the etcd CA) only ever travel on a script's stdin.
"""

from __future__ import annotations

import base64
import dataclasses
import ipaddress
import re
import secrets
import string
from typing import Any

import yaml

from tacker_ng import exceptions

#: Package scripts (``Scripts/`` of the VNF package) run over SSH.
INSTALL_MASTER = "Scripts/install_master.sh"
INSTALL_WORKER = "Scripts/install_worker.sh"
JOIN_COMMAND = "Scripts/join_command.sh"
READ_KUBECONFIG = "Scripts/read_kubeconfig.sh"

_TOKEN = re.compile(r"^[a-z0-9]{6}\.[a-z0-9]{16}$")
_HASH = re.compile(r"^sha256:[0-9a-f]{64}$")
_ENDPOINT = re.compile(r"^[A-Za-z0-9\[][A-Za-z0-9.:\[\]-]{0,254}$")
_ALNUM = string.ascii_lowercase + string.digits


class ClusterError(exceptions.UnprocessableEntity):
    title = "Kubernetes Cluster Error"
    message = "Kubernetes cluster: {reason}"


@dataclasses.dataclass(frozen=True)
class JoinData:
    """What a node needs to join: public part in argv, secrets on stdin."""

    endpoint: str
    ca_hash: str
    token: str = dataclasses.field(repr=False)
    certificate_key: str | None = dataclasses.field(default=None, repr=False)
    #: A control-plane join's etcd CA (``etcd.ca_bundle``).
    etcd_ca: str | None = dataclasses.field(default=None, repr=False)

    def secrets(self) -> list[str]:
        return [
            s for s in (self.token, self.certificate_key, self.etcd_ca) if s
        ]

    def stdin(self) -> str:
        """Token (then certificate key, etcd CA) lines for the script."""
        lines = [self.token]
        if self.certificate_key:
            lines.append(self.certificate_key)
        if self.etcd_ca:
            lines.append(self.etcd_ca)
        return "\n".join(lines) + "\n"


def new_token() -> str:
    """A kubeadm bootstrap token ``[a-z0-9]{6}.[a-z0-9]{16}``."""
    pick = secrets.choice
    return (
        "".join(pick(_ALNUM) for _ in range(6))
        + "."
        + "".join(pick(_ALNUM) for _ in range(16))
    )


def new_certificate_key() -> str:
    """A kubeadm certificate key (32 random bytes, hex)."""
    return secrets.token_hex(32)


def endpoint(address: str, port: int = 6443) -> str:
    """``host:port`` of the control plane, refusing anything but an IP
    address or a DNS name (it becomes a script argument)."""
    try:
        ip = ipaddress.ip_address(address)
        host = f"[{ip}]" if ip.version == 6 else str(ip)
    except ValueError:
        # Not starting with "-": kubeadm would read it as an option.
        if not re.fullmatch(
            r"[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?", address
        ):
            raise ClusterError(
                reason=f"control plane address {address!r} is not an IP "
                "address nor a DNS name"
            ) from None
        host = address
    return f"{host}:{port}"


def parse_join(output: str, token: str) -> tuple[str, str]:
    """(endpoint, CA hash) from ``kubeadm token create --print-join-command``.

    The line must be a plain ``kubeadm join <endpoint> --token <token>
    --discovery-token-ca-cert-hash sha256:<hex>`` for the token we made;
    anything else is refused rather than passed on to other VMs.
    """
    for line in output.splitlines():
        words = line.split()
        if words[:2] != ["kubeadm", "join"] or len(words) < 7:
            continue
        opts = dict(zip(words[3::2], words[4::2], strict=False))
        got_token = opts.get("--token")
        ca_hash = opts.get("--discovery-token-ca-cert-hash", "")
        if (
            got_token == token
            and _HASH.match(ca_hash)
            and _ENDPOINT.match(words[2])
        ):
            return words[2], ca_hash
    raise ClusterError(reason="the master printed no usable join command")


_NODE = re.compile(r"^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$")


def node_name(name: str) -> str:
    """A Kubernetes node name (RFC 1123 subdomain), else 422."""
    if not _NODE.match(name):
        raise ClusterError(reason=f"{name!r} is not a valid node name")
    return name


def install_master_init(
    control_plane: str, pod_cidr: str, node: str, address: str
) -> list[str]:
    """``install_master.sh init``: kubeadm init and a new etcd cluster of
    this master's member (on ``address``)."""
    cidr = str(ipaddress.ip_network(pod_cidr))
    return ["init", control_plane, cidr, node_name(node), ip_address(address)]


def install_master_join(
    join: JoinData, node: str, address: str, initial_cluster: str
) -> list[str]:
    """``install_master.sh join``: the etcd member (already added, see
    ``etcd.initial_cluster``) joins, then kubeadm join --control-plane."""
    return ["join", join.endpoint, join.ca_hash, node_name(node),
            ip_address(address), initial_cluster]  # fmt: skip


def ip_address(value: str) -> str:
    """An IP address (a script argument), else 422."""
    try:
        return str(ipaddress.ip_address(value))
    except ValueError:
        raise ClusterError(reason=f"{value!r} is not an IP address") from None


def install_worker(join: JoinData, node: str) -> list[str]:
    return [join.endpoint, join.ca_hash, node_name(node)]


def check_token(token: str) -> str:
    if not _TOKEN.match(token):
        raise ClusterError(reason="malformed bootstrap token")
    return token


def vim_from_kubeconfig(text: str, vim_id: str) -> dict[str, Any]:
    """A ``ETSINFV.KUBERNETES.V_1`` VimConnectionInfo from an admin
    kubeconfig (its current context's cluster and user, data embedded)."""
    try:
        doc = yaml.safe_load(text)
        ctx_name = doc["current-context"]
        ctx = next(c for c in doc["contexts"] if c["name"] == ctx_name)
        ctx = ctx["context"]
        cluster = next(
            c for c in doc["clusters"] if c["name"] == ctx["cluster"]
        )["cluster"]
        user = next(u for u in doc["users"] if u["name"] == ctx["user"])
        user = user["user"]
    except (yaml.YAMLError, KeyError, TypeError, StopIteration) as exc:
        raise ClusterError(
            reason=f"the master's admin kubeconfig is not usable "
            f"({type(exc).__name__})"
        ) from None
    interface: dict[str, Any] = {"endpoint": cluster.get("server")}
    if cluster.get("certificate-authority-data"):
        interface["ssl_ca_cert"] = _pem(cluster["certificate-authority-data"])
    access: dict[str, Any] = {}
    if user.get("token"):
        access["bearer_token"] = user["token"]
    elif user.get("client-certificate-data") and user.get("client-key-data"):
        access["client_cert"] = _pem(user["client-certificate-data"])
        access["client_key"] = _pem(user["client-key-data"])
    if not str(interface["endpoint"] or "").startswith("https://") or not (
        access and interface.get("ssl_ca_cert")
    ):
        raise ClusterError(
            reason="the master's admin kubeconfig has no https server with "
            "an embedded CA and credentials"
        )
    return {
        "vimId": vim_id,
        "vimType": "ETSINFV.KUBERNETES.V_1",
        "interfaceInfo": interface,
        "accessInfo": access,
    }


def _pem(data: str) -> str:
    return base64.b64decode(data).decode()
