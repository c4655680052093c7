// leaky_relu_fixture_tiling_key.h - the kernel's template parameter, as ops-nn declares it: the
// element type, chosen from input 0's dtype.
#ifndef LEAKY_RELU_FIXTURE_TILING_KEY_H
#define LEAKY_RELU_FIXTURE_TILING_KEY_H
#include "ascendc/host_api/tiling/template_argument.h"

ASCENDC_TPL_ARGS_DECL(LeakyReluFixture,
                      ASCENDC_TPL_DATATYPE_DECL(D_T_X, C_DT_FLOAT, C_DT_FLOAT16, C_DT_BF16, ASCENDC_TPL_INPUT(0)));
ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_DATATYPE_SEL(D_T_X, C_DT_FLOAT, C_DT_FLOAT16, C_DT_BF16)));

#endif
