// A module nested in the input's: every tool that lowers, runs or prints C++ refuses it the same
// way, at the inner module (issue 20); printing it back as MLIR still works.
// RUN: not hswc-opt %s -p hsg-decompose,hsg-tile-on-cores 2>&1 | filecheck %s
// RUN: not hswc-opt %s --lower-to-ascend 2>&1 | filecheck %s
// RUN: not hswc-opt %s -t ascendc 2>&1 | filecheck %s
// RUN: not hswc-run %s 2>&1 | filecheck %s
// RUN: not hswc-emit %s -o %t.package 2>&1 | filecheck %s
// RUN: hswc-opt %s | filecheck %s --check-prefix=PRINT

builtin.module @outer {
  // CHECK: nested-module.mlir:[[# @LINE + 1]]:3: error: 'builtin.module' is nested in the input's module: hswc lowers, runs and prints the functions at the top level of its input only (move them out of the inner module)
  builtin.module @inner {
    func.func @f(%g: tensor<?xf16>, %x: tensor<?xf16>) -> tensor<?xf16> {
      %y = hsg.hard_swish_grad %g, %x : tensor<?xf16>
      func.return %y : tensor<?xf16>
    }
  }
}
// CHECK-NOT: error:
// PRINT: builtin.module @outer {
// PRINT-NEXT: builtin.module @inner {
