"""Which VNFCs the stack holds before and after an operation.

Turns the grant (new VNFCs with their zones, VIM flavours and images),
the instance's ``vnfcResourceInfo`` (existing VNFCs, their index and
zone in ``metadata``), the request and a revert's VnfSnapshot (the VNFC
set it brings back) into a :class:`Plan`. Every VNFC
becomes one Heat resource ``<VDU>-<index>`` (StandardUserData naming).
"""

import dataclasses
from collections.abc import Iterable
from typing import Any

from tacker_ng.infra import base
from tacker_ng.infra.openstack import errors
from tacker_ng.objects import lcm
from tacker_ng.objects.vnfd import DeploymentFlavour

SERVER_TYPE = "OS::Nova::Server"


@dataclasses.dataclass
class Vnfc:
    """One VNFC: SOL id, VDU, index (resource name) and placement."""

    id: str
    vdu_id: str
    index: int
    zone: str | None
    flavor: str
    image: str
    server_id: str | None = None
    #: Nova server group the server must join (a reservation's).
    server_group: str | None = None
    #: Public SSH host key the VNFM made for the server (OpenSSH line).
    host_key: str | None = None
    #: Zone Nova chose for a server asked for no zone (``zone`` None):
    #: reported as zoneId, never sent back to Heat as a constraint (the
    #: server would be replaced just to pin it where it already is).
    observed_zone: str | None = None
    #: Volumes of the VNFC's nested stack: resource name (the VNFD's
    #: VirtualBlockStorage) -> Cinder volume id, as last read from Heat.
    volumes: dict[str, str] = dataclasses.field(default_factory=dict)

    @property
    def name(self) -> str:
        """Heat resource name and ``nfv.VDU`` key: ``VDU1-0``."""
        return f"{self.vdu_id}-{self.index}"

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Vnfc":
        return cls(**data)


@dataclasses.dataclass
class Plan:
    """The stack's VNFCs before and after, and who may move where."""

    flavour_id: str
    before: list[Vnfc]
    after: list[Vnfc]
    #: Names of VNFCs the operation creates or recreates (may move zone).
    movable: set[str]
    #: Names of existing VNFCs whose servers are recreated (heal).
    recreate: set[str]
    removed: list[Vnfc]

    @property
    def added(self) -> list[Vnfc]:
        old = {v.id for v in self.before}
        return [v for v in self.after if v.id not in old]


def granted_zones(grant: dict[str, Any]) -> dict[str, str]:
    """Resource definition id -> zone name (VIM zone), from the Grant."""
    zone_of = {z["id"]: z.get("zoneId") for z in grant.get("zones") or []}
    out = {}
    for item in (grant.get("addResources") or []) + (
        grant.get("updateResources") or []
    ):
        zone = zone_of.get(item.get("zoneId"))
        if zone:
            out[item["resourceDefinitionId"]] = zone
    return out


def reserved_group(grant: dict[str, Any]) -> dict[str, str | None]:
    """Resource definition id -> server group, for the new VNFCs the grant
    places in a reservation (``reservationId`` on the GrantInfo; the
    local NFVO puts the group in ``additionalParams.reservation``)."""
    params = (grant.get("additionalParams") or {}).get("reservation") or {}
    return {
        item["resourceDefinitionId"]: params.get("serverGroupId")
        for item in grant.get("addResources") or []
        if item.get("reservationId")
    }


def reserved_zones(grant: dict[str, Any]) -> list[str] | None:
    """The zones a reservation's VNFCs may use; None without one.

    The local NFVO lists every zone of the reserved hosts in
    ``additionalParams.reservation.zones``; otherwise the grant's zones
    (those it chose) are all that is known.
    """
    if not reserved_group(grant):
        return None
    params = (grant.get("additionalParams") or {}).get("reservation") or {}
    if params.get("zones"):
        return sorted(set(params["zones"]))
    return sorted({z["zoneId"] for z in grant.get("zones") or []})


