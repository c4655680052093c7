// tiling/template_argument.h - the tiling-key declarations, as ascendc/host_api/tiling/template_argument.h.
// asc-devkit installs one header, include/utils/tiling/template_argument.h, under both names
// (impl/basic_api/CMakeLists.txt:14 copies it to ascendc/host_api/tiling/; the compile line puts
// asc/include/utils on the search path, cmake/asc/asc_modules/CMakeASCInformation.cmake:222).
#ifndef ASCENDC_CPU_FWD_TILING_TEMPLATE_ARGUMENT_H
#define ASCENDC_CPU_FWD_TILING_TEMPLATE_ARGUMENT_H
#include "../ascendc/host_api/tiling/template_argument.h"
#endif
