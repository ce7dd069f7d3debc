"""Request bodies and option parsing of scale-to-level/change-flavour."""

import argparse
import json

import pytest
from osc_lib import exceptions

from tacker_ng.osc import tasks


def _args(**kw):
    base = {
        "request_file": None,
        "instantiation_level_id": None,
        "scale_level": None,
        "additional_param": None,
        "flavour_id": None,
    }
    return argparse.Namespace(**{**base, **kw})


def test_key_value():
    assert tasks.key_value("a=b=c") == ("a", "b=c")
    assert tasks.key_value("a=") == ("a", "")
    for bad in ("a", "=b", ""):
        with pytest.raises(argparse.ArgumentTypeError):
            tasks.key_value(bad)


def test_scale_level():
    assert tasks.scale_level("VDU1_scale=2") == {
        "aspectId": "VDU1_scale",
        "scaleLevel": 2,
    }
    for bad in ("VDU1_scale=-1", "VDU1_scale=x", "VDU1_scale", "=1"):
        with pytest.raises(argparse.ArgumentTypeError):
            tasks.scale_level(bad)


def test_scale_to_level_by_levels_with_params():
    body = tasks.scale_to_level_body(
        _args(
            scale_level=[
                {"aspectId": "a", "scaleLevel": 1},
                {"aspectId": "b", "scaleLevel": 0},
            ],
            additional_param=[("k", "v")],
        )
    )
    assert body == {
        "scaleInfo": [
            {"aspectId": "a", "scaleLevel": 1},
            {"aspectId": "b", "scaleLevel": 0},
        ],
        "additionalParams": {"k": "v"},
    }


def test_scale_to_level_by_instantiation_level():
    body = tasks.scale_to_level_body(_args(instantiation_level_id="l2"))
    assert body == {"instantiationLevelId": "l2"}


@pytest.mark.parametrize(
    "kw",
    [
        {},
        {
            "instantiation_level_id": "l2",
            "scale_level": [{"aspectId": "a", "scaleLevel": 1}],
        },
    ],
)
def test_scale_to_level_needs_exactly_one_target(kw):
    with pytest.raises(exceptions.CommandError, match="either"):
        tasks.scale_to_level_body(_args(**kw))


def test_request_file_is_the_base_and_options_override(tmp_path):
    path = tmp_path / "req.json"
    path.write_text(
        json.dumps(
            {
                "newFlavourId": "old",
                "additionalParams": {"fake": {"sleep": 1}, "k": "file"},
            }
        )
    )
    body = tasks.change_flavour_body(
        _args(
            request_file=str(path),
            flavour_id="new",
            instantiation_level_id="l1",
            additional_param=[("k", "cli")],
        )
    )
    assert body == {
        "newFlavourId": "new",
        "instantiationLevelId": "l1",
        "additionalParams": {"fake": {"sleep": 1}, "k": "cli"},
    }


def test_change_flavour_needs_a_flavour():
    with pytest.raises(exceptions.CommandError, match="--flavour-id"):
        tasks.change_flavour_body(_args())


@pytest.mark.parametrize("content", ["[1]", "{not json", None])
def test_bad_request_files_are_command_errors(tmp_path, content):
    path = tmp_path / "req.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(exceptions.CommandError, match="req.json"):
        tasks.read_request_file(str(path))
