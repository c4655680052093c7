// ascendc_cpu_fn.h - ASCENDC_CPU_FN: where the model's non-template code is compiled.
//
// Every non-template function of the model (and of the harness's driver, harness_driver.h) is
// defined in its header as `ASCENDC_CPU_FN`, not `inline`:
//
//   ASCENDC_CPU_FN void BeginBlock(int64_t idx, int64_t num) { ... }      // namespace scope
//   struct QueueCore { ASCENDC_CPU_FN void Init(...) { ... } };          // non-template class
//
// so that one build of the model's code serves every kernel of a flag set:
//   (default)               `inline`: every translation unit that calls it compiles it, as a
//                           header-only library does (several TUs may include the model);
//   -DASCENDC_CPU_OBJECT    model_object.cpp only: `inline` and GCC's `used`, so the object
//                           holds a (weak) definition of every one of them, called or not;
//   -DASCENDC_CPU_PREBUILT  a kernel's TU linked with that object: `inline` and GCC's
//                           `gnu_inline`, whose body is read (and checked) but never compiled
//                           into this TU: a call is to the object's definition (GCC manual,
//                           "Common Function Attributes", gnu_inline: "In C++, this attribute
//                           does not depend on extern in any way, but it still requires the
//                           inline keyword"). Only at -O0 (hswc.checker.model_object): optimised,
//                           GCC may inline such a body, and a function-local static (Rt(),
//                           LaunchCores()) would then be a second copy.
//
// Rule for a new function: a template (a function template, or a member of a class template)
// stays `inline` / plain, since its instances depend on the kernel; anything else is
// ASCENDC_CPU_FN. A function left `inline` is still correct, only compiled again per kernel.
// Such a function may not read a per-kernel macro (HSWC_KERNEL_*, HSWC_GM_*, HSWC_TILING_*,
// DTYPE_*): the object is built without them (harness.cpp, not harness_driver.h, reads those).
#ifndef ASCENDC_CPU_FN_H
#define ASCENDC_CPU_FN_H

#if defined(ASCENDC_CPU_OBJECT)
#define ASCENDC_CPU_FN inline __attribute__((used))
#elif defined(ASCENDC_CPU_PREBUILT)
#define ASCENDC_CPU_FN inline __attribute__((gnu_inline))
#else
#define ASCENDC_CPU_FN inline
#endif

#endif  // ASCENDC_CPU_FN_H
