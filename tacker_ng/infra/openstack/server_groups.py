"""Nova server groups of a stack: reservations' and the VNFD's rules'.

A server joins at most one Nova server group, through the scheduler hint
``group``. Two things put VNFCs in one: a reservation (the grant names
an existing group, which keeps the servers on the reserved hosts) and a
VNFD ``AffinityRule``/``AntiAffinityRule`` of scope ``nfvi_node``, which
becomes an ``OS::Nova::ServerGroup`` of the stack so that Nova, not the
VNFM, keeps the targets on one host or on distinct hosts. Zone-scope
rules are not here: they go through the grant (zones per VNFC).
"""

import copy
from collections.abc import Iterable
from typing import Any

import yaml

from tacker_ng.infra.openstack import errors
from tacker_ng.infra.openstack.vnfcs import SERVER_TYPE, Vnfc
from tacker_ng.objects.vnfd import DeploymentFlavour

GROUP_TYPE = "OS::Nova::ServerGroup"
#: Parameter of a nested template copy that carries the group's id.
HINT_PARAM = "tacker_ng_server_group"
#: Suffix of the stack resource a placement rule becomes.
RESOURCE_SUFFIX = "-servergroup"
HOST_SCOPE = "nfvi_node"


def rule_groups(
    flavour: DeploymentFlavour, best_effort: bool = False
) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    """(``OS::Nova::ServerGroup`` resources by name, VDU -> resource).

    ``best_effort`` (``[placement] fallback_best_effort``, SOL003's
    ``fallbackBestEffort``) asks Nova for the soft policy: the servers
    still boot when no host is left that keeps the rule.
    """
    resources: dict[str, dict[str, Any]] = {}
    by_vdu: dict[str, str] = {}
    for rule in flavour.affinity_rules:
        if rule.scope != HOST_SCOPE or not rule.vdus:
            continue
        name = f"{rule.name}{RESOURCE_SUFFIX}"
        policy = "affinity" if rule.is_affinity else "anti-affinity"
        if best_effort:
            policy = f"soft-{policy}"
        resources[name] = {
            "type": GROUP_TYPE,
            "properties": {"name": rule.name, "policies": [policy]},
        }
        for vdu in rule.vdus:
            if vdu in by_vdu:
                raise errors.UnsupportedPackage(
                    reason=f"VDU {vdu} is a target of two {HOST_SCOPE} "
                    f"placement rules ({by_vdu[vdu][: -len(RESOURCE_SUFFIX)]}"
                    f" and {rule.name}); a Nova server joins one server "
                    "group only"
                )
            by_vdu[vdu] = name
    return resources, by_vdu


def hint_servers(resources: dict[str, Any], group: Any) -> int:
    """Put every server of ``resources`` into server group ``group`` (an
    id, or a Heat function giving one) through ``scheduler_hints.group``,
    replacing a group the template named. Returns how many it hinted."""
    joined = 0
    for resource in resources.values():
        if isinstance(resource, dict) and resource.get("type") == SERVER_TYPE:
            props = resource.setdefault("properties", {})
            hints = props.get("scheduler_hints")
            hints = dict(hints) if isinstance(hints, dict) else {}
            hints["group"] = copy.deepcopy(group)
            props["scheduler_hints"] = hints
            joined += 1
    return joined


def _nested_copy(text: str, kind: str, group: Any, why: str) -> str:
    nested = yaml.safe_load(text) or {}
    if not hint_servers(nested.get("resources") or {}, group):
        raise errors.UnsupportedPackage(
            reason=f"{kind} has no {SERVER_TYPE} to boot in the {why}"
        )
    return yaml.safe_dump(nested, sort_keys=False)


