"""The CMakeLists.txt files that let ops-nn's build pick the package up, where ops-nn has them.

ops-nn's `add_category_subdirectory` adds an operator folder's sub-folders that have a
CMakeLists.txt (tests/ only when tests are built); the root file does the same when the folder
is added on its own. op_host/ registers the host sources with `add_modules_sources` (its aclnn
API is the package's own: `aclnn_exclude`); tests/ut/op_host adds the tiling unit test to the
op-host UT target, tests/ut/op_kernel the kernel unit test with `AddOpTestCase`, compiled for
the example kernel's dtype and linked with the op's tiling sources.
"""

from __future__ import annotations

from hswc.backend.cpp_types import element_cpp
from hswc.backend.kernels import Kernel
from hswc.backend.operator import Operator
from hswc.backend.package_example import example_kernel
from hswc.backend.source import generated_note

UT_SOC = "ascend910B1"
"""The SoC version ops-nn's kernel unit tests build for (an Atlas A2)."""
ARCH35_UT_SOC = "ascend950pr_9599"
"""The SoC version ops-nn's arch35 kernel unit tests build for (an Ascend 950PR)."""


def _cmake(operator: Operator, purpose: str, body: list[str]) -> str:
    return "\n".join([f"# {generated_note([operator])}", f"# {purpose}", "", *body]) + "\n"


def _add_subfolders(names: list[str], condition: str | None = None) -> list[str]:
    """add_subdirectory for each of `names` that has a CMakeLists.txt."""
    lines = [f"foreach(hswc_part IN ITEMS {' '.join(names)})",
             '    if(EXISTS "${CMAKE_CURRENT_SOURCE_DIR}/${hswc_part}/CMakeLists.txt")',
             "        add_subdirectory(${hswc_part})",
             "    endif()",
             "endforeach()"]
    if condition is None:
        return lines
    return [f"if({condition})", *("    " + line for line in lines), "endif()"]


def root_cmake(op: Operator) -> str:
    return _cmake(op, f"The {op.op_type} operator: its host sources, and its tests when tests "
                  "are built.", [*_add_subfolders(["op_host"]),
                                 *_add_subfolders(["tests"], "ENABLE_TEST OR BENCHMARK")])


def op_host_cmake(op: Operator, tiling_dirs: dict[str, str] | None = None) -> str:
    """`tiling_dirs`: SoC -> the op_host/ sub-folder of its tiling, where the SoCs' tilings
    differ (the build adds the root's tiling files and those of the SoC's folder)."""
    units = [] if tiling_dirs is None else [
        f"    COMPUTE_UNIT {' '.join(tiling_dirs)}",
        f"    TILING_DIR {' '.join(tiling_dirs.values())}"]
    return _cmake(op, f"Host sources of {op.op_type}: tiling, op definition, shape inference, "
                  "aclnn.", [
                      "add_modules_sources(",
                      "    HOSTNAME ${OPHOST_NAME}",
                      "    MODE PRIVATE",
                      "    DIR ${CMAKE_CURRENT_SOURCE_DIR}",
                      f"    OPTYPE {op.kernel_entry}",
                      "    ACLNNTYPE aclnn_exclude",
                      *units,
                      ")",
                  ])


def tests_cmake(op: Operator) -> str:
    return _cmake(op, f"Tests of {op.op_type}.", _add_subfolders(["ut"]))


def ut_cmake(op: Operator) -> str:
    return _cmake(op, f"Unit tests of {op.op_type}: host tiling and kernel.",
                  _add_subfolders(["op_host", "op_kernel"]))


def ut_op_host_cmake(op: Operator) -> str:
    return _cmake(op, f"The tiling unit test of {op.op_type}, in the op-host UT target.", [
        "if(UT_TEST_ALL OR OP_HOST_UT)",
        "    add_modules_ut_sources(HOSTNAME ${OP_TILING_MODULE_NAME} MODE PRIVATE "
        "DIR ${CMAKE_CURRENT_SOURCE_DIR})",
        "endif()",
    ])


def kernel_ut_flags(kernels: list[Kernel]) -> str:
    """-DDTYPE_<NAME>=<type> for every GM argument, in the example kernel's dtype (each its
    own, of a kernel at a dtype boundary)."""
    kernel = example_kernel(kernels)
    return " ".join(f"-DDTYPE_{name.upper()}={element_cpp(element)}"
                    for name, element in zip(kernel.operator.gm_arguments,
                                             kernel.gm_element_types(), strict=True))


def _test_case(kernels: list[Kernel], soc: str, tiling: str, name: str) -> list[str]:
    entry = kernels[0].operator.kernel_entry
    files = f"{entry}_{name}"
    return [f"    set({files}",
            f"        ${{CMAKE_CURRENT_SOURCE_DIR}}/../../../op_host/{tiling}",
            f"        ${{CMAKE_CURRENT_SOURCE_DIR}}/../../../op_host/{entry}_infershape.cpp",
            "    )",
            f'    AddOpTestCase({entry} "{soc}" "{kernel_ut_flags(kernels)}" "${{{files}}}")']


def ut_op_kernel_cmake(kernels: list[Kernel], a2_folder: str = "",
                       arch35: list[Kernel] | None = None) -> str:
    """The A2/A3 kernels' test case (of none if `kernels` is empty: an Ascend 950 package),
    their tiling in op_host/`a2_folder`; and the arch35 kernels' (if any)."""
    some = kernels or arch35 or []
    op = some[0].operator
    entry = op.kernel_entry
    cases = _test_case(kernels, UT_SOC, f"{a2_folder}{entry}_tiling.cpp",
                       "ut_tiling_files") if kernels else []
    if arch35:
        cases += _test_case(arch35, ARCH35_UT_SOC, f"arch35/{entry}_tiling_arch35.cpp",
                            "arch35_ut_tiling_files")
    return _cmake(op, f"The kernel unit test of {op.op_type}, with the tiling sources it links.",
                  ["if((UT_TEST_ALL OR OP_KERNEL_UT) AND NOT UT_DONE)", *cases, "endif()"])


def build_files(kernels: list[Kernel], arch35: list[Kernel] | None = None,
                tiling_dirs: dict[str, str] | None = None) -> dict[str, str]:
    """`arch35`: the Ascend 950 kernels, if the package has them (`kernels` may then be empty);
    `tiling_dirs` as op_host_cmake's."""
    op = (kernels or arch35 or [])[0].operator
    a2_folder = "" if tiling_dirs is None or not kernels else \
        next(f"{tiling_dirs[s]}/" for s in tiling_dirs if tiling_dirs[s] != "arch35")
    return {
        "CMakeLists.txt": root_cmake(op),
        "op_host/CMakeLists.txt": op_host_cmake(op, tiling_dirs),
        "tests/CMakeLists.txt": tests_cmake(op),
        "tests/ut/CMakeLists.txt": ut_cmake(op),
        "tests/ut/op_host/CMakeLists.txt": ut_op_host_cmake(op),
        "tests/ut/op_kernel/CMakeLists.txt": ut_op_kernel_cmake(kernels, a2_folder, arch35),
    }
