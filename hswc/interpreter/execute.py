"""Running a function of a module: the xDSL interpreter with hswc's impls for every level."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.interpreter import Interpreter
from xdsl.traits import SymbolTable

from hswc.interpreter.arith_functions import ArithFunctions
from hswc.interpreter.ascend_copy_functions import AscendCopyFunctions
from hswc.interpreter.ascend_functions import AscendFunctions
from hswc.interpreter.ascend_reduce_functions import AscendReduceFunctions
from hswc.interpreter.ascend_scalar_functions import AscendScalarFunctions
from hswc.interpreter.ascend_vector_functions import AscendVectorFunctions
from hswc.interpreter.func_functions import CfFunctions, FuncFunctions
from hswc.interpreter.hsg_functions import HsgFunctions
from hswc.interpreter.linalg_functions import LinalgFunctions
from hswc.interpreter.linalg_named_functions import LinalgNamedFunctions
from hswc.interpreter.machine import Machine
from hswc.interpreter.row_functions import RowFunctions
from hswc.interpreter.scf_functions import ScfFunctions
from hswc.interpreter.tensor_functions import TensorFunctions
from hswc.interpreter.walker import Walker

FUNCTIONS = (
    ArithFunctions,
    ScfFunctions,
    FuncFunctions,
    CfFunctions,
    HsgFunctions,
    RowFunctions,
    LinalgFunctions,
    LinalgNamedFunctions,
    TensorFunctions,
    AscendFunctions,
    AscendVectorFunctions,
    AscendCopyFunctions,
    AscendScalarFunctions,
    AscendReduceFunctions,
)


def make_interpreter(module: ModuleOp, machine: Machine) -> Interpreter:
    interpreter = Walker(module)
    for functions in FUNCTIONS:
        interpreter.register_implementations(functions(machine))
    return interpreter


def call_function(module: ModuleOp, name: str, args: Sequence[Any],
                  machine: Machine) -> tuple[Any, ...]:
    """Run @name on `args` (numpy arrays for tensors); its results as a tuple."""
    callee = SymbolTable.lookup_symbol(module, name)
    if not isinstance(callee, func.FuncOp):
        raise ValueError(f"no func.func @{name} in the module")
    return tuple(make_interpreter(module, machine).call_op(callee, tuple(args)))
