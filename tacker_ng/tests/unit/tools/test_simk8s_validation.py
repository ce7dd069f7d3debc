"""Object validation of the simulator against the real schemas."""

import copy

import pytest

from tools.simcloud.k8s import errors, schema, validation

DEPLOY = {
    "apiVersion": "apps/v1",
    "kind": "Deployment",
    "metadata": {"name": "web"},
    "spec": {
        "replicas": 2,
        "selector": {"matchLabels": {"app": "w"}},
        "template": {
            "metadata": {"labels": {"app": "w"}},
            "spec": {"containers": [{"name": "c", "image": "nginx"}]},
        },
    },
}


def check(obj, old=None):
    validation.validate(obj, obj["kind"], True, old)


def causes(obj, old=None):
    with pytest.raises(errors.ApiError) as err:
        check(obj, old)
    assert err.value.code == 422
    assert err.value.reason == "Invalid"
    return {c["field"]: c["reason"] for c in err.value.details["causes"]}


def test_valid_deployment_passes():
    check(copy.deepcopy(DEPLOY))


def test_selector_must_match_template():
    d = copy.deepcopy(DEPLOY)
    d["spec"]["template"]["metadata"]["labels"] = {"app": "x"}
    assert causes(d) == {"spec.template.metadata.labels": "FieldValueInvalid"}


def test_selector_is_immutable():
    d = copy.deepcopy(DEPLOY)
    d["spec"]["selector"] = {"matchLabels": {"app": "w", "v": "2"}}
    d["spec"]["template"]["metadata"]["labels"]["v"] = "2"
    assert causes(d, DEPLOY) == {"spec.selector": "FieldValueInvalid"}


def test_required_fields_and_names():
    pod = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "UPPER"},
        "spec": {
            "containers": [
                {"name": "a", "image": "x"},
                {"name": "a", "image": "y"},
            ],
            "restartPolicy": "Sometimes",
        },
    }
    assert causes(pod) == {
        "metadata.name": "FieldValueInvalid",
        "spec.containers[1].name": "FieldValueDuplicate",
        "spec.restartPolicy": "FieldValueNotSupported",
    }


def test_wrong_type_is_a_decoding_error():
    d = copy.deepcopy(DEPLOY)
    d["spec"]["replicas"] = "two"
    with pytest.raises(errors.ApiError) as err:
        check(d)
    assert err.value.code == 400
    assert (
        "cannot unmarshal string into Go struct field spec.replicas "
        "of type int32" in err.value.message
    )


def test_affinity_term_needs_topology_key():
    d = copy.deepcopy(DEPLOY)
    d["spec"]["template"]["spec"]["affinity"] = {
        "podAntiAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": [
                {
                    "labelSelector": {"matchLabels": {"app": "w"}},
                    "topologyKey": "",
                }
            ]
        }
    }
    assert causes(d) == {
        "spec.template.spec.affinity.podAntiAffinity.requiredDuring"
        "SchedulingIgnoredDuringExecution[0].topologyKey": "FieldValueRequired"
    }


def test_unknown_fields_are_dropped_and_listed():
    d = copy.deepcopy(DEPLOY)
    d["spec"]["replicaz"] = 3
    d["spec"]["template"]["spec"]["containers"][0]["imag"] = "typo"
    dropped = schema.drop_unknown_fields(d)
    assert sorted(dropped) == [
        "spec.replicaz",
        "spec.template.spec.containers[0].imag",
    ]
    assert "replicaz" not in d["spec"]


def test_invalid_status_message_format():
    err = errors.invalid(
        "Deployment", "apps", "web", [errors.required("spec.selector")]
    )
    assert err.message == (
        'Deployment.apps "web" is invalid: spec.selector: Required value'
    )
    assert err.status()["details"]["group"] == "apps"
