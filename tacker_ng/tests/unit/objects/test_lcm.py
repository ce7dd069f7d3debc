"""The SOL003 op-occ state machine, checked exhaustively."""

import itertools

import pytest

from tacker_ng.objects import lcm
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
    assert lcm.can_transition(src, dst) is ((src, dst) in EXPECTED)


@pytest.mark.parametrize("state", list(S))
def test_final_states_have_no_exit(state):
    assert (not lcm.TRANSITIONS[state]) is (state in lcm.FINAL_STATES)


@pytest.mark.parametrize("dst", list(S))
def test_sources_of_is_the_inverse(dst):
    assert lcm.sources_of(dst) == {s for s, d in EXPECTED if d == dst}


def test_failed_temp_is_not_final():
    assert S.FAILED_TEMP not in lcm.FINAL_STATES


def test_task_preconditions():
    assert lcm.TASK_FROM[lcm.RETRY] == {S.FAILED_TEMP}
    assert lcm.TASK_FROM[lcm.ROLLBACK] == {S.FAILED_TEMP}
    assert lcm.TASK_FROM[lcm.FAIL] == {S.FAILED_TEMP}
    assert lcm.TASK_FROM[lcm.CANCEL] == {
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
    assert lcm.required_instantiation_state(op) == expected


@pytest.mark.parametrize("op", list(Op))
def test_state_after_success_and_rollback(op):
    after = lcm.state_after_success(op)
    back = lcm.state_after_rollback(op)
    if op == Op.INSTANTIATE:
        assert after == lcm.InstantiationState.INSTANTIATED
        assert back == lcm.InstantiationState.NOT_INSTANTIATED
    elif op == Op.TERMINATE:
        assert after == lcm.InstantiationState.NOT_INSTANTIATED
        assert back is None
    else:
        assert after is None
        assert back is None
