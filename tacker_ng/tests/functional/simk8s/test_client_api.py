"""The official ``kubernetes`` client against simk8s: CRUD of each kind,
watch, patch flavours, Status errors and authentication."""

from __future__ import annotations

import base64
import json
import ssl
import urllib.error
import urllib.request

import pytest
from kubernetes import client, watch

from tacker_ng.tests.functional.simk8s.conftest import (
    deployment,
    pod_ready,
    rest,
    status_of,
    wait_list,
)

POD = {
    "metadata": {"name": "p1", "labels": {"app": "p"}},
    "spec": {"containers": [{"name": "c", "image": "busybox:1.36"}]},
}


def test_core_kinds_crud(api, namespace):
    core, _ = api
    cm = core.create_namespaced_config_map(
        namespace, {"metadata": {"name": "cm1"}, "data": {"k": "v"}}
    )
    assert cm.metadata.uid and int(cm.metadata.resource_version) > 0
    assert cm.metadata.creation_timestamp is not None
    secret = core.create_namespaced_secret(
        namespace, {"metadata": {"name": "s1"}, "stringData": {"pw": "x"}}
    )
    assert secret.type == "Opaque"
    assert base64.b64decode(secret.data["pw"]) == b"x"
    sa = core.create_namespaced_service_account(
        namespace, {"metadata": {"name": "sa1"}}
    )
    assert sa.metadata.name == "sa1"
    assert core.read_namespaced_service_account("default", namespace)
    svc = core.create_namespaced_service(
        namespace,
        {
            "metadata": {"name": "svc1"},
            "spec": {"selector": {"app": "p"}, "ports": [{"port": 80}]},
        },
    )
    assert svc.spec.cluster_ip.startswith("10.96.")
    assert svc.spec.ports[0].target_port == 80
    pvc = core.create_namespaced_persistent_volume_claim(
        namespace,
        {
            "metadata": {"name": "data"},
            "spec": {
                "accessModes": ["ReadWriteOnce"],
                "resources": {"requests": {"storage": "1Gi"}},
            },
        },
    )
    assert pvc.status.phase == "Bound"
    pod = core.create_namespaced_pod(namespace, POD)
    assert pod.status.phase == "Pending"
    assert pod.spec.service_account_name == "default"
    tolerations = {(t.key, t.effect) for t in pod.spec.tolerations}
    assert ("node.kubernetes.io/not-ready", "NoExecute") in tolerations
    names = {
        i.metadata.name
        for i in core.list_namespaced_config_map(namespace).items
    }
    assert names == {"cm1", "kube-root-ca.crt"}
    cm.data["k"] = "w"
    updated = core.replace_namespaced_config_map("cm1", namespace, cm)
    assert updated.data == {"k": "w"}
    assert int(updated.metadata.resource_version) > int(
        cm.metadata.resource_version
    )
    for delete, name in (
        (core.delete_namespaced_config_map, "cm1"),
        (core.delete_namespaced_secret, "s1"),
        (core.delete_namespaced_service, "svc1"),
        (core.delete_namespaced_service_account, "sa1"),
        (core.delete_namespaced_persistent_volume_claim, "data"),
    ):
        delete(name, namespace)
    with pytest.raises(client.ApiException) as err:
        core.read_namespaced_config_map("cm1", namespace)
    assert err.value.status == 404
    assert status_of(err.value)["message"] == 'configmaps "cm1" not found'


def test_pod_runs_and_events_recorded(api, namespace):
    core, _ = api
    core.create_namespaced_pod(namespace, POD)
    pods = wait_list(
        core.list_namespaced_pod,
        lambda ps: ps and all(pod_ready(p) for p in ps),
        namespace=namespace,
    )
    pod = pods[0]
    assert pod.status.phase == "Running"
    assert pod.status.pod_ip and pod.status.host_ip
    assert pod.status.container_statuses[0].ready is True
    assert pod.status.container_statuses[0].state.running is not None
    events = core.list_namespaced_event(
        namespace, field_selector="involvedObject.name=p1,reason=Scheduled"
    )
    assert len(events.items) == 1
    assert events.items[0].message.startswith(
        f"Successfully assigned {namespace}/p1 to node-"
    )
    by_node = core.list_pod_for_all_namespaces(
        field_selector=f"spec.nodeName={pod.spec.node_name}"
    )
    assert "p1" in {p.metadata.name for p in by_node.items}
    running = core.list_namespaced_pod(
        namespace, field_selector="status.phase=Running"
    )
    assert [p.metadata.name for p in running.items] == ["p1"]


