"""Workload controllers of simk8s: StatefulSet ordering and updates,
DaemonSet on new nodes, Deployment Recreate, namespace deletion."""

from __future__ import annotations

from kubernetes import client, watch

from tacker_ng.tests.functional.simk8s.conftest import (
    deployment,
    pod_ready,
    wait_list,
)


def statefulset(name: str, replicas: int, image: str = "redis:7") -> dict:
    return {
        "metadata": {"name": name},
        "spec": {
            "replicas": replicas,
            "serviceName": name,
            "selector": {"matchLabels": {"app": name}},
            "template": {
                "metadata": {"labels": {"app": name}},
                "spec": {"containers": [{"name": "db", "image": image}]},
            },
            "volumeClaimTemplates": [
                {
                    "metadata": {"name": "data"},
                    "spec": {
                        "accessModes": ["ReadWriteOnce"],
                        "resources": {"requests": {"storage": "1Gi"}},
                    },
                }
            ],
        },
    }


def test_statefulset_scale_down_and_rolling_update(api, namespace):
    core, apps = api
    apps.create_namespaced_stateful_set(namespace, statefulset("db", 3))
    pods = wait_list(
        core.list_namespaced_pod,
        lambda ps: len(ps) == 3 and all(map(pod_ready, ps)),
        namespace=namespace,
    )
    claims = core.list_namespaced_persistent_volume_claim(namespace).items
    assert sorted(c.metadata.name for c in claims) == [
        "data-db-0",
        "data-db-1",
        "data-db-2",
    ]
    volumes = {
        v.name: v.persistent_volume_claim.claim_name
        for v in pods[0].spec.volumes
        if v.persistent_volume_claim
    }
    assert volumes == {"data": f"data-{pods[0].metadata.name}"}
    start = core.list_namespaced_pod(namespace).metadata.resource_version
    apps.patch_namespaced_stateful_set_scale(
        "db", namespace, {"spec": {"replicas": 1}}
    )
    wait_list(
        core.list_namespaced_pod,
        lambda ps: [p.metadata.name for p in ps] == ["db-0"],
        namespace=namespace,
    )
    deleted = [
        e["object"].metadata.name
        for e in watch.Watch().stream(
            core.list_namespaced_pod,
            namespace,
            resource_version=start,
            timeout_seconds=1,
        )
        if e["type"] == "DELETED"
    ]
    assert deleted == ["db-2", "db-1"]  # highest ordinal first
    assert (
        len(core.list_namespaced_persistent_volume_claim(namespace).items) == 3
    )  # claims are retained
    apps.patch_namespaced_stateful_set_scale(
        "db", namespace, {"spec": {"replicas": 2}}
    )
    old_rev = apps.read_namespaced_stateful_set(
        "db", namespace
    ).status.update_revision
    apps.patch_namespaced_stateful_set(
        "db",
        namespace,
        {
            "spec": {
                "template": {
                    "spec": {
                        "containers": [{"name": "db", "image": "redis:8"}]
                    }
                }
            }
        },
    )
    sts = wait_list(
        apps.list_namespaced_stateful_set,
        lambda s: (
            s[0].status.updated_replicas == 2
            and s[0].status.ready_replicas == 2
            and s[0].status.update_revision != old_rev
        ),
        namespace=namespace,
    )[0]
    pods = core.list_namespaced_pod(namespace).items
    assert {p.metadata.labels["controller-revision-hash"] for p in pods} == {
        sts.status.update_revision
    }
    assert {p.spec.containers[0].image for p in pods} == {"redis:8"}


def test_daemonset_follows_nodes(simk8s_factory):
    sim = simk8s_factory("--nodes", "2")
    with sim.api_client() as api_client:
        core, apps = client.CoreV1Api(api_client), client.AppsV1Api(api_client)
        apps.create_namespaced_daemon_set(
            "default",
            {
                "metadata": {"name": "agent"},
                "spec": {
                    "selector": {"matchLabels": {"app": "agent"}},
                    "template": {
                        "metadata": {"labels": {"app": "agent"}},
                        "spec": {
                            "containers": [{"name": "a", "image": "agent:1"}],
                            "nodeSelector": {"role": "edge"},
                        },
                    },
                },
            },
        )
        assert not core.list_namespaced_pod("default").items
        sim.control.add_node("edge-1", labels={"role": "edge"})
        core.patch_node("node-0", {"metadata": {"labels": {"role": "edge"}}})
        pods = wait_list(
            core.list_namespaced_pod,
            lambda ps: len(ps) == 2 and all(map(pod_ready, ps)),
            namespace="default",
        )
        assert sorted(p.spec.node_name for p in pods) == ["edge-1", "node-0"]
        core.patch_node("node-0", {"metadata": {"labels": {"role": None}}})
        pods = wait_list(
            core.list_namespaced_pod,
            lambda ps: [p.spec.node_name for p in ps] == ["edge-1"],
            namespace="default",
        )
        ds = apps.read_namespaced_daemon_set("agent", "default")
        assert ds.status.desired_number_scheduled == 1


def test_recreate_deletes_old_pods_before_new_ones(api, namespace):
    core, apps = api
    body = deployment("rec", 2)
    body["spec"]["strategy"] = {"type": "Recreate"}
    apps.create_namespaced_deployment(namespace, body)
    old = wait_list(
        core.list_namespaced_pod,
        lambda ps: len(ps) == 2 and all(map(pod_ready, ps)),
        namespace=namespace,
    )
    start = core.list_namespaced_pod(namespace).metadata.resource_version
    apps.patch_namespaced_deployment(
        "rec",
        namespace,
        {
            "spec": {
                "template": {
                    "spec": {
                        "containers": [{"name": "app", "image": "nginx:2"}]
                    }
                }
            }
        },
    )
    wait_list(
        core.list_namespaced_pod,
        lambda ps: (
            len(ps) == 2
            and all(map(pod_ready, ps))
            and all(p.spec.containers[0].image == "nginx:2" for p in ps)
        ),
        namespace=namespace,
    )
    events = [
        (e["type"], e["object"].metadata.name)
        for e in watch.Watch().stream(
            core.list_namespaced_pod,
            namespace,
            resource_version=start,
            timeout_seconds=1,
        )
        if e["type"] in ("ADDED", "DELETED")
    ]
    old_names = {p.metadata.name for p in old}
    last_delete = max(
        i
        for i, (t, n) in enumerate(events)
        if t == "DELETED" and n in old_names
    )
    first_add = min(i for i, (t, _) in enumerate(events) if t == "ADDED")
    assert last_delete < first_add


def test_namespace_deletion_removes_its_objects(api):
    core, apps = api
    core.create_namespace({"metadata": {"name": "doomed"}})
    apps.create_namespaced_deployment("doomed", deployment("web", 2))
    wait_list(
        core.list_namespaced_pod, lambda ps: len(ps) == 2, namespace="doomed"
    )
    core.delete_namespace("doomed")
    ns = core.read_namespace("doomed")
    assert ns.status.phase == "Terminating"
    wait_list(
        core.list_namespace,
        lambda nss: "doomed" not in {n.metadata.name for n in nss},
    )
    assert not core.list_pod_for_all_namespaces(
        field_selector="metadata.namespace=doomed"
    ).items
