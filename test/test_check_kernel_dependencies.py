"""An op folder whose CMakeLists.txt names DEPENDENCIES (ops-nn's log_softmax_v2 and
log_softmax_grad: their tiling classes derive from softmax_v2's and softmax_grad's, their kernels
include `../../softmax_v2/arch35/...`) is built with them: the dependencies' tiling sources are
linked with its own, and its kernel finds theirs where ops-nn's kernel tree (tbe/ascendc/<op>/)
puts them. On a small tree laid out as ops-nn's."""

from __future__ import annotations

import subprocess
from pathlib import Path

from hswc.checker.op_folder import dependencies, folder


def _tree(tmp_path: Path) -> Path:
    """ops/activation/{lsm, sm}: lsm depends on sm; sm's kernel header defines a constant."""
    ops = tmp_path / "ops"
    (ops / "cmake").mkdir(parents=True)
    (ops / "common" / "inc" / "op_kernel").mkdir(parents=True)
    for name in ("lsm", "sm", "other"):
        (ops / "activation" / name / "op_host" / "arch35").mkdir(parents=True)
        (ops / "activation" / name / "op_kernel" / "arch35").mkdir(parents=True)
        (ops / "activation" / name / "op_host" / f"{name}_def.cpp").write_text("\n")
        (ops / "activation" / name / "op_host" / "arch35" / f"{name}_tiling.cpp").write_text("\n")
    (ops / "activation" / "lsm" / "CMakeLists.txt").write_text(
        'set(SUPPORT_COMPUTE_UNIT "ascend950")\n'
        "add_modules_sources(HOSTNAME ${OPHOST_NAME} MODE PRIVATE DIR ${CMAKE_CURRENT_SOURCE_DIR} "
        "OPTYPE lsm ACLNNTYPE aclnn_exclude TILING_DIR arch35 DISABLE_IN_OPP TRUE "
        "DEPENDENCIES sm missing)\n")
    (ops / "activation" / "sm" / "op_kernel" / "arch35" / "sm_base.h").write_text(
        "constexpr int kFromSm = 7;\n")
    (ops / "activation" / "lsm" / "op_kernel" / "arch35" / "lsm.h").write_text(
        '#include "../../sm/arch35/sm_base.h"\nstatic_assert(kFromSm == 7, "sm\'s header");\n')
    return ops


def test_the_dependencies_are_the_folders_beside_it_that_cmake_names(tmp_path: Path) -> None:
    ops = _tree(tmp_path)
    lsm = ops / "activation" / "lsm"
    assert dependencies(lsm) == ((ops / "activation" / "sm").resolve(),)  # `missing` left out
    assert dependencies(ops / "activation" / "sm") == ()
    built = folder(lsm, "ascend950")
    assert built.tiling_files == (lsm / "op_host" / "arch35" / "lsm_tiling.cpp",)
    assert built.dependency_tilings == (
        (ops / "activation" / "sm" / "op_host" / "arch35" / "sm_tiling.cpp").resolve(),)
    assert (ops / "activation" / "sm" / "op_host").resolve() in built.include_dirs


def test_op_hosts_cmake_names_a_dependency_its_host_sources_include(tmp_path: Path) -> None:
    """ops-nn's swi_glu names DEPENDENCIES in op_host/CMakeLists.txt; it is linked because its
    tiling includes `../../swi_glu_grad/op_host/...` (glu names sigmoid there for its aclnn code
    alone: not linked)."""
    ops = _tree(tmp_path)
    other = ops / "activation" / "other"
    (other / "op_host" / "CMakeLists.txt").write_text(
        "add_modules_sources(HOSTNAME ${OPHOST_NAME} MODE PRIVATE DIR ${CMAKE_CURRENT_SOURCE_DIR} "
        "OPTYPE other ACLNNTYPE aclnn DEPENDENCIES sm lsm)\n")
    assert dependencies(other) == ()
    tiling = other / "op_host" / "arch35" / "other_tiling.cpp"
    tiling.write_text('#include "../../../sm/op_host/sm_tiling_base.h"\n')
    assert dependencies(other) == ((ops / "activation" / "sm").resolve(),)


def test_a_link_to_the_folder_finds_the_dependency_beside_the_folder_itself(
        tmp_path: Path) -> None:
    """The sweep of chosen folders runs on a tree of links to them (bench/
    check_kernel_ops_nn.py --folders): the dependency is the real folder's neighbour."""
    ops = _tree(tmp_path)
    links = tmp_path / "links" / "activation"
    links.mkdir(parents=True)
    (links / "lsm").symlink_to(ops / "activation" / "lsm", target_is_directory=True)
    assert dependencies(links / "lsm") == ((ops / "activation" / "sm").resolve(),)


def test_the_kernel_reaches_the_dependencys_kernel_headers(tmp_path: Path) -> None:
    ops = _tree(tmp_path)
    built = folder(ops / "activation" / "lsm", "ascend950")
    header = ops / "activation" / "lsm" / "op_kernel" / "arch35" / "lsm.h"
    flags = [f"-I{d}" for d in built.kernel_include_dirs]
    done = subprocess.run(["g++", "-std=c++17", "-fsyntax-only", "-x", "c++", *flags, str(header)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    alone = folder(ops / "activation" / "other", "ascend950")
    assert len(alone.kernel_include_dirs) == len(built.kernel_include_dirs) - 1


def test_the_bench_table_names_files_from_the_ops_nn_tree(tmp_path: Path) -> None:
    """bench/check_kernel_ops_nn.py's rows name a kernel's files as `activation/x/...`, whether
    the checker's message named the swept tree, a tree of links to it, or their real paths."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "check_kernel_ops_nn", Path(__file__).parents[1] / "bench" / "check_kernel_ops_nn.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    ops = _tree(tmp_path)
    alias = tmp_path / "alias"
    alias.symlink_to(ops, target_is_directory=True)
    said = (f"not checkable: the kernel {alias}/activation/lsm/op_kernel/lsm.cpp and "
            f"{ops}/activation/sm/op_host/sm_def.cpp")
    assert bench._relative(said, alias) == (
        "not checkable: the kernel activation/lsm/op_kernel/lsm.cpp and "
        "activation/sm/op_host/sm_def.cpp")
