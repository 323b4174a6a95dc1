"""The Gaps solver's table of positions: proved lost, or open with a visit number.

A position of the last round is a key, an int ``0 <= key < 2**288`` (``gaps._key``), and
the table maps it to ``DEAD`` (proved lost) or to its visit number in the open components
of the pass (``0 <= n < 2**31 - 1``), as a dict would, with one thing more: it can be
*aged*, to bound its size. Each proof carries the *epoch* of its last stamp: a stamp is
written when a position is set DEAD and when a read (``in``, ``[]``, ``setdefault``) finds
a proof from an older epoch (a proof that served once tends to serve again: the passes
restart from the deal); the epoch moves on every ``EPOCH`` stamps. ``age(keep)`` drops the
proofs of the oldest epochs, whole epochs, until at most ``keep`` positions are left (or
no proof is); open positions are never dropped. Dropping a proof costs searching that
position again if it is met, never a wrong answer.

This module is the reference. ``table.c`` beside it is the same table in C (setup.py
builds it with the compiled solvers, and it imports under this name): the same answers
and the same proofs dropped, operation for operation (tests/test_table.py runs both), at
about 43 bytes a position where a dict takes about 100 (an int key of 64 bytes and its
slot): 8,000,000 positions in 344 MB.
"""

from __future__ import annotations

from typing import Final

DEAD: Final = -1
EPOCH: Final = 65536  # stamps per epoch
KEY_BITS: Final = 288
NATIVE: Final = 0  # 1 in the C build
_VISITS: Final = 2**31 - 1  # visit numbers are below this


def _check_key(key: int) -> None:
    if not isinstance(key, int):
        raise TypeError(f"a position's key is an int, not {type(key).__name__}")
    if key < 0 or key >> KEY_BITS:
        raise OverflowError("a position's key is an int 0 <= key < 2**288")


def _check_value(value: int) -> None:
    if not isinstance(value, int):
        raise TypeError(f"a value is an int, not {type(value).__name__}")
    if not DEAD <= value < _VISITS:
        raise ValueError("a value is DEAD (-1) or a visit number 0 <= n < 2**31 - 1")


class PositionTable:
    """Positions -> DEAD or a visit number, with ``age()``: see the module's docstring."""

    def __init__(self) -> None:
        # the value, or -1 - e for a proof stamped in epoch e
        self._values: dict[int, int] = {}
        self._per_epoch = [0]  # proofs per epoch of their stamp
        self._stamps = 0  # in this epoch
        self.epoch = 0

    def __len__(self) -> int:
        return len(self._values)

    def _uncount(self, value: int) -> None:
        """A held ``value`` goes (replaced or removed): a proof no longer counts in its
        epoch (table.c: what ``put`` and ``drop`` do first)."""
        if value < 0:
            self._per_epoch[-1 - value] -= 1

    def _stamp(self, key: int) -> None:
        """Set ``key`` DEAD, stamped with this epoch."""
        self._uncount(self._values.get(key, 0))
        self._values[key] = -1 - self.epoch
        self._per_epoch[self.epoch] += 1
        self._stamps += 1
        if self._stamps == EPOCH:
            self._stamps = 0
            self.epoch += 1
            self._per_epoch.append(0)

    def _read(self, key: int, value: int) -> int:
        """What a read of ``key`` (held with ``value``) answers; a proof of an older epoch
        is stamped again."""
        if value >= 0:
            return value
        if value != -1 - self.epoch:
            self._stamp(key)
        return DEAD

    def __getitem__(self, key: int) -> int:
        _check_key(key)
        return self._read(key, self._values[key])

    def __contains__(self, key: int) -> bool:
        _check_key(key)
        value = self._values.get(key)
        if value is None:
            return False
        self._read(key, value)
        return True

    def __setitem__(self, key: int, value: int) -> None:
        _check_key(key)
        _check_value(value)
        if value == DEAD:
            self._stamp(key)
            return
        self._uncount(self._values.get(key, 0))
        self._values[key] = value

    def __delitem__(self, key: int) -> None:
        self.pop(key)

    def pop(self, key: int) -> int:
        """Remove ``key`` (KeyError if absent): its value, DEAD for a proof (not stamped)."""
        _check_key(key)
        value = self._values.pop(key)
        self._uncount(value)
        return DEAD if value < 0 else value

    def setdefault(self, key: int, value: int) -> int:
        """The value of ``key`` (as ``[]`` reads it), or ``value`` put in when absent."""
        _check_key(key)
        held = self._values.get(key)
        if held is not None:
            return self._read(key, held)
        _check_value(value)
        self[key] = value
        return value

    def prove_lost(self, keys: list[int], start: int) -> None:
        """Set ``keys[start:]`` DEAD, in order, and take them off ``keys`` (a strongly
        connected component completed: one call for all of it)."""
        if start < 0:
            raise ValueError("prove_lost(keys, start): start is 0 or more")
        for key in keys[start:]:
            self[key] = DEAD
        del keys[start:]

    def age(self, keep: int) -> int:
        """Drop the proofs of the oldest epochs, whole epochs, until ``keep`` positions are
        left or no proof is; how many were dropped."""
        if keep < 0:
            raise ValueError("age(keep): keep is 0 or more")
        need = len(self._values) - keep
        if need <= 0:
            return 0
        below = 0
        dropped = 0
        while below <= self.epoch and dropped < need:
            dropped += self._per_epoch[below]
            below += 1
        if not dropped:  # those epochs hold no proof: nothing to sweep
            return 0
        # -1 - value < below  <=>  value > -1 - below
        self._values = {k: v for k, v in self._values.items() if v >= 0 or v <= -1 - below}
        for e in range(below):
            self._per_epoch[e] = 0
        return dropped

    @property
    def slots(self) -> int:
        """The room the table takes, in positions (the C build's slots; here the count)."""
        return len(self._values)

    def items(self) -> list[tuple[int, int]]:
        """(key, DEAD or visit number) of every position, in no set order; not stamped."""
        return [(k, DEAD if v < 0 else v) for k, v in self._values.items()]
