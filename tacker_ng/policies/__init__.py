"""Policy defaults in code (oslo.policy), one module per API.

``tox -e genpolicy`` writes ``etc/tacker_ng/policy.yaml.sample`` from
``list_rules``; operators override single rules in ``policy.yaml``.
"""

import itertools
import time

from oslo_config import cfg
from oslo_policy import policy

from tacker_ng import exceptions
from tacker_ng.policies import (
    api_versions,
    base,
    conductors,
    reservation,
    vnflcm,
)

#: Policy modules, one per API. Add new ones here.
_MODULES = (base, api_versions, conductors, vnflcm, reservation)

_ENFORCER: policy.Enforcer | None = None

#: Seconds between two looks at policy.yaml for changes.
_RELOAD_CHECK_INTERVAL = 2.0


class Enforcer(policy.Enforcer):
    """oslo.policy's enforcer, looking for policy file changes at most
    every couple of seconds instead of on every request (a file-system
    search per API call was a measured hot spot)."""

    _last_check = float("-inf")

    def load_rules(self, force_reload: bool = False) -> None:
        now = time.monotonic()
        if (
            force_reload
            or not self.rules
            or now - self._last_check >= _RELOAD_CHECK_INTERVAL
        ):
            self._last_check = now
            super().load_rules(force_reload)


def list_rules() -> list:
    """Every default rule, for the enforcer and the sample generator."""
    return list(
        itertools.chain.from_iterable(m.list_rules() for m in _MODULES)
    )


def get_enforcer() -> policy.Enforcer:
    """The process-wide enforcer (entry point for oslopolicy tools)."""
    global _ENFORCER  # noqa: PLW0603
    if _ENFORCER is None:
        _ENFORCER = Enforcer(cfg.CONF)
        _ENFORCER.register_defaults(list_rules())
    return _ENFORCER


def reset() -> None:
    """Forget the enforcer (tests; after policy file or config changes)."""
    global _ENFORCER  # noqa: PLW0603
    _ENFORCER = None


def authorize(context, rule: str, target: dict | None = None) -> None:
    """Raise :class:`~tacker_ng.exceptions.Forbidden` unless allowed."""
    target = target or {"project_id": context.project_id}
    try:
        get_enforcer().authorize(
            rule, target, context, do_raise=True, exc=exceptions.Forbidden
        )
    except policy.InvalidScope as exc:
        raise exceptions.Forbidden() from exc
