"""Identifiers C++ code printed by hswc cannot declare: C++'s keywords and the names of the AscendC
API and of the code around the printed values. Below the passes and the backend, which both
choose names (hsg-tile-on-cores names kernels after functions; hswc.backend.names names values;
hswc.kernel_signature names a kernel's scalars), and the lowerCamelCase they take from name hints.
"""

from __future__ import annotations

import re

CPP_KEYWORDS = frozenset(
    """
    alignas alignof and and_eq asm auto bitand bitor bool break case catch char char16_t
    char32_t char8_t class compl concept const const_cast consteval constexpr constinit continue
    co_await co_return co_yield decltype default delete do double dynamic_cast else enum
    explicit export extern false float for friend goto if inline int long mutable namespace new
    noexcept not not_eq nullptr operator or or_eq private protected public register
    reinterpret_cast requires return short signed sizeof static static_assert static_cast struct
    switch template this thread_local throw true try typedef typeid typename union unsigned using
    virtual void volatile wchar_t while xor xor_eq
    """.split()
)

RESERVED = frozenset(
    """
    AscendC GM_ADDR half bfloat16_t int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t
    uint64_t main op std
    """.split()
)
"""Identifiers of the AscendC API and of the code around the printed values."""

ASCENDC_MACROS = frozenset(
    """
    __global__ __aicore__ __gm__ __ubuf__ __inline__ __cce_get_tile_ptr GM_ADDR TILING_KEY_IS
    GET_TILING_DATA GET_TILING_DATA_WITH_STRUCT GET_TILING_DATA_PTR_WITH_STRUCT
    GET_TILING_DATA_MEMBER REGISTER_TILING_DEFAULT REGISTER_TILING_FOR_TILINGKEY
    KERNEL_TASK_TYPE_DEFAULT KERNEL_TASK_TYPE ASCEND_IS_AIV ASCEND_IS_AIC DTYPE_X DTYPE_Y
    PIPE_V PIPE_S PIPE_MTE2 PIPE_MTE3 PIPE_ALL
    """.split()
)
"""The macros and compiler keywords of AscendC kernel code (asc-devkit's kernel_operator.h and
the bisheng compiler): a name spelled like one is replaced by the preprocessor, or is not a
name. Every `ASCENDC_*` name is taken too (`ASCENDC_TPL_*`, ...)."""


def unusable(name: str) -> str | None:
    """Why C++ code printed by hswc cannot declare `name` at global scope (a kernel entry, an
    operator's class), or None when it can: a C++ keyword, a name of the AscendC API or of the
    printed code, an AscendC macro or compiler keyword, or an identifier C++ reserves for the
    implementation (any name holding `__`, or starting with `_`: [lex.name])."""
    if name in CPP_KEYWORDS:
        return "it is a C++ keyword"
    if name in ASCENDC_MACROS or name.startswith("ASCENDC_"):
        return "it is an AscendC macro or compiler keyword"
    if name in RESERVED:
        return "it is a name of the AscendC API or of the code around the kernel"
    if "__" in name:
        return "C++ reserves names holding a double underscore for the implementation"
    if name.startswith("_"):
        return "C++ reserves names starting with an underscore at global scope"
    return None


def operator_stem(name: str) -> str:
    """A name of the IR (a function's) made an operator stem C++ can declare: characters other
    than letters, digits and `_` become `_`, a name C++ reserves (`__global__`, `_f`) loses its
    leading, trailing and doubled underscores, a leading digit gets `op_` before it, and a
    keyword or reserved name (`main`, as every torch-mlir export names its function) gets `_op`
    after."""
    stem = re.sub(r"[^0-9A-Za-z_]", "_", name) or "op"
    if "__" in stem or stem.startswith("_"):
        stem = re.sub(r"_+", "_", stem).strip("_") or "op"
    if stem[0].isdigit():
        stem = f"op_{stem}"
    camel = "".join(w[:1].upper() + w[1:] for w in stem.split("_"))
    if unusable(stem) is not None or unusable(camel) is not None:
        stem = f"{stem}_op"
    return stem


_XDSL_SUFFIX = re.compile(r"_\d+$")
_WORD = re.compile(r"[0-9A-Za-z]+")


def lower_camel(hint: str) -> str:
    """`x_fp32_buf` -> `xFp32Buf`; the `_1` xDSL appends to repeated hints is dropped."""
    words = _WORD.findall(_XDSL_SUFFIX.sub("", hint))
    if not words:
        return ""
    name = words[0][0].lower() + words[0][1:] + "".join(w[0].upper() + w[1:] for w in words[1:])
    return "v" + name if name[0].isdigit() else name
