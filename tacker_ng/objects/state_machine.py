"""The op-occ state machine of SOL003 (clause 5.6.2.2) and its rules.

Pure data and rules, no I/O: which operation may start from which VNF
instantiation state, which op-occ state may follow which, and which
states are final (they release the VNF instance for the next operation).
The transitions are written to the database, with their notifications,
by :mod:`tacker_ng.lcm.transitions`.
"""

from tacker_ng.objects.lcm import (
    InstantiationState,
    Operation,
    OperationState,
)

#: States after which nothing more happens to an op occ.
FINAL_STATES = frozenset(
    {
        OperationState.COMPLETED,
        OperationState.FAILED,
        OperationState.ROLLED_BACK,
    }
)

#: Allowed transitions of an op occ (SOL003 5.6.2.2, figure 5.6.2.2-1).
TRANSITIONS: dict[OperationState, frozenset[OperationState]] = {
    OperationState.STARTING: frozenset(
        {
            OperationState.PROCESSING,
            OperationState.ROLLED_BACK,  # cancelled before it started
            OperationState.FAILED_TEMP,  # e.g. grant rejected
        }
    ),
    OperationState.PROCESSING: frozenset(
        {OperationState.COMPLETED, OperationState.FAILED_TEMP}
    ),
    OperationState.FAILED_TEMP: frozenset(
        {
            OperationState.PROCESSING,  # retry
            OperationState.ROLLING_BACK,  # rollback
            OperationState.FAILED,  # fail
        }
    ),
    OperationState.ROLLING_BACK: frozenset(
        {OperationState.ROLLED_BACK, OperationState.FAILED_TEMP}
    ),
    OperationState.COMPLETED: frozenset(),
    OperationState.FAILED: frozenset(),
    OperationState.ROLLED_BACK: frozenset(),
}

#: Task resources on an op occ and the state each requires / leads to.
RETRY, ROLLBACK, FAIL, CANCEL = "retry", "rollback", "fail", "cancel"
TASK_FROM: dict[str, frozenset[OperationState]] = {
    RETRY: frozenset({OperationState.FAILED_TEMP}),
    ROLLBACK: frozenset({OperationState.FAILED_TEMP}),
    FAIL: frozenset({OperationState.FAILED_TEMP}),
    CANCEL: frozenset(
        {
            OperationState.STARTING,
            OperationState.PROCESSING,
            OperationState.ROLLING_BACK,
        }
    ),
}

#: Operations that need the instance NOT_INSTANTIATED; all others need it
#: INSTANTIATED (MODIFY_INFO, done in the API, needs neither).
NEEDS_NOT_INSTANTIATED = frozenset({Operation.INSTANTIATE})
NEEDS_INSTANTIATED = frozenset(
    set(Operation) - {Operation.INSTANTIATE, Operation.MODIFY_INFO}
)


def can_transition(src: OperationState, dst: OperationState) -> bool:
    """True when an op occ may move from ``src`` to ``dst``."""
    return dst in TRANSITIONS[src]


def sources_of(dst: OperationState) -> frozenset[OperationState]:
    """Every state an op occ may enter ``dst`` from (for conditional SQL)."""
    return frozenset(s for s, targets in TRANSITIONS.items() if dst in targets)


def required_instantiation_state(op: Operation) -> InstantiationState | None:
    """The instance state an operation needs to start, if any."""
    if op in NEEDS_NOT_INSTANTIATED:
        return InstantiationState.NOT_INSTANTIATED
    if op in NEEDS_INSTANTIATED:
        return InstantiationState.INSTANTIATED
    return None


def state_after_success(op: Operation) -> InstantiationState | None:
    """The instance state a COMPLETED operation leaves (None: unchanged)."""
    if op == Operation.INSTANTIATE:
        return InstantiationState.INSTANTIATED
    if op == Operation.TERMINATE:
        return InstantiationState.NOT_INSTANTIATED
    return None


def state_after_rollback(op: Operation) -> InstantiationState | None:
    """The instance state a ROLLED_BACK operation leaves (None: unchanged)."""
    if op == Operation.INSTANTIATE:
        return InstantiationState.NOT_INSTANTIATED
    return None
