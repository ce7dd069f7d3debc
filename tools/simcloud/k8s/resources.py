"""The resource types the simulator serves, as discovery describes them."""

from __future__ import annotations

from dataclasses import dataclass, field

VERBS = [
    "create",
    "delete",
    "deletecollection",
    "get",
    "list",
    "patch",
    "update",
    "watch",
]


@dataclass(frozen=True)
class Resource:
    """One REST resource (what /api/v1 or /apis/apps/v1 lists)."""

    group: str
    version: str
    plural: str
    kind: str
    namespaced: bool = True
    short_names: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()
    subresources: tuple[str, ...] = ()
    generation: bool = False
    has_status: bool = True
    verbs: tuple[str, ...] = tuple(VERBS)
    extra: dict = field(default_factory=dict, compare=False, hash=False)

    @property
    def key(self) -> str:
        return f"{self.plural}.{self.group}" if self.group else self.plural

    @property
    def api_version(self) -> str:
        return f"{self.group}/{self.version}" if self.group else self.version

    @property
    def singular(self) -> str:
        return self.kind.lower()


CORE = [
    Resource(
        "",
        "v1",
        "namespaces",
        "Namespace",
        namespaced=False,
        short_names=("ns",),
        subresources=("status", "finalize"),
        verbs=("create", "delete", "get", "list", "patch", "update", "watch"),
    ),
    Resource(
        "",
        "v1",
        "nodes",
        "Node",
        namespaced=False,
        short_names=("no",),
        subresources=("status",),
    ),
    Resource(
        "",
        "v1",
        "pods",
        "Pod",
        short_names=("po",),
        categories=("all",),
        subresources=("status", "eviction", "binding", "log"),
    ),
    Resource(
        "",
        "v1",
        "services",
        "Service",
        short_names=("svc",),
        categories=("all",),
        subresources=("status",),
        verbs=(
            "create",
            "delete",
            "deletecollection",
            "get",
            "list",
            "patch",
            "update",
            "watch",
        ),
    ),
    Resource(
        "",
        "v1",
        "configmaps",
        "ConfigMap",
        short_names=("cm",),
        has_status=False,
    ),
    Resource("", "v1", "secrets", "Secret", has_status=False),
    Resource(
        "",
        "v1",
        "serviceaccounts",
        "ServiceAccount",
        short_names=("sa",),
        has_status=False,
    ),
    Resource(
        "",
        "v1",
        "persistentvolumeclaims",
        "PersistentVolumeClaim",
        short_names=("pvc",),
        subresources=("status",),
    ),
    Resource(
        "", "v1", "events", "Event", short_names=("ev",), has_status=False
    ),
]
APPS = [
    Resource(
        "apps",
        "v1",
        "deployments",
        "Deployment",
        short_names=("deploy",),
        categories=("all",),
        subresources=("status", "scale"),
        generation=True,
    ),
    Resource(
        "apps",
        "v1",
        "replicasets",
        "ReplicaSet",
        short_names=("rs",),
        categories=("all",),
        subresources=("status", "scale"),
        generation=True,
    ),
    Resource(
        "apps",
        "v1",
        "statefulsets",
        "StatefulSet",
        short_names=("sts",),
        categories=("all",),
        subresources=("status", "scale"),
        generation=True,
    ),
    Resource(
        "apps",
        "v1",
        "daemonsets",
        "DaemonSet",
        short_names=("ds",),
        categories=("all",),
        subresources=("status",),
        generation=True,
    ),
]
#: Stored and validated only: no controller acts on them and nothing is
#: enforced (no RBAC, quotas, network policies, disruption budgets).
STORED = [
    Resource(
        "",
        "v1",
        "resourcequotas",
        "ResourceQuota",
        short_names=("quota",),
        subresources=("status",),
    ),
    Resource(
        "",
        "v1",
        "limitranges",
        "LimitRange",
        short_names=("limits",),
        has_status=False,
    ),
    Resource(
        "",
        "v1",
        "persistentvolumes",
        "PersistentVolume",
        namespaced=False,
        short_names=("pv",),
        subresources=("status",),
    ),
    Resource(
        "rbac.authorization.k8s.io", "v1", "roles", "Role", has_status=False
    ),
    Resource(
        "rbac.authorization.k8s.io",
        "v1",
        "rolebindings",
        "RoleBinding",
        has_status=False,
    ),
    Resource(
        "rbac.authorization.k8s.io",
        "v1",
        "clusterroles",
        "ClusterRole",
        namespaced=False,
        has_status=False,
    ),
    Resource(
        "rbac.authorization.k8s.io",
        "v1",
        "clusterrolebindings",
        "ClusterRoleBinding",
        namespaced=False,
        has_status=False,
    ),
    Resource(
        "networking.k8s.io",
        "v1",
        "networkpolicies",
        "NetworkPolicy",
        short_names=("netpol",),
        has_status=False,
    ),
    Resource(
        "networking.k8s.io",
        "v1",
        "ingresses",
        "Ingress",
        short_names=("ing",),
        subresources=("status",),
    ),
    Resource(
        "policy",
        "v1",
        "poddisruptionbudgets",
        "PodDisruptionBudget",
        short_names=("pdb",),
        subresources=("status",),
        generation=True,
    ),
]
ALL = CORE + APPS + STORED

#: group -> versions served, preferred first.
GROUPS = {
    "apps": ["v1"],
    "policy": ["v1"],
    "rbac.authorization.k8s.io": ["v1"],
    "networking.k8s.io": ["v1"],
}

BY_PATH = {(r.group, r.version, r.plural): r for r in ALL}
BY_KEY = {r.key: r for r in ALL}
BY_KIND = {(r.api_version, r.kind): r for r in ALL}

SUBRESOURCE_KINDS = {
    "scale": ("autoscaling", "v1", "Scale"),
    "eviction": ("policy", "v1", "Eviction"),
    "binding": ("", "v1", "Binding"),
}


def lookup(group: str, version: str, plural: str) -> Resource | None:
    return BY_PATH.get((group, version, plural))


def api_resource_list(group: str, version: str) -> dict:
    """The APIResourceList of one group version (discovery)."""
    items = []
    for res in ALL:
        if res.group != group or res.version != version:
            continue
        entry = {
            "name": res.plural,
            "singularName": res.singular,
            "namespaced": res.namespaced,
            "kind": res.kind,
            "verbs": list(res.verbs),
        }
        if res.short_names:
            entry["shortNames"] = list(res.short_names)
        if res.categories:
            entry["categories"] = list(res.categories)
        items.append(entry)
        for sub in res.subresources:
            sub_entry = {
                "name": f"{res.plural}/{sub}",
                "singularName": "",
                "namespaced": res.namespaced,
                "kind": res.kind,
                "verbs": ["get", "patch", "update"],
            }
            if sub in SUBRESOURCE_KINDS:
                g, v, k = SUBRESOURCE_KINDS[sub]
                sub_entry.update(group=g, version=v, kind=k)
                if sub in ("eviction", "binding"):
                    sub_entry["verbs"] = ["create"]
            elif sub == "log":
                sub_entry["verbs"] = ["get"]
            elif sub == "finalize":
                sub_entry["verbs"] = ["update"]
            items.append(sub_entry)
    return {
        "kind": "APIResourceList",
        "apiVersion": "v1",
        "groupVersion": f"{group}/{version}" if group else version,
        "resources": items,
    }
