"""PATCH flavours of the Kubernetes simulator (merge, strategic, JSON)."""

import pytest

from tools.simcloud.k8s import patch, schema

DEPLOY = {
    "apiVersion": "apps/v1",
    "kind": "Deployment",
    "metadata": {
        "name": "d",
        "labels": {"a": "1", "b": "2"},
        "finalizers": ["x"],
    },
    "spec": {
        "replicas": 1,
        "strategy": {
            "type": "RollingUpdate",
            "rollingUpdate": {"maxSurge": 1},
        },
        "template": {
            "spec": {
                "containers": [
                    {
                        "name": "app",
                        "image": "v1",
                        "env": [{"name": "A", "value": "1"}],
                    },
                    {"name": "side", "image": "s1"},
                ],
                "tolerations": [{"key": "t1"}],
            }
        },
    },
}


def smp(body):
    top = schema.kind_schema("apps/v1", "Deployment")
    return patch.strategic_merge(DEPLOY, body, top, schema.resolve)


def containers(obj):
    return obj["spec"]["template"]["spec"]["containers"]


def test_merge_patch_rfc7386():
    out = patch.merge_patch(
        DEPLOY,
        {
            "metadata": {"labels": {"a": None, "c": "3"}},
            "spec": {"template": {"spec": {"containers": [{"name": "x"}]}}},
        },
    )
    assert out["metadata"]["labels"] == {"b": "2", "c": "3"}
    assert containers(out) == [{"name": "x"}]  # lists are replaced
    assert containers(DEPLOY)[0]["image"] == "v1"  # input untouched


def test_strategic_merge_by_merge_key():
    out = smp(
        {
            "spec": {
                "template": {
                    "spec": {
                        "containers": [
                            {
                                "name": "app",
                                "image": "v2",
                                "env": [{"name": "B", "value": "2"}],
                            }
                        ]
                    }
                }
            }
        }
    )
    assert [c["name"] for c in containers(out)] == ["app", "side"]
    assert containers(out)[0]["image"] == "v2"
    assert containers(out)[0]["env"] == [
        {"name": "A", "value": "1"},
        {"name": "B", "value": "2"},
    ]


def test_strategic_merge_directives():
    out = smp(
        {
            "spec": {
                "template": {
                    "spec": {
                        "containers": [{"name": "side", "$patch": "delete"}]
                    }
                }
            }
        }
    )
    assert [c["name"] for c in containers(out)] == ["app"]
    out = smp(
        {
            "spec": {
                "template": {
                    "spec": {
                        "$setElementOrder/containers": [
                            {"name": "side"},
                            {"name": "app"},
                        ],
                        "containers": [{"name": "app", "image": "v3"}],
                    }
                }
            }
        }
    )
    assert [c["name"] for c in containers(out)] == ["side", "app"]
    out = smp(
        {"spec": {"strategy": {"$retainKeys": ["type"], "type": "Recreate"}}}
    )
    assert out["spec"]["strategy"] == {"type": "Recreate"}
    out = smp({"metadata": {"$deleteFromPrimitiveList/finalizers": ["x"]}})
    assert out["metadata"]["finalizers"] == []
    out = smp({"metadata": {"finalizers": ["y"]}})  # merged as a set
    assert out["metadata"]["finalizers"] == ["x", "y"]
    out = smp(
        {"spec": {"template": {"spec": {"tolerations": [{"key": "t2"}]}}}}
    )  # no merge strategy: replaced
    assert out["spec"]["template"]["spec"]["tolerations"] == [{"key": "t2"}]
    out = smp(
        {
            "spec": {
                "template": {
                    "spec": {
                        "containers": [
                            {"$patch": "replace"},
                            {"name": "new", "image": "n"},
                        ]
                    }
                }
            }
        }
    )
    assert [c["name"] for c in containers(out)] == ["new"]


def test_strategic_merge_errors():
    with pytest.raises(patch.PatchError, match="merge key: name"):
        smp(
            {
                "spec": {
                    "template": {"spec": {"containers": [{"image": "noname"}]}}
                }
            }
        )
    with pytest.raises(patch.PatchError):
        smp(["not", "a", "map"])


def test_json_patch():
    out = patch.json_patch(
        DEPLOY,
        [
            {"op": "replace", "path": "/spec/replicas", "value": 5},
            {"op": "remove", "path": "/metadata/labels/a"},
        ],
    )
    assert out["spec"]["replicas"] == 5
    assert out["metadata"]["labels"] == {"b": "2"}
    with pytest.raises(patch.PatchError):
        patch.json_patch(DEPLOY, [{"op": "remove", "path": "/nothere"}])
    with pytest.raises(patch.PatchError):
        patch.json_patch(DEPLOY, {"op": "remove"})
