"""The policy enforcer is shared only once built: concurrent first
requests of a fresh API worker are judged by the default rules."""

import threading
import time

from tacker_ng import context, policies


def test_concurrent_first_requests_see_the_default_rules(conf, monkeypatch):
    policies.reset()
    real = policies.list_rules

    def slow_rules():
        # Widen the window between building and registering.
        time.sleep(0.2)
        return real()

    monkeypatch.setattr(policies, "list_rules", slow_rules)
    ctx = context.get_admin_context()
    outcomes: list[bool] = []
    barrier = threading.Barrier(8)

    def first_request() -> None:
        barrier.wait()
        enforcer = policies.get_enforcer()
        outcomes.append(
            enforcer.decide(
                "tacker_ng:vnflcm:instantiate",
                {"project_id": ctx.project_id},
                ctx,
            )
        )

    threads = [threading.Thread(target=first_request) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    policies.reset()
    assert outcomes == [True] * 8