def join(
    template: dict[str, Any],
    files: dict[str, str],
    vnfcs: Iterable[Vnfc],
    flavour: DeploymentFlavour | None = None,
    best_effort: bool = False,
) -> tuple[dict[str, Any], dict[str, str]]:
    """The expanded template and files with each VNFC in its group.

    A reservation's group (``Vnfc.server_group``) wins over a rule's: the
    reserved hosts are the only ones its flavour boots on. A server
    resource gets the hint directly; a nested template gets a copy
    (``<group>/<name>``) with the hint on each of its servers, used by
    the VNFC's resource only; a rule's copy takes the group's id as
    parameter ``tacker_ng_server_group`` (the group is a resource of the
    top template, which a nested one cannot name).
    """
    template = copy.deepcopy(template)
    files = dict(files)
    resources = template.setdefault("resources", {})
    groups, by_vdu = rule_groups(flavour, best_effort) if flavour else ({}, {})
    clash = sorted(set(groups) & set(resources))
    if clash:
        raise errors.UnsupportedPackage(
            reason=f"the BaseHOT already has resource(s) {', '.join(clash)}"
            ", the names of the server groups of the VNFD's placement rules"
        )
    used: set[str] = set()
    members: dict[str, list[str]] = {}
    for vnfc in vnfcs:
        item = resources.get(vnfc.name)
        if item is None:
            continue
        if vnfc.server_group:
            tag, value, why = (
                vnfc.server_group,
                vnfc.server_group,
                ("reservation's server group"),
            )
        elif vnfc.vdu_id in by_vdu:
            tag = by_vdu[vnfc.vdu_id]
            value = {"get_resource": tag}
            rule = groups[tag]["properties"]["name"]
            why = f"server group of placement rule {rule}"
            used.add(tag)
            members.setdefault(tag, []).append(vnfc.name)
        else:
            continue
        kind = item.get("type")
        if kind == SERVER_TYPE:
            hint_servers({vnfc.name: item}, value)
            continue
        if kind not in files:
            raise errors.UnsupportedPackage(
                reason=f"{vnfc.name} ({kind}) is neither a server nor a "
                f"nested template of the package: cannot boot it in the "
                f"{why}"
            )
        variant = f"{tag}/{kind}"
        if vnfc.server_group:
            if variant not in files:
                files[variant] = _nested_copy(files[kind], kind, value, why)
        else:
            if variant not in files:
                nested_text = _with_param(files[kind])
                files[variant] = _nested_copy(
                    nested_text, kind, {"get_param": HINT_PARAM}, why
                )
            props = item.setdefault("properties", {})
            props[HINT_PARAM] = value
        item["type"] = variant
    for name in sorted(used):
        resources[name] = groups[name]
        if not groups[name]["properties"]["policies"][0].startswith("soft-"):
            _one_at_a_time(resources, members[name])
    return template, files


def _one_at_a_time(resources: dict[str, Any], names: list[str]) -> None:
    """Have Heat create the members of a hard-policy group one after the
    other. Nova checks a hard (anti-)affinity group again on the compute
    host; servers of one group scheduled concurrently can pick the same
    host, fail that late check and, after ``[scheduler] max_attempts``
    reschedules, go to ERROR although hosts were free. One at a time, a
    server fails only when no host can keep the rule."""
    previous = None
    for name in sorted(names, key=_index_order):
        if previous is not None:
            item = resources[name]
            deps = item.get("depends_on") or []
            deps = [deps] if isinstance(deps, str) else list(deps)
            if previous not in deps:
                item["depends_on"] = [*deps, previous]
        previous = name


def _index_order(name: str) -> tuple[str, int]:
    vdu, _, index = name.rpartition("-")
    return vdu, int(index) if index.isdigit() else -1


def _with_param(text: str) -> str:
    """``text`` with the string parameter the group id arrives in."""
    nested = yaml.safe_load(text) or {}
    params = nested.setdefault("parameters", {}) or {}
    params[HINT_PARAM] = {
        "type": "string",
        "description": "Nova server group of the servers (tacker-ng)",
    }
    nested["parameters"] = params
    return yaml.safe_dump(nested, sort_keys=False)
