"""Policy defaults in code (oslo.policy), one module per API.

``tox -e genpolicy`` writes ``etc/tacker_ng/policy.yaml.sample`` from
``list_rules``; operators override single rules in ``policy.yaml``.
"""

import itertools
import threading
import time

from oslo_config import cfg
from oslo_policy import policy

from tacker_ng import exceptions
from tacker_ng.policies import (
    api_versions,
    base,
    conductors,
    grant,
    metrics,
    reservation,
    vims,
    vnffm,
    vnflcm,
    vnfpkgm,
    vnfpm,
)

#: Policy modules, one per API. Add new ones here.
_MODULES = (
    base,
    api_versions,
    conductors,
    vnflcm,
    vnfpkgm,
    reservation,
    vnffm,
    grant,
    vims,
    vnfpm,
    metrics,
)

_ENFORCER: policy.Enforcer | None = None
#: Serialises building the enforcer (see :func:`get_enforcer`).
_ENFORCER_LOCK = threading.Lock()

#: Seconds between two looks at policy.yaml for changes.
_RELOAD_CHECK_INTERVAL = 2.0


#: Decisions remembered per enforcer before the memory is cleared.
_DECISION_CACHE_SIZE = 10000


class Enforcer(policy.Enforcer):
    """oslo.policy's enforcer with two measured hot spots removed.

    * Policy file changes are looked for at most every couple of seconds
      instead of on every request (a file-system search per call).
    * Decisions are remembered per (rule, credentials, target) until the
      rules change: our check strings are pure functions of those, and
      evaluating them (oslo.policy inspects every check's signature) cost
      more than a small API request's database work.
    """

    _last_check = float("-inf")

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._decisions: dict[tuple, bool] = {}
        self._decided_for: object = None

    def load_rules(self, force_reload: bool = False) -> None:
        now = time.monotonic()
        if (
            force_reload
            or not self.rules
            or now - self._last_check >= _RELOAD_CHECK_INTERVAL
        ):
            self._last_check = now
            super().load_rules(force_reload)

    def decide(self, rule: str, target: dict, context) -> bool:
        """Whether ``context`` may do ``rule`` on ``target`` (memoized)."""
        self.load_rules()
        if self._decided_for is not self.rules:
            self._decisions = {}
            self._decided_for = self.rules
        creds = context.to_policy_values()
        key = (
            rule,
            tuple(
                sorted(
                    (k, tuple(v) if isinstance(v, list) else v)
                    for k, v in creds.items()
                )
            ),
            tuple(sorted(target.items())),
        )
        allowed = self._decisions.get(key)
        if allowed is None:
            try:
                allowed = bool(self.authorize(rule, target, context))
            except policy.InvalidScope:
                allowed = False
            if len(self._decisions) >= _DECISION_CACHE_SIZE:
                self._decisions = {}
            self._decisions[key] = allowed
        return allowed


def list_rules() -> list:
    """Every default rule, for the enforcer and the sample generator."""
    return list(
        itertools.chain.from_iterable(m.list_rules() for m in _MODULES)
    )


def get_enforcer() -> policy.Enforcer:
    """The process-wide enforcer (entry point for oslopolicy tools)."""
    global _ENFORCER  # noqa: PLW0603
    enforcer = _ENFORCER
    if enforcer is not None:
        return enforcer
    # Built whole before it is shared: a request thread that found the
    # enforcer published before its defaults were registered was refused
    # (403) any rule, about once per first burst of concurrent requests
    # on a fresh API worker (issue #32's LCM throughput benchmark).
    with _ENFORCER_LOCK:
        if _ENFORCER is None:
            enforcer = Enforcer(cfg.CONF)
            enforcer.register_defaults(list_rules())
            _ENFORCER = enforcer
        return _ENFORCER


def reset() -> None:
    """Forget the enforcer (tests; after policy file or config changes)."""
    global _ENFORCER  # noqa: PLW0603
    _ENFORCER = None


def authorize(context, rule: str, target: dict | None = None) -> None:
    """Raise :class:`~tacker_ng.exceptions.Forbidden` unless allowed."""
    target = target or {"project_id": context.project_id}
    if not get_enforcer().decide(rule, target, context):
        raise exceptions.Forbidden()
