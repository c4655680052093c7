// hswc_host/all.h - the CPU model of the tiling context, whole: every header an ops-nn op_host
// file includes from CANN (register/..., op_common/..., tiling/platform/..., exe_graph/...)
// forwards here, so that the op's own *_def.cpp and *_tiling*.cpp compile unchanged on the host.
#ifndef HSWC_HOST_ALL_H
#define HSWC_HOST_ALL_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "context.h"
#include "log.h"
#include "ops_math.h"
#include "op_def.h"
#include "platform.h"
#include "securec.h"
#include "template_argument.h"
#include "tiling_data_def.h"
#include "types.h"

// opbase's headers (ATVOSS's atvoss/elewise/elewise_tiling.h, ...) name these as CANN's
// register/tilingdata_base.h and opbase's op_host/util/opbase_export.h leave them: the namespace
// of tilings, the kernel API's (ATVOSS DAG headers shared with the kernel say `using namespace
// AscendC`), and the export attribute of opbase's library (no effect in one executable).
namespace optiling {}
namespace AscendC {}
#ifndef OPBASE_API
#define OPBASE_API
#endif

#endif  // HSWC_HOST_ALL_H