def test_apps_kinds_crud_and_scale(api, namespace):
    _, apps = api
    d = apps.create_namespaced_deployment(namespace, deployment("web", 2))
    assert d.metadata.generation == 1
    assert d.spec.strategy.rolling_update.max_surge == "25%"
    wait_list(
        apps.list_namespaced_deployment,
        lambda ds: ds and ds[0].status.ready_replicas == 2,
        namespace=namespace,
    )
    rs = apps.list_namespaced_replica_set(namespace).items
    assert (
        len(rs) == 1
        and rs[0].metadata.owner_references[0].kind == "Deployment"
    )
    scale = apps.read_namespaced_deployment_scale("web", namespace)
    assert scale.spec.replicas == 2 and scale.status.selector == "app=web"
    apps.patch_namespaced_deployment_scale(
        "web", namespace, {"spec": {"replicas": 4}}
    )
    d = wait_list(
        apps.list_namespaced_deployment,
        lambda ds: ds[0].status.available_replicas == 4,
        namespace=namespace,
    )[0]
    assert d.metadata.generation == 2
    assert d.status.observed_generation == 2
    assert {c.type: c.status for c in d.status.conditions} == {
        "Available": "True",
        "Progressing": "True",
    }
    sts = apps.create_namespaced_stateful_set(
        namespace,
        {
            "metadata": {"name": "db"},
            "spec": {
                "replicas": 3,
                "serviceName": "db",
                "selector": {"matchLabels": {"app": "db"}},
                "template": {
                    "metadata": {"labels": {"app": "db"}},
                    "spec": {
                        "containers": [{"name": "db", "image": "redis:7"}]
                    },
                },
            },
        },
    )
    assert sts.spec.pod_management_policy == "OrderedReady"
    pods = wait_list(
        lambda **kw: client.CoreV1Api(apps.api_client).list_namespaced_pod(
            **kw
        ),
        lambda ps: len(ps) == 3 and all(pod_ready(p) for p in ps),
        namespace=namespace,
        label_selector="app=db",
    )
    assert sorted(p.metadata.name for p in pods) == ["db-0", "db-1", "db-2"]
    assert {p.spec.hostname for p in pods} == {"db-0", "db-1", "db-2"}
    ds = apps.create_namespaced_daemon_set(
        namespace,
        {
            "metadata": {"name": "agent"},
            "spec": {
                "selector": {"matchLabels": {"app": "agent"}},
                "template": {
                    "metadata": {"labels": {"app": "agent"}},
                    "spec": {
                        "containers": [{"name": "a", "image": "agent:1"}]
                    },
                },
            },
        },
    )
    assert ds.metadata.name == "agent"
    ds = wait_list(
        apps.list_namespaced_daemon_set,
        lambda dss: dss[0].status.number_ready == 3,
        namespace=namespace,
    )[0]
    assert ds.status.desired_number_scheduled == 3
    core = client.CoreV1Api(apps.api_client)
    agents = core.list_namespaced_pod(namespace, label_selector="app=agent")
    assert sorted(p.spec.node_name for p in agents.items) == [
        "node-0",
        "node-1",
        "node-2",
    ]
    rs_name = rs[0].metadata.name
    bare = apps.read_namespaced_replica_set(rs_name, namespace)
    assert bare.spec.replicas == 4


def test_cascading_delete_policies(api, namespace):
    core, apps = api
    apps.create_namespaced_deployment(namespace, deployment("bg", 2))
    wait_list(
        core.list_namespaced_pod,
        lambda ps: len(ps) == 2,
        namespace=namespace,
        label_selector="app=bg",
    )
    apps.delete_namespaced_deployment(
        "bg", namespace, propagation_policy="Background"
    )
    wait_list(
        core.list_namespaced_pod,
        lambda ps: not ps,
        namespace=namespace,
        label_selector="app=bg",
    )
    assert not apps.list_namespaced_replica_set(
        namespace, label_selector="app=bg"
    ).items
    apps.create_namespaced_deployment(namespace, deployment("fg", 1))
    wait_list(
        core.list_namespaced_pod,
        lambda ps: len(ps) == 1,
        namespace=namespace,
        label_selector="app=fg",
    )
    # the API server answers with the object, still there while its
    # dependents go (client 37's V1Status cannot parse that: read raw)
    raw = apps.delete_namespaced_deployment(
        "fg",
        namespace,
        propagation_policy="Foreground",
        _preload_content=False,
    )
    assert json.loads(raw.data)["kind"] == "Deployment"
    d = apps.read_namespaced_deployment("fg", namespace)
    assert d.metadata.deletion_timestamp is not None
    assert "foregroundDeletion" in d.metadata.finalizers
    wait_list(
        apps.list_namespaced_deployment,
        lambda ds: "fg" not in {x.metadata.name for x in ds},
        namespace=namespace,
    )
    assert not core.list_namespaced_pod(
        namespace, label_selector="app=fg"
    ).items
    apps.create_namespaced_deployment(namespace, deployment("or", 1))
    wait_list(
        apps.list_namespaced_replica_set,
        lambda rs: len(rs) == 1,
        namespace=namespace,
        label_selector="app=or",
    )
    apps.delete_namespaced_deployment(
        "or", namespace, propagation_policy="Orphan"
    )
    rs = apps.list_namespaced_replica_set(
        namespace, label_selector="app=or"
    ).items
    assert len(rs) == 1 and not rs[0].metadata.owner_references


