"""Telling Prometheus what to scrape: file-based service discovery.

The observer lists every VIM once per cycle anyway (Nova's servers with
their addresses, the pods of a cluster); after each VIM it hands its
instances' VNFCs here, and this module writes one target file per VNF
instance (``[pm] file_sd_dir``):

* ``openstack/<vnfInstanceId>.json``: each Nova server of the VNF at
  ``<address>:[pm] scrape_port`` (the address on ``[pm] scrape_network``,
  or the first fixed IPv4 address);
* ``kubernetes/<vnfInstanceId>.json``: each pod, scraped through the
  cluster API server's pod proxy (``__address__`` the API server,
  ``__metrics_path__`` ``[pm] kubernetes_metrics_path``), so the scrape
  job holding the cluster's credentials reaches pods that Prometheus
  cannot route to.

Every target carries ``vnfInstanceId``, ``vnfcId`` and ``vduId``: the
labels the measurement table's queries group by. Files are written
atomically (a rename) and only when their content changes, so
Prometheus's inotify sees one change per real change. A file whose VNF
is no longer INSTANTIATED is removed by :func:`sweep`.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import urllib.parse
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from oslo_config import cfg
from oslo_log import log as logging

LOG = logging.getLogger(__name__)

OPENSTACK = "openstack"
KUBERNETES = "kubernetes"
KINDS = (OPENSTACK, KUBERNETES)
SUFFIX = ".json"


def _labels(vnf_id: str, vnfc_id: str, vdu_id: str) -> dict[str, str]:
    return {"vnfInstanceId": vnf_id, "vnfcId": vnfc_id, "vduId": vdu_id}


def pick_address(
    addresses: Iterable[tuple[str, str, int, str]], network: str
) -> str | None:
    """The address of a Nova server Prometheus scrapes, from its
    (network, address, IP version, type) tuples: the first fixed IPv4
    address on ``network``, or on any network (sorted by name) when
    ``network`` is empty."""
    for net, addr, version, kind in sorted(addresses):
        if network and net != network:
            continue
        if version == 4 and kind == "fixed" and addr:
            return addr
    return None


def server_targets(
    vnf_id: str,
    vnfcs: Iterable[tuple[str, str, str | None]],
    port: int,
) -> list[dict[str, Any]]:
    """Target groups of a VNF's servers: (vnfcId, vduId, address)."""
    groups = []
    for vnfc_id, vdu_id, address in sorted(vnfcs):
        if not address:
            continue
        host = f"[{address}]" if ":" in address else address
        groups.append(
            {
                "targets": [f"{host}:{port}"],
                "labels": _labels(vnf_id, vnfc_id, vdu_id),
            }
        )
    return groups


def pod_targets(
    vnf_id: str,
    api_endpoint: str,
    vnfcs: Iterable[tuple[str, str, str, str]],
    path_template: str,
) -> list[dict[str, Any]]:
    """Target groups of a VNF's pods through the API server's proxy:
    (vnfcId, vduId, namespace, pod name)."""
    url = urllib.parse.urlsplit(api_endpoint)
    port = url.port or (443 if url.scheme == "https" else 80)
    address = f"{url.hostname}:{port}"
    prefix = url.path.rstrip("/")
    groups = []
    for vnfc_id, vdu_id, namespace, pod in sorted(vnfcs):
        path = path_template.format(
            namespace=urllib.parse.quote(namespace, safe=""),
            pod=urllib.parse.quote(pod, safe=""),
        )
        labels = _labels(vnf_id, vnfc_id, vdu_id)
        labels["__metrics_path__"] = prefix + path
        labels["__scheme__"] = url.scheme or "https"
        groups.append({"targets": [address], "labels": labels})
    return groups


class TargetFiles:
    """The discovery folder (``[pm] file_sd_dir``)."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root)
        for kind in KINDS:
            (self.root / kind).mkdir(parents=True, exist_ok=True)

    def path(self, kind: str, vnf_id: str) -> Path:
        if kind not in KINDS or "/" in vnf_id or vnf_id.startswith("."):
            raise ValueError(f"no target file for {kind}/{vnf_id}")
        return self.root / kind / f"{vnf_id}{SUFFIX}"

    def write(
        self, kind: str, vnf_id: str, groups: list[dict[str, Any]]
    ) -> bool:
        """Write (or, with no groups, remove) a VNF's file; True when it
        changed."""
        path = self.path(kind, vnf_id)
        if not groups:
            return self.remove(kind, vnf_id)
        text = json.dumps(groups, indent=1, sort_keys=True) + "\n"
        try:
            if path.read_text(encoding="utf-8") == text:
                return False
        except FileNotFoundError:
            pass
        fd, tmp = tempfile.mkstemp(
            dir=path.parent, prefix=".tmp-", suffix=SUFFIX
        )
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.chmod(tmp, 0o644)
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        return True

    def remove(self, kind: str, vnf_id: str) -> bool:
        try:
            self.path(kind, vnf_id).unlink()
        except FileNotFoundError:
            return False
        return True

    def vnf_ids(self) -> set[str]:
        """VNF instance ids that have a file of either kind."""
        out = set()
        for kind in KINDS:
            for path in (self.root / kind).glob(f"*{SUFFIX}"):
                if not path.name.startswith("."):
                    out.add(path.name[: -len(SUFFIX)])
        return out

    def sweep(self, keep: set[str]) -> int:
        """Remove the files of VNFs not in ``keep``; how many went."""
        gone = 0
        for vnf_id in self.vnf_ids() - keep:
            for kind in KINDS:
                gone += self.remove(kind, vnf_id)
        if gone:
            LOG.info("PM discovery: %d target files of VNFs gone", gone)
        return gone


def target_files(conf: cfg.ConfigOpts = cfg.CONF) -> TargetFiles | None:
    """The discovery folder, or None when ``[pm] file_sd_dir`` is unset."""
    if not conf.pm.file_sd_dir:
        return None
    return TargetFiles(conf.pm.file_sd_dir)
