"""``instantiatedVnfInfo.vnfcInfo`` (SOL003 5.5.3.23) kept beside
``vnfcResourceInfo``: one VnfcInfo per VNFC, the same id (so the
``vnfcInstanceId`` of heal and operate requests names both), and the
VNFC's state, STARTED unless an operate stopped it. Pure logic.
"""

from collections.abc import Iterable, Mapping
from typing import Any

STARTED = "STARTED"
STOPPED = "STOPPED"


def with_vnfc_info(
    info: dict[str, Any],
    previous: Mapping[str, Any] | None,
    states: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """``info`` with a ``vnfcInfo`` for each of its VNFCs. A VNFC's state
    is, first found: ``states`` (id -> STARTED/STOPPED), ``info``'s own
    vnfcInfo (what the driver said), ``previous``'s (the instantiatedVnfInfo
    before the operation), else STARTED."""
    known: dict[str, str] = {}
    for source in (previous or {}, info):
        for item in source.get("vnfcInfo") or []:
            known[item["id"]] = item.get("vnfcState", STARTED)
    known.update(states or {})
    info["vnfcInfo"] = [
        {
            "id": vnfc["id"],
            "vduId": vnfc["vduId"],
            "vnfcResourceInfoId": vnfc["id"],
            "vnfcState": known.get(vnfc["id"], STARTED),
        }
        for vnfc in info.get("vnfcResourceInfo") or []
    ]
    return info


def targets(
    info: Mapping[str, Any], vnfc_instance_ids: Iterable[str] | None
) -> list[Mapping[str, Any]]:
    """The vnfcResourceInfo entries an operate request names (all when it
    names none); unknown ids raise KeyError with the first one."""
    vnfcs = list(info.get("vnfcResourceInfo") or [])
    wanted = list(vnfc_instance_ids or [])
    if not wanted:
        return vnfcs
    by_id = {v["id"]: v for v in vnfcs}
    for vnfc_id in wanted:
        if vnfc_id not in by_id:
            raise KeyError(vnfc_id)
    return [by_id[v] for v in wanted]