def _vim_asset(grant: dict[str, Any], kind: str, key: str, vdu: str):
    assets = (grant.get("vimAssets") or {}).get(kind) or []
    for asset in assets:
        if asset.get(key) == vdu:
            return asset
    return None


def flavor_for(flavour: DeploymentFlavour, vdu: str, grant: dict) -> str:
    """The VIM flavour: the grant's vimAssets, else the VNFD's request."""
    asset = _vim_asset(
        grant, "computeResourceFlavours", "vnfdVirtualComputeDescId", vdu
    )
    if asset and asset.get("vimFlavourId"):
        return asset["vimFlavourId"]
    compute = flavour.vdus[vdu].virtual_compute
    for capability in (
        compute.requested_additional_capabilities.values() if compute else ()
    ):
        name = (capability or {}).get("requested_additional_capability_name")
        if name:
            return name
    raise errors.UnsupportedPackage(
        reason=f"no VIM flavour for {vdu}: the grant has no vimAssets and "
        "the VDU has no requested_additional_capability_name"
    )


def image_for(flavour: DeploymentFlavour, vdu: str, grant: dict) -> str:
    """The VIM image: the grant's vimAssets, else sw_image_data.name."""
    asset = _vim_asset(grant, "softwareImages", "vnfdSoftwareImageId", vdu)
    if asset and asset.get("vimSoftwareImageId"):
        return asset["vimSoftwareImageId"]
    image = flavour.vdus[vdu].sw_image_data
    if image is None:
        raise errors.UnsupportedPackage(
            reason=f"{vdu} has no sw_image_data and the grant names no image"
        )
    return image.name


def existing(instance: dict[str, Any]) -> list[Vnfc]:
    """The instance's VNFCs as this driver recorded them."""
    info = instance.get("instantiatedVnfInfo") or {}
    out = []
    for item in info.get("vnfcResourceInfo") or []:
        meta = item.get("metadata") or {}
        out.append(
            Vnfc(
                id=item["id"],
                vdu_id=item["vduId"],
                index=int(meta.get("index", 0)),
                zone=meta["zone"] if "zone" in meta else item.get("zoneId"),
                observed_zone=item.get("zoneId"),
                flavor=meta.get("computeFlavourId", ""),
                image=meta.get("vcImageId", ""),
                server_group=meta.get("serverGroupId"),
                host_key=meta.get("sshHostKey"),
                server_id=(item.get("computeResource") or {}).get(
                    "resourceId"
                ),
            )
        )
    return out


def _free_indices(taken: Iterable[int]):
    used = set(taken)
    index = 0
    while True:
        if index not in used:
            yield index
        index += 1


def new_vnfcs(
    task: base.LcmTask,
    flavour: DeploymentFlavour,
    keep: list[Vnfc],
) -> list[Vnfc]:
    """VNFCs the grant adds, with the lowest free index of their VDU."""
    zones = granted_zones(task.grant)
    groups = reserved_group(task.grant)
    counters: dict[str, Any] = {}
    out = []
    for definition in task.grant_request.get("addResources") or []:
        if definition.get("type") != "COMPUTE":
            continue
        vdu = definition["vduId"]
        if vdu not in flavour.vdus:
            raise errors.InvalidRequest(
                reason=f"VDU {vdu} is not in flavour {flavour.flavour_id}"
            )
        if vdu not in counters:
            counters[vdu] = _free_indices(
                v.index for v in keep if v.vdu_id == vdu
            )
        out.append(
            Vnfc(
                id=definition["id"],
                vdu_id=vdu,
                index=next(counters[vdu]),
                zone=zones.get(definition["id"]),
                flavor=flavor_for(flavour, vdu, task.grant),
                image=image_for(flavour, vdu, task.grant),
                server_group=groups.get(definition["id"]),
            )
        )
    return out


def _removed_ids(task: base.LcmTask) -> set[str]:
    return {d["id"] for d in task.grant_request.get("removeResources") or []}