def test_watch_resource_versions_and_selectors(api, namespace):
    core, _ = api
    cm = core.create_namespaced_config_map(
        namespace, {"metadata": {"name": "w", "labels": {"sel": "yes"}}}
    )
    start = cm.metadata.resource_version
    core.patch_namespaced_config_map("w", namespace, {"data": {"a": "1"}})
    core.patch_namespaced_config_map(
        "w", namespace, {"metadata": {"labels": {"sel": "no"}}}
    )
    core.delete_namespaced_config_map("w", namespace)
    seen = [
        (e["type"], e["object"].metadata.resource_version)
        for e in watch.Watch().stream(
            core.list_namespaced_config_map,
            namespace,
            label_selector="sel=yes",
            resource_version=start,
            timeout_seconds=1,
        )
    ]
    # MODIFIED while selected, DELETED when it stops matching the selector
    assert [t for t, _ in seen] == ["MODIFIED", "DELETED"]
    assert int(seen[0][1]) > int(start)
    everything = [
        e["type"]
        for e in watch.Watch().stream(
            core.list_namespaced_config_map,
            namespace,
            resource_version=start,
            field_selector="metadata.name=w",
            timeout_seconds=1,
        )
    ]
    assert everything == ["MODIFIED", "MODIFIED", "DELETED"]
    with pytest.raises(client.ApiException) as err:
        list(
            watch.Watch().stream(
                core.list_namespaced_config_map,
                namespace,
                resource_version="1",
                timeout_seconds=1,
            )
        )
    assert err.value.status == 410


def test_patch_flavours(simk8s, api, namespace):
    core, apps = api
    apps.create_namespaced_deployment(namespace, deployment("p", 1))
    merge = apps.patch_namespaced_deployment(
        "p",
        namespace,
        {"metadata": {"labels": {"tier": "web"}}, "spec": {"replicas": 2}},
    )
    assert merge.metadata.labels == {"tier": "web"}
    assert merge.spec.replicas == 2
    # strategic merge: containers merge by name instead of being replaced
    smp = apps.patch_namespaced_deployment(
        "p",
        namespace,
        {
            "spec": {
                "template": {
                    "spec": {
                        "containers": [{"name": "side", "image": "envoy:1"}]
                    }
                }
            }
        },
    )
    assert [c.name for c in smp.spec.template.spec.containers] == [
        "app",
        "side",
    ]
    # JSON merge patch replaces the list
    code, _ = rest(
        simk8s,
        "PATCH",
        f"/apis/apps/v1/namespaces/{namespace}/deployments/p",
        {
            "spec": {
                "template": {
                    "spec": {
                        "containers": [{"name": "only", "image": "nginx:2"}]
                    }
                }
            }
        },
        "application/merge-patch+json",
    )
    assert code == 200
    d = apps.read_namespaced_deployment("p", namespace)
    assert [c.name for c in d.spec.template.spec.containers] == ["only"]
    jp = core.patch_namespaced_config_map(
        "kube-root-ca.crt",
        namespace,
        [{"op": "add", "path": "/metadata/labels", "value": {"x": "y"}}],
    )
    assert jp.metadata.labels == {"x": "y"}
    with pytest.raises(client.ApiException) as err:
        core.patch_namespaced_config_map(
            "kube-root-ca.crt",
            namespace,
            [{"op": "replace", "path": "/metadata/nothere/x", "value": 1}],
        )
    assert err.value.status == 422
    with pytest.raises(client.ApiException) as err:
        apps.patch_namespaced_deployment(
            "p",
            namespace,
            {"metadata": {"resourceVersion": "1"}, "spec": {"replicas": 3}},
        )
    assert err.value.status == 409
    assert status_of(err.value)["reason"] == "Conflict"


