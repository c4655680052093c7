// platform.h - the fixture tree's common/inc/op_kernel/platform.h: as in ops-nn, the header
// that defines KERNEL_API, the qualifiers of a kernel entry. ops-nn's kernel build copies
// common/inc/op_kernel/ to tbe/ascendc/inc/, where a kernel reaches it as "../inc/platform.h".
#ifndef OPSNN_TREE_FIXTURE_PLATFORM_H
#define OPSNN_TREE_FIXTURE_PLATFORM_H

#ifndef KERNEL_API
#define KERNEL_API extern "C" __global__ __aicore__
#endif

#endif
