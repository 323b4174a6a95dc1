"""The solver budget: node and time limits, and the clock the time limit is read on."""

from __future__ import annotations

import pytest

from dailydeal.solvers.base import Budget


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_time_limit_is_read_on_the_given_clock() -> None:
    clock = FakeClock()
    budget = Budget(time_limit=5.0, clock=clock)
    assert not budget.spent(Budget.CHECK_EVERY)
    clock.now += 4.9
    assert not budget.spent(2 * Budget.CHECK_EVERY)
    assert budget.elapsed() == pytest.approx(4.9)
    assert not budget.timed_out
    clock.now += 0.2
    assert budget.spent(3 * Budget.CHECK_EVERY)
    assert budget.timed_out  # the clock stopped it (hints answer 503 on that)


def test_node_limit_ignores_the_clock() -> None:
    budget = Budget(max_nodes=10, clock=FakeClock())
    assert not budget.spent(9)
    assert budget.spent(10)
    assert not budget.timed_out


@pytest.mark.parametrize("bad", [{"max_nodes": -1}, {"time_limit": -0.5}])
def test_negative_limits_are_refused(bad: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        Budget(**bad)  # type: ignore[arg-type]
