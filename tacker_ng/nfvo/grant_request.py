"""Build the SOL003 GrantRequest of an LCM operation from the VNFD.

Which VNFCs an operation adds, removes or updates follows from the VNFD
(instantiation levels, scaling deltas) and the instance's current
``vnfcResourceInfo``; placement constraints come from the flavour's
affinity/anti-affinity rules, with ``fallbackBestEffort`` from
``[placement] fallback_best_effort``. Existing VNFCs that share a rule
with new ones appear in the constraint as ``RES_MGMT`` resources, so the
NFVO can keep anti-affinity with them. A revert to snapshot adds and
removes what its re-scale does (the VnfSnapshot's VNFC set against the
instance's) and updates the VNFCs it rebuilds in place.
"""

import uuid
from collections import Counter
from typing import Any

from oslo_config import cfg

from tacker_ng import exceptions
from tacker_ng.objects import lcm
from tacker_ng.objects.vnfd import DeploymentFlavour, Vnfd

SCOPES = {
    "zone": "ZONE",
    "zone_group": "ZONE_GROUP",
    "nfvi_node": "NFVI_NODE",
    "nfvi_pop": "NFVI_POP",
    "network_link_port": "NETWORK_LINK_PORT",
}


class InvalidLcmRequest(exceptions.UnprocessableEntity):
    """The request does not fit the VNFD or the instance (422)."""


def _compute(vdu: str, count: int) -> list[dict[str, Any]]:
    return [
        {
            "id": str(uuid.uuid4()),
            "type": "COMPUTE",
            "vduId": vdu,
            "resourceTemplateId": vdu,
        }
        for _ in range(count)
    ]


def _storage_for(flavour: DeploymentFlavour, vdu: str, n: int) -> list:
    out = []
    for storage in flavour.vdus[vdu].virtual_storages:
        out += [
            {
                "id": str(uuid.uuid4()),
                "type": "STORAGE",
                "vduId": vdu,
                "resourceTemplateId": storage,
            }
            for _ in range(n)
        ]
    return out


def _existing_vnfcs(instance: dict[str, Any]) -> list[dict[str, Any]]:
    info = instance.get("instantiatedVnfInfo") or {}
    return list(info.get("vnfcResourceInfo") or [])


def _handle(vnfc: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": vnfc["id"],
        "type": "COMPUTE",
        "vduId": vnfc["vduId"],
        "resourceTemplateId": vnfc["vduId"],
        "resource": vnfc["computeResource"],
    }


def _newest(vnfcs: list[dict[str, Any]], vdu: str, n: int) -> list:
    """The ``n`` VNFCs of ``vdu`` created last (scale in removes them)."""
    mine = [v for v in vnfcs if v["vduId"] == vdu]
    mine.sort(key=lambda v: (v.get("metadata") or {}).get("index", 0))
    return mine[-n:] if n else []


def _counts(
    flavour: DeploymentFlavour, level_id: str | None = None
) -> dict[str, int]:
    return {
        vdu: flavour.vdu_instance_count(vdu, level_id) for vdu in flavour.vdus
    }


def _level_counts(
    flavour: DeploymentFlavour, request: dict[str, Any], current: Counter
) -> dict[str, int]:
    """Target VNFC counts for ScaleVnfToLevelRequest."""
    if request.get("instantiationLevelId"):
        level = request["instantiationLevelId"]
        if level not in flavour.instantiation_levels:
            raise InvalidLcmRequest(
                f"instantiationLevelId '{level}' is not in flavour "
                f"'{flavour.flavour_id}'."
            )
        return _counts(flavour, level)
    targets = dict(current)
    for info in request.get("scaleInfo") or []:
        aspect = info["aspectId"]
        if aspect not in flavour.scaling_aspects:
            raise InvalidLcmRequest(f"aspectId '{aspect}' is not defined.")
        if (
            info["scaleLevel"]
            > flavour.scaling_aspects[aspect].max_scale_level
        ):
            raise InvalidLcmRequest(
                f"scaleLevel {info['scaleLevel']} exceeds the maximum of "
                f"aspect '{aspect}'."
            )
        for vdu, model in flavour.vdus.items():
            deltas = model.aspect_deltas.get(aspect)
            if deltas:
                per_step = next(iter(deltas.values()))
                targets[vdu] = (
                    flavour.vdu_instance_count(vdu)
                    + per_step * info["scaleLevel"]
                )
    return targets


