// RUN: hswc-opt %s --split-input-file --verify-diagnostics -p 'hsg-decompose{semantics=cann}' | filecheck %s
// RUN: not hswc-opt %s -p 'hsg-decompose{semantics=exact}' 2>&1 | filecheck %s --check-prefix=UNKNOWN

// HardSwish has only the torch semantics: asking for cann names the op and what it has.
func.func @forward(%x: tensor<8xf16>) -> tensor<8xf16> {
  // CHECK: hsg-decompose-invalid.mlir:[[# @LINE + 1]]:3: error: 'hsg.hard_swish' has no cann semantics (it has: torch)
  %y = hsg.hard_swish %x : tensor<8xf16>
  func.return %y : tensor<8xf16>
}
// UNKNOWN: hswc-opt: error: hsg-decompose: unknown semantics 'exact' (known: cann, cann-arch35, torch)
