// Bad command lines: one diagnostic on stderr, a non-zero exit, no Python traceback.
// (More cases, in-process: test/test_hswc_opt_cli.py.)
// RUN: not hswc-opt %s -p no-such-pass 2>&1 | filecheck %s --check-prefix=PASS
// RUN: not hswc-opt %s -p 'hsg-decompose,hsg-tile-on-cores{core-num=abc}' 2>&1 | filecheck %s --check-prefix=MALFORMED
// RUN: not hswc-opt %s -p 'hsg-decompose,hsg-tile-on-cores{soc=ascend310p}' 2>&1 | filecheck %s --check-prefix=SOC
// RUN: not hswc-opt %s.does-not-exist.mlir 2>&1 | filecheck %s --check-prefix=MISSING

// A valid module: every failure above comes from the command line, not from the IR.
func.func @ok(%a: tensor<8xf16>) -> tensor<8xf16> {
  %y = hsg.hard_swish_grad %a, %a : tensor<8xf16>
  func.return %y : tensor<8xf16>
}
// PASS:          error: {{.*}}no-such-pass
// PASS-NOT:      Traceback
// MALFORMED:     error: {{.*}}abc
// MALFORMED-NOT: Traceback
// SOC:           hswc-opt: error: hsg-tile-on-cores: unknown SoC 'ascend310p' (known: ascend910_93, ascend910b, ascend950)
// SOC-NOT:       Traceback
// MISSING:       hswc-opt: error: cannot read '{{.*}}hswc-opt-errors.mlir.does-not-exist.mlir': No such file or directory
// MISSING-NOT:   Traceback
