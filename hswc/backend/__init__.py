"""The AscendC backend: the lowered module as AscendC C++ and as an ops-nn operator package.

- `source.kernel_source(module)`: the one translation unit `hswc-opt -t ascendc` prints (tiling
  struct, tiling keys, one kernel class per dtype, the `hard_swish_grad<schMode>` entry);
- `package.write_package(module, dir)`: the ops-nn package `hswc-emit` writes.

Layout: `kernels` (what the module holds), `layout` (which class method prints which op),
`kernel` (the class printer), `ascend_ops` / `expressions` (one rule per op), `host_tiling`
(the hsg.tiling functions as plain C++), `context` / `names` / `writer` / `cpp_types` (naming,
indentation, spelling), `operator` (every name and description of the op), `package_*` (the
package's files: kernel, host, op_api, example, build, docs, tests; `package_output` writes them
all or nothing), `ir_tiling` (the IR's host tiling as numbers, and the UB check).
"""
