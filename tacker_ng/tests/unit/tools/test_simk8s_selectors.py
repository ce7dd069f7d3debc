"""Label/field selectors and quantities of the Kubernetes simulator."""

from decimal import Decimal

import pytest

from tools.simcloud.k8s import fields, labelsel, quantity
from tools.simcloud.k8s.errors import ApiError


@pytest.mark.parametrize(
    ("text", "labels", "expected"),
    [
        ("", {"a": "b"}, True),
        ("app=web", {"app": "web"}, True),
        ("app==web", {"app": "db"}, False),
        ("app!=web", {}, True),
        ("app!=web", {"app": "web"}, False),
        ("env in (prod, dev)", {"env": "dev"}, True),
        ("env notin (prod,dev)", {"env": "dev"}, False),
        ("env notin (prod)", {}, True),
        ("tier", {"tier": ""}, True),
        ("!tier", {"tier": "x"}, False),
        ("app=web,tier", {"app": "web"}, False),
        ("n>3", {"n": "4"}, True),
        ("n<3", {"n": "4"}, False),
        ("a=b, env in (x,y), !z", {"a": "b", "env": "y"}, True),
    ],
)
def test_label_selector_strings(text, labels, expected):
    assert labelsel.parse_labels(text).matches(labels) is expected


@pytest.mark.parametrize("text", ["a in x", "=b", "n>x", "a b"])
def test_bad_label_selector(text):
    with pytest.raises(labelsel.SelectorError):
        labelsel.parse_labels(text)


def test_label_selector_object_forms():
    sel = labelsel.from_object(
        {
            "matchLabels": {"app": "store"},
            "matchExpressions": [
                {"key": "tier", "operator": "NotIn", "values": ["cache"]}
            ],
        }
    )
    assert sel.matches({"app": "store", "tier": "db"})
    assert not sel.matches({"app": "store", "tier": "cache"})
    assert labelsel.from_object(None).matches({}) is False  # nil: nothing
    assert labelsel.from_object({}).matches({"x": "y"})  # empty: all
    with pytest.raises(labelsel.SelectorError):
        labelsel.from_object(
            {
                "matchExpressions": [
                    {"key": "a", "operator": "In", "values": []}
                ]
            }
        )
    assert (
        labelsel.to_string({"matchLabels": {"b": "2", "a": "1"}}) == "a=1,b=2"
    )


def test_field_selectors():
    pod = {
        "metadata": {"name": "p", "namespace": "ns"},
        "spec": {"nodeName": "n1"},
        "status": {"phase": "Running"},
    }
    assert fields.matches(fields.parse("Pod", "spec.nodeName=n1"), pod)
    assert not fields.matches(
        fields.parse("Pod", "spec.nodeName=n1,status.phase!=Running"), pod
    )
    assert fields.matches(fields.parse("Pod", "metadata.name==p"), pod)
    node = {"metadata": {"name": "n"}, "spec": {}}
    assert fields.matches(
        fields.parse("Node", "spec.unschedulable=false"), node
    )
    with pytest.raises(ApiError) as err:
        fields.parse("ConfigMap", "spec.nodeName=x")
    assert (err.value.code, err.value.message) == (
        400,
        "field label not supported: spec.nodeName",
    )


@pytest.mark.parametrize(
    ("text", "milli", "whole"),
    [
        ("100m", 100, 1),
        ("1", 1000, 1),
        ("1.5", 1500, 2),
        ("2Gi", None, 2 * 1024**3),
        ("1k", None, 1000),
        ("500Mi", None, 500 * 1024**2),
        (3, 3000, 3),
    ],
)
def test_quantities(text, milli, whole):
    if milli is not None:
        assert quantity.milli(text) == milli
    assert quantity.whole(text) == whole


def test_bad_quantity():
    assert not quantity.is_valid("12 cows")
    assert quantity.parse("1e3") == Decimal(1000)