def plan(
    operation: lcm.Operation,
    vnfd: Vnfd,
    flavour_id: str,
    instance: dict[str, Any],
    request: dict[str, Any],
    snapshot: dict[str, Any] | None = None,
) -> dict[str, list[dict[str, Any]]]:
    """Resource definitions the operation adds, removes and updates;
    ``snapshot``: the VnfSnapshot a REVERT_TO_SNAPSHOT goes back to."""
    try:
        flavour = vnfd.flavour(flavour_id)
    except KeyError as exc:
        raise InvalidLcmRequest(str(exc.args[0])) from exc
    existing = _existing_vnfcs(instance)
    add: list[dict[str, Any]] = []
    remove: list[dict[str, Any]] = []
    update: list[dict[str, Any]] = []
    if operation in (lcm.Operation.INSTANTIATE, lcm.Operation.CHANGE_FLAVOUR):
        level = request.get("instantiationLevelId")
        if level and level not in flavour.instantiation_levels:
            raise InvalidLcmRequest(
                f"instantiationLevelId '{level}' is not in flavour "
                f"'{flavour_id}'."
            )
        for vdu, count in _counts(flavour, level).items():
            add += _compute(vdu, count) + _storage_for(flavour, vdu, count)
        if operation == lcm.Operation.CHANGE_FLAVOUR:
            remove = [_handle(v) for v in existing]
    elif operation == lcm.Operation.TERMINATE:
        remove = [_handle(v) for v in existing]
    elif operation == lcm.Operation.SCALE:
        add, remove = _scale(flavour, request, existing)
    elif operation == lcm.Operation.SCALE_TO_LEVEL:
        current = Counter(v["vduId"] for v in existing)
        for vdu, target in _level_counts(flavour, request, current).items():
            model = flavour.vdus[vdu]
            if target > model.vdu_profile.max_number_of_instances:
                raise InvalidLcmRequest(
                    f"{vdu} would have {target} VNFCs, more than its "
                    f"max_number_of_instances "
                    f"{model.vdu_profile.max_number_of_instances}."
                )
            diff = target - current[vdu]
            if diff > 0:
                add += _compute(vdu, diff)
            elif diff < 0:
                remove += [_handle(v) for v in _newest(existing, vdu, -diff)]
    elif operation == lcm.Operation.HEAL:
        update = [_handle(v) for v in _heal_targets(existing, request)]
    elif operation == lcm.Operation.CHANGE_VNFPKG:
        update = [_handle(v) for v in existing]
    elif operation == lcm.Operation.REVERT_TO_SNAPSHOT:
        add, remove, update = _revert(flavour, existing, snapshot)
    return {"add": add, "remove": remove, "update": update}


def _revert(flavour, existing, snapshot):
    """The snapshot's VNFCs the instance lacks come back (new servers, the
    definition id is the VNFC's id), those made since go, and the VNFCs
    in both are rebuilt from their images in place (an update)."""
    if not snapshot:
        raise InvalidLcmRequest("A revert needs the VnfSnapshot to revert to.")
    then = _existing_vnfcs(snapshot.get("vnfInstance") or {})
    now = {v["id"] for v in existing}
    kept = {v["id"] for v in then}
    add: list[dict[str, Any]] = []
    for vnfc in then:
        if vnfc["id"] in now:
            continue
        vdu = vnfc["vduId"]
        if vdu not in flavour.vdus:
            raise InvalidLcmRequest(
                f"The snapshot's VNFC {vnfc['id']} is of VDU {vdu}, not in "
                f"flavour '{flavour.flavour_id}'."
            )
        add.append(
            {
                "id": vnfc["id"],
                "type": "COMPUTE",
                "vduId": vdu,
                "resourceTemplateId": vdu,
            }
        )
        add += _storage_for(flavour, vdu, 1)
    remove = [_handle(v) for v in existing if v["id"] not in kept]
    update = [_handle(v) for v in existing if v["id"] in kept]
    return add, remove, update


def _scale(flavour, request, existing):
    aspect = request["aspectId"]
    if aspect not in flavour.scaling_aspects:
        raise InvalidLcmRequest(
            f"aspectId '{aspect}' is not defined in flavour "
            f"'{flavour.flavour_id}'."
        )
    steps = request.get("numberOfSteps", 1)
    add, remove = [], []
    for vdu, model in flavour.vdus.items():
        deltas = model.aspect_deltas.get(aspect)
        if not deltas:
            continue
        n = next(iter(deltas.values())) * steps
        have = sum(1 for v in existing if v["vduId"] == vdu)
        if request["type"] == "SCALE_OUT":
            if have + n > model.vdu_profile.max_number_of_instances:
                raise InvalidLcmRequest(
                    f"Scaling out {vdu} by {n} exceeds its "
                    "max_number_of_instances "
                    f"{model.vdu_profile.max_number_of_instances}."
                )
            add += _compute(vdu, n) + _storage_for(flavour, vdu, n)
        else:
            if have - n < model.vdu_profile.min_number_of_instances:
                raise InvalidLcmRequest(
                    f"Scaling in {vdu} by {n} goes below its "
                    "min_number_of_instances "
                    f"{model.vdu_profile.min_number_of_instances}."
                )
            remove += [_handle(v) for v in _newest(existing, vdu, n)]
    return add, remove


