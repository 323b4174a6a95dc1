"""openapi.json and the server agree: Schemathesis, every check on every operation of
/api/v1 (its examples, coverage, fuzzing and stateful phases), finds no request the
document allows that the server refuses as malformed, none it forbids that the server
takes, and no answer the document does not describe. A few examples per operation, a
fixed seed: the same requests every run; ``python benchmarks/schema_fuzz.py`` runs more.
"""

from __future__ import annotations

import pytest
from helpers import ROOT  # noqa: F401  (puts benchmarks/ on the path)
from schema_fuzz import mismatches

pytest.importorskip("schemathesis")


@pytest.mark.slow
def test_schemathesis_finds_no_mismatch() -> None:
    count, report = mismatches(examples=5, seed=1)
    assert count == 0, report[-6000:]
