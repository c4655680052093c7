// leaky_forms_dag.h - constants the fixture's kernel and its tiling share; the tiling
// (op_host/arch35/leaky_forms_tiling.cpp) includes it as "../op_kernel/arch35/leaky_forms_dag.h",
// as ops-nn's gelu tiling includes its gelu_dag.h: relative to op_host/, which ops-nn's
// add_tiling_sources puts on the include path.
#ifndef LEAKY_FORMS_DAG_H
#define LEAKY_FORMS_DAG_H
#include <cstdint>

namespace LeakyFormsDag {
constexpr int64_t MAX_DIMS = 2;
constexpr int64_t CHUNK_ALIGN = 128;
}  // namespace LeakyFormsDag

#endif
