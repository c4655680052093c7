// tiling/template_argument.h - forwards to the CPU model of the tiling context (hswc_host/all.h).
// The same asc-devkit header as ascendc/host_api/tiling/template_argument.h, by its source path:
// asc-devkit installs include/utils/tiling/template_argument.h under both names
// (impl/basic_api/CMakeLists.txt:14 copies it to ascendc/host_api/tiling/; the compile line puts
// asc/include/utils on the search path, cmake/asc/asc_modules/CMakeASCInformation.cmake:222).
#ifndef HSWC_FWD_TILING_TEMPLATE_ARGUMENT_H
#define HSWC_FWD_TILING_TEMPLATE_ARGUMENT_H
#include "../hswc_host/all.h"
#endif
