"""examples/test_aclnn_<entry>.cpp: the operator's example data through the aclnn API.

The inputs are the description's example inputs (for HardSwishGrad the SPEC section 7
example: shape {9}, x = -4..4, grad = [1, 2, 3, -4, 5, -6, 7, 8, -9]), the attributes the
values the module gave them, and the result is checked against golden values that the
description's golden model (a named op's bit-exact reference; hswc-run for a generic) computes
when the package is written, with |a - e| <= 1e-5 + 1e-5 * |e|. The tensors have one flat shape, or,
of a broadcast operator, each its own (C order). The example runs the f32
kernel when the package has one, else the kernel of the lowest tiling key.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from itertools import chain

import numpy as np

from hswc import arith_semantics as sem
from hswc.backend.cpp_types import non_finite_float
from hswc.backend.description import Description
from hswc.backend.kernels import Kernel
from hswc.backend.operator import ACL_DTYPES
from hswc.backend.package_counts import aclnn_name
from hswc.backend.package_kernel import generated
from hswc.backend.package_op_api import aclnn_h, call_arguments
from hswc.interpreter.dtypes import numpy_dtype

TOLERANCE = 1e-5

_TO_FLOAT = {
    "f32": ["float ToFloat(Element value)", "{", "    return value;", "}"],
    "f16": ["float ToFloat(Element bits)", "{", "    return aclFloat16ToFloat(bits);", "}"],
    "bf16": ["float ToFloat(Element bits)", "{",
             "    const uint32_t widened = static_cast<uint32_t>(bits) << 16;",
             "    float value = 0.0f;", "    std::memcpy(&value, &widened, sizeof value);",
             "    return value;", "}"],
}
_TO_FLOAT.update({dt: ["float ToFloat(Element value)", "{",
                       "    return static_cast<float>(value);", "}"]
                  for dt in ("i8", "ui8", "i16", "i32", "i1", "ui1")})
for dt, (bits, bias, top) in {"f8E4M3FN": (3, 7, "exponent == 15 && mantissa == 7"),
                              "f8E5M2": (2, 15, "exponent == 31")}.items():
    _TO_FLOAT[dt] = [
        "float ToFloat(Element bits)", "{",
        f"    // sign, {7 - bits} exponent bits (bias {bias}), {bits} mantissa bits",
        f"    const int exponent = (bits >> {bits}) & {(1 << (7 - bits)) - 1};",
        f"    const int mantissa = bits & {(1 << bits) - 1};",
        f"    float value = exponent == 0 ? std::ldexp(static_cast<float>(mantissa), "
        f"{1 - bias - bits})",
        f"        : std::ldexp(static_cast<float>({1 << bits} + mantissa), exponent - "
        f"{bias + bits});",
        f"    if ({top}) {{",
        "        value = " + ("NAN;" if dt == "f8E4M3FN" else "mantissa == 0 ? INFINITY : NAN;"),
        "    }", "    return (bits & 0x80) != 0 ? -value : value;", "}"]
"""An element of y as float: f16 through ACL, bf16 by widening its bits (exact); an integer
converted (exact up to 2^24 in magnitude, which every int8, uint8 and int16 value is); an 8-bit
float decoded from its bit fields (exact)."""
INTEGER_ELEMENTS = {"i8": "int8_t", "ui8": "uint8_t", "i16": "int16_t", "i32": "int32_t",
                    "i1": "uint8_t", "ui1": "uint8_t", "f8E4M3FN": "uint8_t", "f8E5M2": "uint8_t"}
"""The C++ type the example holds an element of an integer dtype in (i1: a bool tensor's
bytes, 0 or 1; ui1: a packed one's bytes, 8 elements each)."""


def _float(value: float) -> str:
    """A float literal as numpy prints the f32 (an infinity or NaN through the compiler's
    builtins: C++ has no literal for them)."""
    if not math.isfinite(value):
        return non_finite_float(int(np.float32(value).view(np.uint32)))
    return f"{np.float32(value)!s}f"


NON_FINITE_CLOSE = """    if (std::isnan(expected)) {
        return std::isnan(actual);
    }
    if (std::isinf(expected)) {
        return actual == expected;
    }
"""
"""IsClose's first lines where an expected value is an infinity or a NaN (the tolerance's
difference is NaN there); an example of finite values has no need of them."""


def _elements(values: np.ndarray, dtype: str) -> str:
    """C++ initialisers: float literals for f32, integer literals for an integer type, bit
    patterns (value in a comment) otherwise."""
    if dtype in INTEGER_ELEMENTS:
        return ", ".join(str(int(v)) for v in values)
    if dtype == "f32":
        return ", ".join(_float(v) for v in values)
    bits = values.view(np.uint16)
    return ", ".join(f"0x{b:04x} /* {_float(float(v))} */" for b, v in zip(bits, values,
                                                                          strict=True))


DEVICE_TENSOR = """// One device tensor of SHAPE, freed when it goes out of scope.
struct DeviceTensor {
    void* address = nullptr;
    aclTensor* tensor = nullptr;

    bool Create(const std::vector<Element>& host)
    {
        const size_t bytes = host.size() * sizeof(Element);
        if (!Ok(aclrtMalloc(&address, bytes, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc") ||
            !Ok(aclrtMemcpy(address, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE),
                "aclrtMemcpy to the device")) {
            return false;
        }
        const std::vector<int64_t> strides(SHAPE.size(), 1);
        tensor = aclCreateTensor(SHAPE.data(), SHAPE.size(), DTYPE, strides.data(), 0,
            ACL_FORMAT_ND, SHAPE.data(), SHAPE.size(), address);
        return tensor != nullptr;
    }

    ~DeviceTensor()
    {
        if (tensor != nullptr) {
            aclDestroyTensor(tensor);
        }
        if (address != nullptr) {
            aclrtFree(address);
        }
    }
};
"""
"""The example's tensors, all of one shape (flat: the operator takes any)."""

DEVICE_TENSOR_OF_SHAPE = DEVICE_TENSOR.replace(
    "// One device tensor of SHAPE,", "// One contiguous device tensor of `shape`,").replace(
    "bool Create(const std::vector<Element>& host)",
    "bool Create(const std::vector<Element>& host, const std::vector<int64_t>& shape)").replace(
    """        const std::vector<int64_t> strides(SHAPE.size(), 1);
        tensor = aclCreateTensor(SHAPE.data(), SHAPE.size(), DTYPE, strides.data(), 0,
            ACL_FORMAT_ND, SHAPE.data(), SHAPE.size(), address);""",
    """        std::vector<int64_t> strides(shape.size(), 1);
        for (size_t i = shape.size(); i > 1; --i) {
            strides[i - 2] = strides[i - 1] * shape[i - 1];
        }
        tensor = aclCreateTensor(shape.data(), shape.size(), DTYPE, strides.data(), 0,
            ACL_FORMAT_ND, shape.data(), shape.size(), address);""")
"""Of a broadcast operator, whose tensors have each their own shape (C order)."""


def _shape_name(name: str) -> str:
    return f"{name.upper()}_SHAPE"


def _shapes(d: Description, size: int) -> str:
    """The shape constants: SHAPE (every tensor's), or each tensor's of a broadcast operator."""
    if d.shapes is None:
        return f"const std::vector<int64_t> SHAPE = {{{size}}};"
    return "\n".join(f"const std::vector<int64_t> {_shape_name(n)} = "
                     f"{{{', '.join(map(str, shape))}}};"
                     for n, shape in zip(d.operator.gm_arguments, d.gm_shapes() or (),
                                         strict=True))


def example_kernel(kernels: list[Kernel]) -> Kernel:
    return next((k for k in kernels if k.dtype == "f32"), kernels[0])


def example_arrays(kernel: Kernel, d: Description, data: Mapping[str, tuple[float, ...]]
                   ) -> tuple[list[np.ndarray], tuple[np.ndarray, ...]]:
    """The inputs of `data` (by input name) in the kernel's dtype, and the golden outputs."""
    types = kernel.gm_element_types()
    inputs = [sem.convert(np.array(data[name], np.float64), numpy_dtype(types[i]))
              for i, name in enumerate(d.operator.inputs)]
    return inputs, d.golden(kernel, inputs)


def _host_name(name: str) -> str:
    return f"{name.upper()}_HOST"


HOST_SCALAR = """
// One float aclScalar: an attribute's value, destroyed when it goes out of scope.
struct HostScalar {
    float value = 0.0f;
    aclScalar* scalar = nullptr;

    explicit HostScalar(float given) : value(given), scalar(aclCreateScalar(&value, ACL_FLOAT)) {}
    HostScalar(const HostScalar&) = delete;
    HostScalar& operator=(const HostScalar&) = delete;

    ~HostScalar()
    {
        if (scalar != nullptr) {
            aclDestroyScalar(scalar);
        }
    }
};
"""
"""The example's attributes (only a package with attributes has it)."""


def _scalar(name: str) -> str:
    return f"{name}Scalar"


def _element(dtype: str) -> str:
    """The C++ type the example holds an element of `dtype` in: f32 as float, f16 and bf16 as
    their bits, an integer as itself."""
    if dtype in INTEGER_ELEMENTS:
        return INTEGER_ELEMENTS[dtype]
    return "float" if dtype == "f32" else "uint16_t"


def _boundary_tensor(shaped: bool) -> str:
    """The device tensor of a kernel at a dtype boundary: each tensor of its own element type
    and aclDataType."""
    text = DEVICE_TENSOR_OF_SHAPE if shaped else DEVICE_TENSOR
    return text.replace("struct DeviceTensor {",
                        "template <typename Element, aclDataType DTYPE>\nstruct DeviceTensor {")


def _to_float(dtype: str, index: int | None, element: str) -> str:
    """ToFloat of an output of `dtype` (of output `index` of several: ToFloat<index>, of its
    own C++ type)."""
    lines = _TO_FLOAT[dtype]
    if index is not None:
        lines = [line.replace("ToFloat(Element", f"ToFloat{index}({element}") for line in lines]
    return "\n".join(lines)


def _read(actual: str, packed: bool) -> str:
    """Element i of the host copy `actual`: itself, or of a packed output (DT_UINT1) bit i % 8
    of byte i / 8 (the copy holds a byte per element, more than the ceil(n / 8) it needs)."""
    return f"static_cast<uint8_t>(({actual}[i / 8] >> (i % 8)) & 1u)" if packed \
        else f"{actual}[i]"


def _check_lines(output: str, element: str, expected: str, to_float: str, count: str,
                 packed: bool = False) -> list[str]:
    """Copy `output` to the host and compare each element with `expected`'s."""
    return [f"    std::vector<{element}> {output}Actual({count});",
            f"    const size_t {output}Bytes = {output}Actual.size() * sizeof({element});",
            f"    if (!ran || !Ok(aclrtMemcpy({output}Actual.data(), {output}Bytes, "
            f"{output}.address, {output}Bytes,",
            '            ACL_MEMCPY_DEVICE_TO_HOST), "aclrtMemcpy to the host")) {',
            "        return 1;", "    }",
            f"    for (size_t i = 0; i < {output}Actual.size(); ++i) {{",
            f"        const float value = {to_float}({_read(f'{output}Actual', packed)});",
            f"        const bool close = IsClose(value, {expected}[i]);",
            f'        std::printf("{output}[%zu] = %.9g, expected %.9g%s\\n", i, value, '
            f"{expected}[i],",
            '            close ? "" : "  MISMATCH");',
            "        mismatches += close ? 0 : 1;", "    }"]


def example_cpp(kernels: list[Kernel], d: Description) -> str:
    kernel = example_kernel(kernels)
    dtype = kernel.dtype
    names, outputs = d.operator.inputs, d.operator.outputs
    several = len(outputs) > 1
    out_dtypes = kernel.gm_dtypes[len(names):]
    out_dtype = out_dtypes[0]  # the dtype of every tensor, but at a dtype boundary
    inputs, results = example_arrays(kernel, d, d.example_inputs)
    expected = [r.astype(np.float32) for r in results]
    element = _element(out_dtype)
    held_out = {o: _element(dt) if kernel.mixed else "Element"
                for o, dt in zip(outputs, out_dtypes, strict=True)}
    expected_names = {o: f"EXPECTED_{o.upper()}" if several else "EXPECTED" for o in outputs}
    to_float = "\n\n".join(
        _to_float(dt, i if several else None, held_out[o])
        for i, (o, dt) in enumerate(zip(outputs, out_dtypes, strict=True)))
    first, aclnn, op_type = names[0], d.aclnn, d.op_type
    own = dict(zip(names, kernel.gm_dtypes, strict=False))
    held = {name: _element(own[name]) if kernel.mixed else "Element" for name in names}
    host_data = "\n".join(f"const std::vector<{held[name]}> "
                          f"{_host_name(name)} = {{{_elements(values, own[name])}}};"
                          for name, values in zip(names, inputs, strict=True))
    values = d.attribute_values(kernel)
    scalars = [a for a in d.aclnn_attributes if not a.integer]  # an integer: a literal
    typed = {name: f"<{_element(dt)}, {ACL_DTYPES[dt]}>" if kernel.mixed else ""
             for name, dt in zip((*names, *outputs), kernel.gm_dtypes, strict=True)}
    tensors = "\n".join([*(f"    DeviceTensor{typed[name]} {name};"
                           for name in (*names, *outputs)),
                         *(f"    HostScalar {_scalar(a.aclnn)}({_float(values[a.name])});"
                           for a in scalars)])
    shaped = d.shapes is not None  # a broadcast operator: each tensor has its own shape
    counts = {o: f"{expected_names[o]}.size()" if shaped else f"{_host_name(first)}.size()"
              for o in outputs}  # of a row kernel's outputs of their own shapes, each its own
    count = counts[outputs[0]]
    shape_args = {n: f", {_shape_name(n)}" if shaped else "" for n in (*names, *outputs)}
    creates = " || ".join([*(f"!{name}.Create({_host_name(name)}{shape_args[name]})"
                             for name in names),
                           *(f"!{o}.Create(std::vector<{held_out[o] if several else 'Element'}>"
                             f"({counts[o]}){shape_args[o]})" for o in outputs),
                           *(f"{_scalar(a.aclnn)}.scalar == nullptr" for a in scalars)])
    given = {**{a: f"{n}.tensor" for a, n in zip(d.aclnn_inputs, names, strict=True)},
             **{a: f"{o}.tensor" for a, o in zip(d.aclnn_outputs, outputs, strict=True)},
             **{a.aclnn: f"{_scalar(a.aclnn)}.scalar" for a in scalars},
             **{a.aclnn: str(int(values[a.name])) for a in d.aclnn_attributes if a.integer},
             **{c: "nullptr" for c in [aclnn_name(d.operator)] if c}}  # absent: every row
    arguments = ", ".join(given.get(a, a) for a in call_arguments(d, flags="false"))
    golden = "hswc-run's run of the kernel" if d.generated else "the bit-exact model of the kernel"
    host_scalar = HOST_SCALAR if scalars else ""
    non_finite = "" if all(np.isfinite(e).all() for e in expected) else NON_FINITE_CLOSE
    device_tensor = _boundary_tensor(shaped) if kernel.mixed else \
        DEVICE_TENSOR_OF_SHAPE if shaped else DEVICE_TENSOR
    expected_data = "\n".join(
        f"const std::vector<float> {expected_names[o]} = {{{', '.join(_float(v) for v in e)}}};"
        for o, e in zip(outputs, expected, strict=True))
    if several:
        checks = "\n".join(chain.from_iterable(_check_lines(
            o, held_out[o], expected_names[o], f"ToFloat{i}", counts[o], dt == "ui1")
            for i, (o, dt) in enumerate(zip(outputs, out_dtypes, strict=True))))
        check_text = f"    int mismatches = 0;\n{checks}\n"
    else:
        output = d.operator.outputs[0]
        check_text = f"""    std::vector<Element> actual({count});
    const size_t bytes = actual.size() * sizeof(Element);
    if (!ran || !Ok(aclrtMemcpy(actual.data(), bytes, {output}.address, bytes,
            ACL_MEMCPY_DEVICE_TO_HOST), "aclrtMemcpy to the host")) {{
        return 1;
    }}
    int mismatches = 0;
    for (size_t i = 0; i < actual.size(); ++i) {{
        const float value = ToFloat({_read("actual", out_dtype == "ui1")});
        const bool close = IsClose(value, EXPECTED[i]);
        std::printf("{output}[%zu] = %.9g, expected %.9g%s\\n", i, value, EXPECTED[i],
            close ? "" : "  MISMATCH");
        mismatches += close ? 0 : 1;
    }}
"""
    size = len(expected[0])
    verdict = (f'    std::printf(mismatches == 0 ? "{op_type} example passed.\\n" : '
               f'"{op_type} example FAILED.\\n");')
    return f"""{generated(kernels)}
// {aclnn} on the {dtype} kernel: the operator's example data, checked against goldens of
// {golden}, computed when the package was written.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "{aclnn_h(d)}"

namespace {{

using Element = {element};
constexpr aclDataType DTYPE = {ACL_DTYPES[out_dtype]};
{_shapes(d, size)}
{host_data}
{expected_data}
constexpr float TOLERANCE = {_float(TOLERANCE)};

{to_float}

bool IsClose(float actual, float expected)
{{
{non_finite}    return std::fabs(actual - expected) <= TOLERANCE + TOLERANCE * std::fabs(expected);
}}

bool Ok(aclError status, const char* what)
{{
    if (status != ACL_SUCCESS) {{
        std::printf("%s failed: error %d\\n", what, static_cast<int>(status));
        return false;
    }}
    return true;
}}

{device_tensor}{host_scalar}
int Run(aclrtStream stream)
{{
{tensors}
    if ({creates}) {{
        return 1;
    }}
    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    if (!Ok({aclnn}GetWorkspaceSize({arguments},
            &workspaceSize, &executor), "{aclnn}GetWorkspaceSize")) {{
        return 1;
    }}
    void* workspace = nullptr;
    if (workspaceSize > 0 &&
        !Ok(aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST), "workspace")) {{
        return 1;
    }}
    const bool ran = Ok({aclnn}(workspace, workspaceSize, executor, stream), "{aclnn}") &&
        Ok(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream");
    if (workspace != nullptr) {{
        aclrtFree(workspace);
    }}
{check_text}{verdict}
    return mismatches == 0 ? 0 : 1;
}}

}}  // namespace

int main()
{{
    constexpr int32_t deviceId = 0;
    if (!Ok(aclInit(nullptr), "aclInit")) {{
        return 1;
    }}
    int status = 1;
    aclrtStream stream = nullptr;
    if (Ok(aclrtSetDevice(deviceId), "aclrtSetDevice")) {{
        if (Ok(aclrtCreateStream(&stream), "aclrtCreateStream")) {{
            status = Run(stream);
            aclrtDestroyStream(stream);
        }}
        aclrtResetDevice(deviceId);
    }}
    aclFinalize();
    return status;
}}
"""


def example_path(d: Description) -> str:
    return f"examples/test_aclnn_{d.operator.stem}.cpp"


def example_files(kernels: list[Kernel], d: Description) -> dict[str, str]:
    return {example_path(d): example_cpp(kernels, d)}
