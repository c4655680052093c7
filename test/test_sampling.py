"""test/sampling.py's `selected`: a module fixture builds for the tests that use it, not for the
values its module's other tests range over (test_math_ops: every op's levels are checked, four
ops' C++ is built)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from sampling import selected


def _item(module: object, op: str, fixtures: tuple[str, ...]) -> SimpleNamespace:
    return SimpleNamespace(module=module, callspec=SimpleNamespace(params={"op": op}),
                           fixturenames=fixtures)


def test_only_the_tests_using_the_fixture_count() -> None:
    here, elsewhere = object(), object()
    items = [_item(here, "exp", ("executables", "tmp_path")),
             _item(here, "log", ("tmp_path",)),  # another test of the module, not building
             _item(elsewhere, "tanh", ("executables",)),  # another module's fixture of the name
             SimpleNamespace(module=here, fixturenames=("executables",))]  # not parametrized
    request: Any = SimpleNamespace(session=SimpleNamespace(items=items), module=here,
                                   fixturename="executables")
    assert selected(request, "op") == {"exp"}
