"""op wait's loop and progress output, with a fake clock and poll."""

import io

import pytest

from tacker_ng.osc import waiting


class Clock:
    def __init__(self) -> None:
        self.now = 0.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def _poller(states):
    occs = iter(
        {"id": "occ-1", "operation": "SCALE", "operationState": s}
        for s in states
    )
    return lambda: next(occs)


def _wait(states, tty=False, timeout=100.0, interval=2.0):
    clock = Clock()
    out = io.StringIO()
    reporter = waiting.Reporter(out=out, tty=tty)
    occ = waiting.wait(
        _poller(states),
        reporter,
        timeout=timeout,
        interval=interval,
        clock=clock,
        sleep=clock.sleep,
    )
    return occ, out.getvalue(), clock


@pytest.mark.parametrize("final", sorted(waiting.FINAL))
def test_returns_the_first_final_state(final):
    occ, _, clock = _wait(["STARTING", "PROCESSING", final, "NEVER"])
    assert occ["operationState"] == final
    assert clock.slept == [2.0, 2.0]


def test_plain_output_has_one_line_per_state_change():
    _, out, _ = _wait(
        ["STARTING", "PROCESSING", "PROCESSING", "PROCESSING", "COMPLETED"]
    )
    lines = out.splitlines()
    assert [line.split()[-1] for line in lines] == [
        "STARTING",
        "PROCESSING",
        "COMPLETED",
    ]
    assert lines[2] == "    8.0s SCALE occ-1 COMPLETED"
    assert "\r" not in out


def test_tty_output_redraws_a_bar_and_ends_the_line():
    _, out, _ = _wait(["STARTING", "PROCESSING", "COMPLETED"], tty=True)
    frames = out.split("\r")[1:]
    assert len(frames) == 3
    assert frames[0].startswith("[" + "#" * 8 + "." * 16 + "] STARTING")
    assert frames[1].startswith("[" + "#" * 16 + "." * 8 + "] PROCESSING")
    assert frames[2] == "[" + "#" * 24 + "] COMPLETED       4s\n"


def test_timeout_raises_with_the_last_state():
    with pytest.raises(waiting.WaitTimeout) as exc:
        _wait(["PROCESSING"] * 10, timeout=5.0, interval=2.0)
    assert "still PROCESSING after 5 s" in str(exc.value)
    assert exc.value.occ["operationState"] == "PROCESSING"


def test_the_last_sleep_does_not_overshoot_the_timeout():
    clock = Clock()
    with pytest.raises(waiting.WaitTimeout):
        waiting.wait(
            _poller(["PROCESSING"] * 10),
            waiting.Reporter(out=io.StringIO(), tty=False),
            timeout=5.0,
            interval=2.0,
            clock=clock,
            sleep=clock.sleep,
        )
    assert clock.slept == [2.0, 2.0, 1.0]


def test_timeout_on_a_tty_ends_the_bar_line():
    out = io.StringIO()
    clock = Clock()
    with pytest.raises(waiting.WaitTimeout):
        waiting.wait(
            _poller(["STARTING"] * 5),
            waiting.Reporter(out=out, tty=True),
            timeout=1.0,
            interval=1.0,
            clock=clock,
            sleep=clock.sleep,
        )
    assert out.getvalue().endswith("\n")
    assert clock.slept == [1.0]


def test_unsuccessful_states_are_the_final_failures():
    assert {"COMPLETED"} == waiting.FINAL - waiting.UNSUCCESSFUL
    assert "ROLLING_BACK" not in waiting.FINAL


@pytest.mark.parametrize(
    ("error", "text"),
    [
        (
            {"title": "VIM Error", "detail": "no host", "status": 500},
            "VIM Error: no host",
        ),
        ({"detail": "only detail"}, "only detail"),
        (None, "no error details recorded"),
    ],
)
def test_outcome_message_carries_the_problem_details(error, text):
    occ = {
        "id": "o",
        "operation": "HEAL",
        "operationState": "FAILED_TEMP",
        "error": error,
    }
    assert waiting.outcome_message(occ) == (
        f"Operation HEAL (o) ended FAILED_TEMP: {text}"
    )


def test_bar_of_an_unknown_state_starts_at_the_first_step():
    assert waiting.bar("WEIRD", 0.4).startswith("[" + "#" * 8 + ".")
