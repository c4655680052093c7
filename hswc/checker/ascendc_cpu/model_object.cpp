// model_object.cpp - the CPU model's and the harness driver's non-template code (every
// ASCENDC_CPU_FN function, ascendc_cpu_fn.h), compiled once per flag set with
// -DASCENDC_CPU_OBJECT; a kernel's harness.cpp built with -DASCENDC_CPU_PREBUILT links it
// (hswc.checker.model_object keeps one per flag set in the build cache).
#include "harness_driver.h"