def _heal_targets(existing, request):
    wanted = request.get("vnfcInstanceId")
    if not wanted:
        return existing
    known = {v["id"]: v for v in existing}
    unknown = [w for w in wanted if w not in known]
    if unknown:
        raise InvalidLcmRequest(
            f"vnfcInstanceId {', '.join(unknown)} not found in the instance."
        )
    return [known[w] for w in wanted]


def placement_constraints(
    flavour: DeploymentFlavour,
    planned: dict[str, list[dict[str, Any]]],
    existing: list[dict[str, Any]],
    conf: cfg.ConfigOpts = cfg.CONF,
) -> list[dict[str, Any]]:
    """PlacementConstraint per affinity rule touching new or moved VNFCs."""
    moving = [
        d for d in planned["add"] + planned["update"] if d["type"] == "COMPUTE"
    ]
    moving_ids = {d["id"] for d in moving}
    out = []
    for rule in flavour.affinity_rules:
        members = [d for d in moving if d["vduId"] in rule.vdus]
        if not members:
            continue
        resources = [
            {"idType": "GRANT", "resourceId": d["id"]} for d in members
        ]
        removed = {d["id"] for d in planned["remove"]}
        for vnfc in existing:
            if (
                vnfc["vduId"] in rule.vdus
                and vnfc["id"] not in moving_ids
                and vnfc["id"] not in removed
            ):
                resources.append(
                    {
                        "idType": "RES_MGMT",
                        "resourceId": vnfc["computeResource"]["resourceId"],
                        "vimConnectionId": vnfc["computeResource"].get(
                            "vimConnectionId"
                        ),
                    }
                )
        if len(resources) < 2:
            # A constraint relates at least two resources (SOL003 9.5.3.6,
            # resource: 2..N); one lone VNFC has nothing to keep apart.
            continue
        out.append(
            {
                "affinityOrAntiAffinity": "AFFINITY"
                if rule.is_affinity
                else "ANTI_AFFINITY",
                "scope": SCOPES.get(rule.scope, rule.scope.upper()),
                "resource": resources,
                "fallbackBestEffort": conf.placement.fallback_best_effort,
            }
        )
    return out


def build(
    operation: lcm.Operation,
    vnfd: Vnfd,
    instance: dict[str, Any],
    op_occ_id: str,
    request: dict[str, Any],
    flavour_id: str,
    is_automatic: bool = False,
    snapshot: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The GrantRequest (SOL003 9.5.2.2) for an operation (``snapshot``:
    a revert's VnfSnapshot)."""
    planned = plan(operation, vnfd, flavour_id, instance, request, snapshot)
    flavour = vnfd.flavour(flavour_id)
    body: dict[str, Any] = {
        "vnfInstanceId": instance["id"],
        "vnfLcmOpOccId": op_occ_id,
        "vnfdId": vnfd.descriptor_id,
        "flavourId": flavour_id,
        "operation": str(operation),
        "isAutomaticInvocation": is_automatic,
        "_links": {
            "vnfLcmOpOcc": {"href": f"/vnflcm/v2/vnf_lcm_op_occs/{op_occ_id}"},
            "vnfInstance": {
                "href": f"/vnflcm/v2/vnf_instances/{instance['id']}"
            },
        },
    }
    if request.get("instantiationLevelId"):
        body["instantiationLevelId"] = request["instantiationLevelId"]
    for key, name in (
        ("add", "addResources"),
        ("remove", "removeResources"),
        ("update", "updateResources"),
    ):
        if planned[key]:
            body[name] = planned[key]
    placed = planned
    if operation == lcm.Operation.REVERT_TO_SNAPSHOT:
        # A rebuild keeps its server on its host: the rebuilt VNFCs are
        # peers (RES_MGMT) of the ones brought back, not placed anew.
        placed = {**planned, "update": []}
    constraints = placement_constraints(
        flavour, placed, _existing_vnfcs(instance)
    )
    if constraints:
        body["placementConstraints"] = constraints
    if request.get("additionalParams"):
        body["additionalParams"] = request["additionalParams"]
    return body
