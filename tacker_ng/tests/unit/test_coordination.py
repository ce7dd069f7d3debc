"""Leader election per duty and periodic jobs run by the leader only."""

from tacker_ng import coordination, periodic


def _pair(tmp_path):
    url = f"file://{tmp_path}/coord"
    return (
        coordination.Coordinator(url, "conductor-a"),
        coordination.Coordinator(url, "conductor-b"),
    )


def test_one_leader_per_duty_and_takeover(tmp_path):
    a, b = _pair(tmp_path)
    try:
        assert a.leader("lcm").is_leader()
        assert not b.leader("lcm").is_leader()
        # Another duty is elected on its own.
        assert b.leader("reservation").is_leader()
        assert not a.leader("reservation").is_leader()
        # A leader that stops hands the duty over at the next tick.
        a.stop()
        assert b.leader("lcm").is_leader()
        assert b.leader("lcm").is_leader()  # keeps it
    finally:
        a.stop()
        b.stop()


def test_leader_only_job_runs_on_the_leader(tmp_path):
    a, b = _pair(tmp_path)
    ran: list[str] = []
    try:
        for who, coord in (("a", a), ("b", b)):
            job = periodic.PeriodicJob(
                "j", 1, lambda who=who: ran.append(who), leader="duty"
            )
            tick, _, _ = periodic.as_futurist(job, coord)
            tick()
            tick()
        assert ran == ["a", "a"]
    finally:
        a.stop()
        b.stop()


def test_every_conductor_job_and_failures_are_contained(tmp_path, caplog):
    a, _ = _pair(tmp_path)
    calls = []

    def boom():
        calls.append(1)
        raise RuntimeError("bad tick")

    tick, _, _ = periodic.as_futurist(periodic.PeriodicJob("boom", 1, boom), a)
    tick()
    tick()
    assert calls == [1, 1]
    assert "Periodic job boom failed" in caplog.text
    a.stop()


def test_backend_errors_mean_not_leading(tmp_path, caplog):
    """A backend that fails (here: a file backend on a path that cannot
    be created) is logged, and nobody leads until it works again."""
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    coord = coordination.Coordinator(f"file://{blocker}/coord", "x")
    coord.start()  # logged, not raised
    assert not coord.leader("lcm").is_leader()
    assert "not leading lcm" in caplog.text
    blocker.unlink()
    assert coord.leader("lcm").is_leader()
    coord.stop()
