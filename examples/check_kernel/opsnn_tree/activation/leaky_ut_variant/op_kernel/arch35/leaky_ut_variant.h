// leaky_ut_variant.h - the fixture's LeakyRelu; in a UT build (DTYPE_X defined) the UT's own
// header defines the tiling data, so this one leaves it out, as ops-nn's hard_swish_grad_v2.h.
#ifndef LEAKY_UT_VARIANT_H
#define LEAKY_UT_VARIANT_H
#include "kernel_operator.h"
#include "../../../../../elementwise_kernel.h"
#ifndef DTYPE_X
#include "leaky_ut_variant_tiling_data.h"
#endif

namespace leaky_ut_variant_fixture {
using namespace AscendC;

template <typename T>
using LeakyUtVariantOp = checker_fixture::LeakyReluBody<T, LeakyUtVariantTiling>;
}  // namespace leaky_ut_variant_fixture
#endif
