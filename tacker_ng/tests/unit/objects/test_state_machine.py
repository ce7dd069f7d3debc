"""The SOL003 op-occ state machine, checked exhaustively."""

import itertools

import pytest

from tacker_ng.objects import lcm, state_machine
from tacker_ng.objects.lcm import Operation as Op
from tacker_ng.objects.lcm import OperationState as S

EXPECTED = {
    (S.STARTING, S.PROCESSING),
    (S.STARTING, S.ROLLED_BACK),
    (S.STARTING, S.FAILED_TEMP),
    (S.PROCESSING, S.COMPLETED),
    (S.PROCESSING, S.FAILED_TEMP),
    (S.FAILED_TEMP, S.PROCESSING),
    (S.FAILED_TEMP, S.ROLLING_BACK),
    (S.FAILED_TEMP, S.FAILED),
    (S.ROLLING_BACK, S.ROLLED_BACK),
    (S.ROLLING_BACK, S.FAILED_TEMP),
}


@pytest.mark.parametrize("src,dst", list(itertools.product(S, S)))
def test_every_pair(src, dst):
    assert state_machine.can_transition(src, dst) is ((src, dst) in EXPECTED)


@pytest.mark.parametrize("state", list(S))
def test_final_states_have_no_exit(state):
    assert (not state_machine.TRANSITIONS[state]) is (
        state in state_machine.FINAL_STATES
    )


@pytest.mark.parametrize("dst", list(S))
def test_sources_of_is_the_inverse(dst):
    assert state_machine.sources_of(dst) == {
        s for s, d in EXPECTED if d == dst
    }


def test_failed_temp_is_not_final():
    assert S.FAILED_TEMP not in state_machine.FINAL_STATES


def test_task_preconditions():
    assert state_machine.TASK_FROM[state_machine.RETRY] == {S.FAILED_TEMP}
    assert state_machine.TASK_FROM[state_machine.ROLLBACK] == {S.FAILED_TEMP}
    assert state_machine.TASK_FROM[state_machine.FAIL] == {S.FAILED_TEMP}
    assert state_machine.TASK_FROM[state_machine.CANCEL] == {
        S.STARTING,
        S.PROCESSING,
        S.ROLLING_BACK,
    }


@pytest.mark.parametrize("op", list(Op))
def test_required_instantiation_state(op):
    expected = {
        Op.INSTANTIATE: lcm.InstantiationState.NOT_INSTANTIATED,
        Op.MODIFY_INFO: None,
    }.get(op, lcm.InstantiationState.INSTANTIATED)
    assert state_machine.required_instantiation_state(op) == expected


@pytest.mark.parametrize("op", list(Op))
def test_state_after_success_and_rollback(op):
    after = state_machine.state_after_success(op)
    back = state_machine.state_after_rollback(op)
    if op == Op.INSTANTIATE:
        assert after == lcm.InstantiationState.INSTANTIATED
        assert back == lcm.InstantiationState.NOT_INSTANTIATED
    elif op == Op.TERMINATE:
        assert after == lcm.InstantiationState.NOT_INSTANTIATED
        assert back is None
    else:
        assert after is None
        assert back is None