def plan(task: base.LcmTask, flavour: DeploymentFlavour) -> Plan:
    """The VNFC sets of ``task.operation`` (``flavour`` = the target)."""
    op = task.operation
    before = existing(task.instance)
    if op == lcm.Operation.TERMINATE:
        return Plan(flavour.flavour_id, before, [], set(), set(), before)
    if op in (lcm.Operation.INSTANTIATE, lcm.Operation.CHANGE_FLAVOUR):
        after = new_vnfcs(task, flavour, [])
        names = {v.name for v in after}
        recreate = {v.name for v in before if v.name in names}
        return Plan(flavour.flavour_id, before, after, names, recreate, before)
    if op in (lcm.Operation.SCALE, lcm.Operation.SCALE_TO_LEVEL):
        gone = _removed_ids(task)
        keep = [v for v in before if v.id not in gone]
        added = new_vnfcs(task, flavour, keep)
        return Plan(
            flavour.flavour_id,
            before,
            keep + added,
            {v.name for v in added},
            set(),
            [v for v in before if v.id in gone],
        )
    if op == lcm.Operation.HEAL:
        targets = {
            d["id"] for d in task.grant_request.get("updateResources") or []
        }
        zones = granted_zones(task.grant)
        after = []
        for v in before:
            moved = dataclasses.replace(v)
            if v.id in targets and zones.get(v.id):
                moved.zone = zones[v.id]
            after.append(moved)
        names = {v.name for v in before if v.id in targets}
        return Plan(flavour.flavour_id, before, after, names, names, [])
    if op == lcm.Operation.REVERT_TO_SNAPSHOT:
        return _revert_plan(task, flavour, before)
    raise base.OperationNotSupported(driver="openstack", operation=op)


def anew(plan: Plan) -> Plan:
    """A heal's plan when the VNF's stack is gone: every VNFC the instance
    records is created again in a new stack, each with its recorded
    index, flavour, image, server group and zone (its granted one for a
    healed VNFC); any of them may move on reselection, none keeps a
    server or volume id. Pure."""
    after = [
        dataclasses.replace(v, server_id=None, volumes={}) for v in plan.after
    ]
    names = {v.name for v in after}
    return Plan(plan.flavour_id, plan.before, after, names, names, [])


def _revert_plan(
    task: base.LcmTask, flavour: DeploymentFlavour, before: list[Vnfc]
) -> Plan:
    """The snapshot's VNFC set: those in both stay as they run (rebuilt in
    place later), those brought back go to the grant's zone (their
    recorded one if it names none) and may move, the newer ones go."""
    snapshot = task.vnf_snapshot or {}
    then = existing(snapshot.get("vnfInstance") or {})
    now = {v.id: v for v in before}
    zones = granted_zones(task.grant)
    after = []
    for vnfc in then:
        if vnfc.id in now:
            after.append(dataclasses.replace(now[vnfc.id]))
            continue
        back = dataclasses.replace(vnfc, server_id=None)
        if zones.get(vnfc.id):
            back.zone, back.observed_zone = zones[vnfc.id], None
        after.append(back)
    kept = {v.id for v in then}
    return Plan(
        flavour.flavour_id,
        before,
        after,
        {v.name for v in after if v.id not in now},
        set(),
        [v for v in before if v.id not in kept],
    )


def keep_stack_metadata(
    restored: dict[str, Any], restacked: list[dict[str, Any]]
) -> None:
    """A revert's instantiatedVnfInfo (the snapshot's) gets the metadata
    of the VNFCs as the re-scale left them in the stack (zone, server
    group): the next stack update must not move them back."""
    now = {v["id"]: v.get("metadata") or {} for v in restacked}
    for vnfc in restored.get("vnfcResourceInfo") or []:
        if vnfc["id"] in now:
            vnfc["metadata"] = {
                **(vnfc.get("metadata") or {}),
                **now[vnfc["id"]],
            }


def apply_zones(vnfcs: list[Vnfc], assignment: dict[str, str | None]) -> None:
    """Set each VNFC's zone from a reselection result (by name)."""
    for v in vnfcs:
        if v.name in assignment:
            v.zone = assignment[v.name]
