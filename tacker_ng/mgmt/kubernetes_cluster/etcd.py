"""Pure helpers for the masters' etcd cluster (Debian etcd-server).

Each master runs one member named after its node, peers on
``https://<address>:2380`` (TLS with client certificates for peers and
clients, from a CA made on the first master; ``read_etcd_ca.sh`` hands it
to a joining master). The package script ``etcd_member.sh`` changes
the membership on a live master; what it is given and what it prints are
checked here, so no request value reaches a remote shell unvalidated.
"""

from __future__ import annotations

import base64
import binascii
import re

from tacker_ng.mgmt.kubernetes_cluster.commands import (
    ClusterError,
    ip_address,
    node_name,
)

ETCD_MEMBER = "Scripts/etcd_member.sh"
READ_ETCD_CA = "Scripts/read_etcd_ca.sh"
PEER_PORT = 2380

_INITIAL = re.compile(r'^ETCD_INITIAL_CLUSTER="?([^"\s]*)"?$')
_ENTRY = re.compile(
    r"^([a-z0-9][-a-z0-9.]*)=https://([0-9a-fA-F.:\[\]]+):2380$"
)


def peer_url(ip: str) -> str:
    """The peer URL of the member on ``ip``."""
    ip = ip_address(ip)
    host = f"[{ip}]" if ":" in ip else ip
    return f"https://{host}:{PEER_PORT}"


def member_add(node: str, ip: str) -> list[str]:
    """``etcd_member.sh`` arguments adding ``node``'s member."""
    return ["add", node_name(node), peer_url(ip)]


def member_remove(node: str) -> list[str]:
    """``etcd_member.sh`` arguments removing ``node``'s member."""
    return ["remove", node_name(node)]


def initial_cluster(output: str, node: str, ip: str) -> str:
    """The ``ETCD_INITIAL_CLUSTER`` that ``etcd_member.sh add`` printed,
    checked entry by entry and required to name the new member."""
    for line in output.splitlines():
        match = _INITIAL.match(line.strip())
        if not match:
            continue
        entries = match.group(1).split(",")
        if not all(_ENTRY.match(e) for e in entries):
            break
        if f"{node}={peer_url(ip)}" not in entries:
            break
        # Sorted: the same string whether from ``member add`` or, on a
        # re-run, from the member list (the member's config is compared).
        return ",".join(sorted(entries))
    raise ClusterError(
        reason=f"etcd printed no usable initial cluster for member {node}"
    )


_PEM_CERT = re.compile(
    rb"-----BEGIN CERTIFICATE-----\r?\n[A-Za-z0-9+/=\r\n]+"
    rb"-----END CERTIFICATE-----"
)
_PEM_KEY = re.compile(
    rb"-----BEGIN (EC |RSA )?PRIVATE KEY-----\r?\n[A-Za-z0-9+/=\r\n]+"
    rb"-----END (EC |RSA )?PRIVATE KEY-----"
)


def ca_bundle(output: str) -> str:
    """The etcd CA line ``read_etcd_ca.sh`` printed (base64 of the CA's
    certificate and key, PEM), checked before it is handed to another VM
    on stdin; it is a secret and never shown in the error."""
    line = output.strip()
    try:
        data = base64.b64decode(line, validate=True)
    except (binascii.Error, ValueError):
        data = b""
    if not (_PEM_CERT.search(data) and _PEM_KEY.search(data)):
        raise ClusterError(
            reason="the master printed no etcd CA certificate and key"
        )
    return line
