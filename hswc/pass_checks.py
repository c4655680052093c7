"""A pass pipeline checked once, after its last pass, as every tool checks it (hswc-opt,
hswc-run's and the Python API's compile_module, hswc-emit).

hswc.verification_cache compares each op with what it was when it last verified, so one check
after the last pass sees what every pass created or changed: a model's lowering no longer
verifies the ops one pass builds and the next replaces. Should that check fail, or a pass fail
other than with a diagnostic of its own (an internal error, perhaps on IR an earlier pass
broke), the passes run again from the input with a check after each, and the run reports what
that reports: the first pass whose output fails, so every message is the one a check after
each pass gives. `checked_once` is that policy; `apply_checked` applies it to a list of passes.

Above hswc.verification (verify_located) and hswc.diagnostics (OpError).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import DiagnosticException

from hswc.diagnostics import OpError
from hswc.verification import verify_located
from hswc.verification_cache import VerifiedOps


class LateFailure(Exception):
    """The check after the last pass failed, with the checks deferred to it: the passes run
    again with one after each (`checked_once`)."""

    def __init__(self, error: OpError):
        super().__init__(str(error))
        self.error = error


def checked_once(lower: Callable[[bool], None]) -> None:
    """`lower(False)`: the passes applied with one check after the last, which raises
    LateFailure when it fails. When that raises other than a pass's own diagnostic,
    `lower(True)` applies them again from the input with a check after each, and what it raises
    is raised (the passes are deterministic: it fails first); should it not, the first failure
    is."""
    try:
        lower(False)
        return
    except DiagnosticException:
        raise
    except Exception as error:  # re-raised below, after the second run
        failure = error.error if isinstance(error, LateFailure) else error
    lower(True)
    raise failure


Step = Callable[[ModulePass, ModuleOp], None]
"""Applies one pass to the module (with what a tool does around it)."""

Fresh = Callable[[], tuple[ModuleOp, VerifiedOps]]
"""The module to lower and what of it verified (hswc.verification_cache): the first call the
one to lower, each later call a new copy of the input, as it was before the first pass."""


def apply_checked(passes: Sequence[ModulePass], ctx: Context, fresh: Fresh,
                  step: Step | None = None) -> ModuleOp:
    """The module `fresh()` gives with `passes` applied (each by `step`, default
    `pass.apply`), verified once after the last (verify_located with its VerifiedOps);
    `checked_once` when that or a pass fails. Returns the lowered module (the first one `fresh`
    gave)."""
    lowered: list[ModuleOp] = []

    def lower(each: bool) -> None:
        module, verified = fresh()
        for p in passes:
            if step is None:
                p.apply(ctx, module)
            else:
                step(p, module)
            if each:
                verify_located(module, verified)
        if not each and passes:
            try:
                verify_located(module, verified)
            except OpError as error:
                raise LateFailure(error) from None
        lowered.append(module)

    checked_once(lower)
    return lowered[0]


def trusted(module: ModuleOp) -> VerifiedOps:
    """The VerifiedOps of a module that verifies without checking it again: a clone of one that
    verified (every op is where and what it was in the original)."""
    verified = VerifiedOps()
    verified.changed(module)
    verified.commit()
    return verified
