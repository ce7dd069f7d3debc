"""Simple thresholds with hysteresis: UP at or above value + hysteresis,
DOWN at or below value - hysteresis, no change in between."""

import pytest

from tacker_ng.pm import hysteresis as h


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (90.0, "UP"),
        (85.0, "UP"),  # reaches the upper bound
        (84.999, None),
        (80.0, None),
        (75.001, None),
        (75.0, "DOWN"),  # reaches the lower bound
        (-3.0, "DOWN"),
    ],
)
def test_side(value, expected):
    assert h.side(value, 80.0, 5.0) == expected


def test_zero_hysteresis_has_no_band():
    assert h.side(80.0, 80.0, 0.0) == "UP"
    assert h.side(79.9, 80.0, 0.0) == "DOWN"


def test_negative_hysteresis_is_a_mistake():
    with pytest.raises(ValueError):
        h.side(1.0, 0.0, -1.0)


def test_a_wobbling_value_crosses_once_each_way():
    state = None
    crossings = []
    for value in (70, 79, 82, 86, 83, 81, 86, 84, 76, 74, 78, 76, 90):
        crossed = h.crossing(state, value, 80.0, 5.0)
        if crossed:
            crossings.append((value, crossed))
            state = crossed
    assert crossings == [(86, "UP"), (74, "DOWN"), (90, "UP")]


@pytest.mark.parametrize(
    ("previous", "value", "expected"),
    [
        (None, 100.0, "UP"),  # the first value above is a crossing
        (None, 0.0, None),  # the first value below is none: it starts DOWN
        ("DOWN", 100.0, "UP"),
        ("UP", 100.0, None),
        ("UP", 0.0, "DOWN"),
        ("DOWN", 0.0, None),
        ("UP", 50.0, None),
        ("DOWN", 50.0, None),
    ],
)
def test_crossing_table(previous, value, expected):
    assert h.crossing(previous, value, 50.0, 10.0) == expected
