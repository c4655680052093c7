"""The default suite runs a sample of a long parametrization; the rest is marked `sweep`.

`pytest` deselects sweep tests (pyproject's addopts: -m "not sweep"); `pytest -m sweep` runs
only them, `pytest -m ""` everything. A module fixture that builds for all its tests at once
builds only for the tests the session runs (`selected`), so the sample costs only itself.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

import pytest

SWEEP = pytest.mark.sweep


def sampled(values: Iterable[object], sample: Collection[object],
            ids: Sequence[str] | None = None) -> list[object]:
    """`values` as parameters: those in `sample` run by default, the others are sweep tests.
    A sample value that is not among `values` is an error (a renamed op must not silently
    leave the default suite)."""
    values = list(values)
    missing = [s for s in sample if s not in values]
    if missing:
        raise ValueError(f"sample values not among the parameters: {missing}")
    names = list(ids) if ids is not None else [None] * len(values)
    return [pytest.param(v, id=name, marks=() if v in sample else SWEEP)
            for v, name in zip(values, names, strict=True)]


def selected(request: pytest.FixtureRequest, argname: str) -> set[object]:
    """The values of `argname` among the session's tests of this module that use the fixture
    asking (not those of its other tests: their `argname` may range wider than the fixture's
    sample)."""
    found = set()
    for item in request.session.items:
        callspec = getattr(item, "callspec", None)
        if item.module is request.module and callspec is not None \
                and request.fixturename in getattr(item, "fixturenames", ()) \
                and argname in callspec.params:
            found.add(callspec.params[argname])
    return found


def halves(values: Iterable[str], sample: Collection[str]) -> list[object]:
    """One parameter holding the sample of `values` (id "sample") and one holding the rest
    (id "rest", a sweep test): for a test that handles its values in one batch."""
    values = list(values)
    missing = [s for s in sample if s not in values]
    if missing:
        raise ValueError(f"sample values not among the parameters: {missing}")
    rest = tuple(v for v in values if v not in sample)
    return [pytest.param(tuple(v for v in values if v in sample), id="sample"),
            pytest.param(rest, id="rest", marks=SWEEP)]