def test_status_errors(simk8s, api, namespace):
    core, apps = api
    with pytest.raises(client.ApiException) as err:
        apps.read_namespaced_deployment("nope", namespace)
    body = status_of(err.value)
    assert (err.value.status, body["reason"], body["message"]) == (
        404,
        "NotFound",
        'deployments.apps "nope" not found',
    )
    assert body["details"] == {
        "name": "nope",
        "group": "apps",
        "kind": "deployments",
    }
    core.create_namespaced_config_map(namespace, {"metadata": {"name": "a"}})
    with pytest.raises(client.ApiException) as err:
        core.create_namespaced_config_map(
            namespace, {"metadata": {"name": "a"}}
        )
    assert (err.value.status, status_of(err.value)["reason"]) == (
        409,
        "AlreadyExists",
    )
    stale = core.read_namespaced_config_map("a", namespace)
    core.patch_namespaced_config_map("a", namespace, {"data": {"x": "1"}})
    stale.data = {"x": "2"}
    with pytest.raises(client.ApiException) as err:
        core.replace_namespaced_config_map("a", namespace, stale)
    body = status_of(err.value)
    assert (err.value.status, body["reason"]) == (409, "Conflict")
    assert body["message"] == (
        'Operation cannot be fulfilled on configmaps "a": the object has '
        "been modified; please apply your changes to the latest version "
        "and try again"
    )
    code, body = rest(
        simk8s,
        "POST",
        f"/api/v1/namespaces/{namespace}/pods",
        {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {"name": "Bad_Name"},
            "spec": {"containers": [{"name": "c"}]},
        },
    )
    assert (code, body["reason"]) == (422, "Invalid")
    fields = {c["field"]: c["reason"] for c in body["details"]["causes"]}
    assert fields == {
        "metadata.name": "FieldValueInvalid",
        "spec.containers[0].image": "FieldValueRequired",
    }
    assert body["message"].startswith('Pod "Bad_Name" is invalid: [')
    code, body = rest(
        simk8s,
        "POST",
        f"/apis/apps/v1/namespaces/{namespace}/deployments",
        {
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "metadata": {"name": "x"},
            "spec": {"replicas": 1},
        },
    )
    assert code == 422
    assert {c["field"]: c["reason"] for c in body["details"]["causes"]} == {
        "spec.selector": "FieldValueRequired",
        "spec.template": "FieldValueRequired",
        "spec.template.spec.containers": "FieldValueRequired",
    }
    # a value of the wrong type is a decoding error (400), as in the
    # API server
    code, body = rest(
        simk8s,
        "POST",
        f"/apis/apps/v1/namespaces/{namespace}/deployments",
        dict(
            deployment("y"),
            spec=dict(deployment("y")["spec"], replicas="three"),
        ),
    )
    assert (code, body["reason"]) == (400, "BadRequest")
    assert (
        "cannot unmarshal string into Go struct field spec.replicas"
        in body["message"]
    )
    with pytest.raises(client.ApiException) as err:
        core.create_namespaced_config_map(
            "no-such-ns", {"metadata": {"name": "a"}}
        )
    assert (
        status_of(err.value)["message"] == 'namespaces "no-such-ns" not found'
    )


def test_bad_token_is_401_and_anonymous_is_403(simk8s):
    with (
        simk8s.api_client(token="wrong") as bad,
        pytest.raises(client.ApiException) as err,
    ):
        client.CoreV1Api(bad).list_namespace()
    assert err.value.status == 401
    assert status_of(err.value) == {
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Failure",
        "message": "Unauthorized",
        "reason": "Unauthorized",
        "code": 401,
    }
    ctx = ssl.create_default_context(cafile=simk8s.ca_path)
    with pytest.raises(urllib.error.HTTPError) as http:
        urllib.request.urlopen(
            simk8s.endpoint + "/api/v1/namespaces", context=ctx
        )
    assert http.value.code == 403
    with urllib.request.urlopen(
        simk8s.endpoint + "/readyz", context=ctx
    ) as resp:
        assert resp.read() == b"ok"


def test_client_certificate_auth(simk8s):
    cfg = client.Configuration()
    cfg.host = simk8s.endpoint
    cfg.ssl_ca_cert = simk8s.ca_path
    cfg.cert_file = simk8s.client_cert
    cfg.key_file = simk8s.client_key
    with client.ApiClient(cfg) as api_client:
        nodes = client.CoreV1Api(api_client).list_node().items
    assert len(nodes) == 3


def test_tls_is_verified_against_the_ca(simk8s):
    ctx = ssl.create_default_context()  # system CAs do not know simk8s
    with pytest.raises(urllib.error.URLError) as err:
        urllib.request.urlopen(simk8s.endpoint + "/readyz", context=ctx)
    assert "CERTIFICATE_VERIFY_FAILED" in str(err.value)


def test_binds_to_another_address(simk8s_factory):
    sim = simk8s_factory(
        "--nodes", "1", "--bind", "127.0.0.2", "--san", "simk8s.test"
    )
    assert sim.endpoint.startswith("https://127.0.0.2:")
    with sim.api_client() as api_client:  # the certificate names 127.0.0.2
        assert [
            n.metadata.name
            for n in client.CoreV1Api(api_client).list_node().items
        ] == ["node-0"]
    assert "127.0.0.2" in sim.kubectl("cluster-info").stdout
