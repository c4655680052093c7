"""The table of issues 22 and 23's closing notes: hswc-check-kernel on ops-nn's own activation
kernels of hswc's ops, each from its op folder alone (kernel x SoC x dtype: bit-exact /
differing / rule broken / not checkable and why), as markdown with ops-nn's and opbase's commits;
then (issue 40) the synchronisation rules each kernel broke, located at both calls.

    python bench/check_kernel_ops_nn.py OPS_NN_DIR [--out bench/check_kernel_ops_nn.md]
        [--max-size N] [--table SWEEP_OUTPUT] [--folders activation/glu,... [--soc SOC]]

It runs `hswc-check-kernel --sweep --auto-sync off` on OPS_NN_DIR's activation/ and
experimental/activation/ (heavy: each kernel is built and run on the CPU model, one at a time;
run it with nice), or, with --table, formats the table a sweep already printed. With --folders
it sweeps those op folders only (named from OPS_NN_DIR) and puts their rows and rules in place
of theirs in the --out table, keeping every other folder's as that table has them (the totals
recounted); with --soc too, on that SoC only, keeping the folders' rows and rules on the other
SoCs. The verdict
column is what the default build (--cce-auto-sync=on) gives: a run under --auto-sync off is that
run with the vector-order rule's reports added, so the column leaves those out, and the column
beside it counts them; the section after the table lists every synchronisation rule broken.
opbase is found as ops-nn's build finds it (an ops-base checkout two levels above OPS_NN_DIR,
$CANN_3RD_LIB_PATH/opbase or $OPBASE_SOURCE_PATH). The commits come from `git rev-parse HEAD` in
each checkout, or --commit / --opbase-commit when the checkouts are exports without .git.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PARTS = ("activation", "experimental/activation")
Row = tuple[str, str, str, str]
"""kernel, SoC, dtype, verdict."""
SyncRule = tuple[str, str, str, str]
"""kernel, SoC, dtypes, the rule in brief (both calls' file:line)."""


def _commit(path: Path | None, given: str | None) -> str:
    if given:
        return given
    if path is None:
        return "unknown"
    done = subprocess.run(["git", "-C", str(path), "rev-parse", "HEAD"], capture_output=True,
                          text=True, check=False)
    return done.stdout.strip() if done.returncode == 0 else "unknown (not a git checkout)"


def _rows_from_table(text: str) -> list[Row]:
    """The sweep's printed table (`kernel  soc  dtype  verdict`) back into rows."""
    rows = []
    for line in text.split("\n\n", 1)[0].splitlines()[1:]:
        words = line.split(None, 3)
        if len(words) == 4:
            rows.append((words[0], words[1], words[2], words[3]))
    return rows


def _sync_from_table(text: str) -> list[SyncRule]:
    """The synchronisation rules after the sweep's table (`KERNEL on SOC [DTYPES]: RULE`)."""
    from hswc.checker.sweep import SYNC_HEADING

    _, found, after = text.partition(SYNC_HEADING)
    rules = []
    for line in after.splitlines() if found else ():
        m = re.match(r"(\S+) on (\S+) \[([^\]]*)\]: (.+)$", line)
        if m is not None:
            rules.append((m.group(1), m.group(2), m.group(3), m.group(4)))
    return rules


def _rows_from_progress(text: str) -> list[Row]:
    """The progress lines sweeps printed on stderr before hswc.progress (`[k/N] NAME on SOC:
    how`, then `    DTYPE: verdict`) into rows: the verdicts of such a sweep stopped before its
    table. (Sweeps now print nothing in a pipe until their table.)"""
    rows, kernel, soc = [], "", ""
    for line in text.splitlines():
        if line.startswith("[") and " on " in line:
            head = line.split("] ", 1)[1]
            kernel, _, rest = head.partition(" on ")
            soc = rest.split(":", 1)[0]
        elif line.startswith("    ") and ": " in line and kernel:
            dtype, _, verdict = line.strip().partition(": ")
            rows.append((kernel, soc, dtype, verdict))
    return rows


def _sweep(ops_nn: Path, max_size: int, soc: str | None = None
           ) -> tuple[list[Row], list[SyncRule]]:
    """Both parts swept at once (two processes: the machines here have two cores), on every
    SoC each folder's definition configures or on `soc` alone."""
    running = []
    only = ["--soc", soc] if soc else []
    for part in PARTS:
        root = ops_nn / part
        if root.is_dir():
            running.append((part, subprocess.Popen(
                [sys.executable, "-m", "hswc.tools.hswc_check_kernel", "--sweep", str(root),
                 "--max-size", str(max_size), "--auto-sync", "off", *only],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)))
    rows, rules = [], []
    for part, process in running:
        out, err = process.communicate()
        sys.stderr.write(err)
        rows += [(f"{part}/{k}", s, d, v) for k, s, d, v in _rows_from_table(out)]
        rules += [(f"{part}/{k}", s, d, r) for k, s, d, r in _sync_from_table(out)]
    return rows, rules


def _sweep_folders(ops_nn: Path, names: list[str], max_size: int, soc: str | None = None
                   ) -> tuple[list[Row], list[SyncRule]]:
    """The sweep of the named op folders alone: a tree of links to them, swept as OPS_NN."""
    with tempfile.TemporaryDirectory(prefix="hswc-sweep-folders-") as scratch:
        for name in names:
            folder = ops_nn / name
            if not folder.is_dir():
                raise SystemExit(f"--folders {name}: no such folder in {ops_nn}")
            link = Path(scratch) / name
            link.parent.mkdir(parents=True, exist_ok=True)
            link.symlink_to(folder.resolve(), target_is_directory=True)
        rows, rules = _sweep(Path(scratch), max_size, soc)
    return _relative_rows(rows, rules, (Path(scratch), ops_nn))


def _relative(text: str, *roots: Path | str) -> str:
    """`text` with the files below each root (the swept tree, a tree of links to its folders)
    named from that root (`activation/x/op_host/...`), and hswc's own files (the CPU model's
    headers) from this checkout's root (`hswc/checker/...`): a /tmp path in the table says
    nothing to its reader."""
    prefixes = sorted({f"{str(p).rstrip('/')}/" for r in (*roots, ROOT)
                       for p in (Path(r), Path(r).resolve())}, key=len, reverse=True)
    for prefix in prefixes:
        text = text.replace(prefix, "")
    return text


def _relative_rows(rows: list[Row], rules: list[SyncRule], roots: tuple[Path, ...]
                   ) -> tuple[list[Row], list[SyncRule]]:
    """The rows and rules with their files named as `_relative` names them."""
    return ([(k, s, d, _relative(v, *roots)) for k, s, d, v in rows],
            [(k, s, d, _relative(r, *roots)) for k, s, d, r in rules])


def _from_markdown(text: str) -> tuple[list[Row], list[SyncRule]]:
    """A table this script wrote, back into rows and synchronisation rules."""
    rows, rules, kernel, soc = [], [], "", ""
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if line.startswith("| ") and len(cells) == 6 and cells[0] != "kernel":
            rows.append((cells[0], cells[2], cells[3], cells[4]))
            continue
        m = re.match(r"- \*\*(\S+)\*\* on (\S+):$", line)
        if m is not None:
            kernel, soc = m.group(1), m.group(2)
            continue
        m = re.match(r"  - \[([^\]]*)\] (.+)$", line)
        if m is not None and kernel:
            rules.append((kernel, soc, m.group(1), m.group(2)))
    return rows, rules


def _merged(out: Path, names: list[str], rows: list[Row], rules: list[SyncRule],
            soc: str | None = None) -> tuple[list[Row], list[SyncRule]]:
    """The rows and rules of `out`'s table, those of the `names` folders (on `soc`, if given)
    replaced."""
    kept_rows, kept_rules = _from_markdown(out.read_text()) if out.is_file() else ([], [])
    chosen = set(names)

    def replaced(kernel: str, on: str) -> bool:
        return _folder(kernel) in chosen and soc in (None, on)

    rows = sorted([r for r in kept_rows if not replaced(r[0], r[1])] + rows,
                  key=lambda r: r[0])
    rules = sorted([r for r in kept_rules if not replaced(r[0], r[1])] + rules,
                   key=lambda r: r[0])
    return rows, rules


def _default_build(verdict: str) -> str:
    """The verdict without the vector-order rule's kind: what --cce-auto-sync=on gives."""
    from hswc.checker.rules import UNORDERED

    verdict = verdict.replace(f", {UNORDERED}", "").replace(f"{UNORDERED}, ", "")
    return re.sub(rf"(; )?rule broken \({re.escape(UNORDERED)}\)", "", verdict).removeprefix("; ")


def _unordered(rules: list[SyncRule], kernel: str, soc: str, dtype: str) -> str:
    """The auto-sync column of a row: how many pairs of vector calls it leaves unordered."""
    count = sum(1 for k, s, d, r in rules if (k, s) == (kernel, soc)
                and dtype in d.split(", ") and "no PipeBarrier<PIPE_V> between" in r)
    if soc == "ascend950":
        return "- (ordered in hardware)"
    return f"{count} unordered pair{'s' * (count != 1)}" if count else "ordered"


def _folder(kernel: str) -> str:
    """The op folder of a row's kernel (`activation/gelu_quant:static` is a variant of
    activation/gelu_quant: hswc.checker.sweep.VARIANTS)."""
    return kernel.partition(":")[0]


def _maps_to(ops_nn: Path, kernel: str) -> str:
    from hswc.checker.sweep import VARIANTS, blocked, mapping

    folder, _, variant = kernel.partition(":")
    found = mapping(ops_nn / folder)
    if found is None:
        return "- (not expressible)" if blocked(ops_nn / folder) else "-"
    op, attrs, _ = found
    attrs = {**attrs, **dict(VARIANTS.get(Path(folder).name, ())).get(variant, {})}
    return op + "".join(f" {k}={v}" for k, v in attrs.items())


FINDINGS = """
## What the kernels and their READMEs say, where they disagree with the op

Read from the op folders of the commit above (file:line from the folder); the rows above are
what each kernel computes.

- **experimental/activation/celu is not CELU.** For x >= 0 it writes the constant `alpha3 * 3`:
  `op_kernel/celu.h:145` `AscendC::Duplicate(outputLocal, static_cast<T>(alpha3_ * 3.0f),
  currentNum)`, selected where x >= 0; its README says the same (`README.md:34`, `:40`: "the
  output is the constant alpha3 * 3"). activation/celu's README (`README.md:21`, `:27`) gives
  `alpha3 * x` there (x itself for alpha3 = 1, as ONNX's and PyTorch's CELU), which hsg.celu
  computes; the experimental kernel's rows are outside the tolerance.
- **HardSwishGrad at x = -3 and x = 3: two folders, two answers.** activation/hard_swish_grad's
  README (`README.md:27-29`) gives `x / 3 + 0.5` on the closed interval -3 <= x <= 3 (so
  `-0.5 * grad` and `1.5 * grad` at the ends, as PyTorch's hardswish_backward) and its Ascend 950
  kernel does so (`op_kernel/arch35/hard_swish_grad.h:151` Compares GE -3, `:156` LE 3:
  hsg.hard_swish_grad's `cann-arch35` semantics, bit-exact). activation/hard_swish_grad_v2's
  README (`README.md:28-30`: 0 for x <= -3, `grad` for x >= 3) and its kernels
  (`op_kernel/hard_swish_grad_v2_220.h:79` GT -3, `:82` LT 3; `op_kernel/arch35/
  hard_swish_grad_v2.h:151` GT, `:156` LT) and experimental/activation/hard_swish_grad's
  (`README.md:16-18`; `op_kernel/hard_swish_grad.h:180-181` GT, LT) take the open interval, as
  hsg.hard_swish_grad's `cann` semantics, which the sweep compares them with on every SoC.
- **HardtanhGrad at min_val and max_val.** activation/hardtanh_grad's README (`README.md:22-24`)
  gives 0 only for self > max or self < min, so `grad` at min and max; its kernel gives 0 there
  (`op_kernel/arch35/hardtanh_grad_dag.h:43-46`: Compare LT max and GT min), as PyTorch's
  hardtanh_backward does: the README is wrong at the ends, the kernel right (bit-exact).
  experimental/activation/hardtanh_grad's README (`README.md:22-23`) says the same and its kernel
  follows it (`op_kernel/hardtanh_grad.h:136` CompareScalar LE max, `:137` GE min, again at
  `:268-269`): `grad` at min and max, where PyTorch gives 0 (its rows differ).
- **SeluGrad at outputs = 0.** Both selu_grad READMEs (activation's `README.md:20`,
  experimental's `README.md:19`) give `gradients * scale` for outputs >= 0; PyTorch's SELU
  backward (elu_backward on the result, as hsg.elu_grad {is_result = true}, which the sweep
  compares them with) takes `gradients * (outputs + scale * alpha)` for outputs <= 0.
  activation/selu_grad's Ascend 950 kernel declares its temporaries as `TQue<VECCALC, 1>`
  (`op_kernel/arch35/selu_grad.h:171`), which asc-devkit documents (Fma.md's example) and the
  CPU model now runs: f16 and bf16 within PyTorch's tolerance; f32 outside only where outputs
  is near -scale * alpha (about -1.758), where `Adds(tmp, outFp32, SCALE_ALPHA_PRODUCT_F)`
  (`:76`) cancels: the kernel adds the product rounded to float (`:45`), the reference the
  exact product of the float attributes, so a tiny result is off by up to 755 ulp (37 values).
- **experimental/activation/relu_grad's README** (`README.md:15`) says `y = x >= 0 ? 1 : 0`, no
  gradient; the op (ReluGrad) and its rows are `x > 0 ? gradients : 0` (hsg.threshold_grad 0).
- **activation/threshold, two semantics in one folder.** Its README (`README.md:16`, `:21`) and
  kernel are a step function, `x > threshold ? 1 : 0` (checked as a generic); its
  `docs/aclnnThreshold&aclnnInplaceThreshold.md:28-32` describes torch.threshold, `x > threshold
  ? x : value`, which activation/threshold_v2 computes.
- **EluGrad computes from the forward output.** activation/elu_grad and experimental's are
  checked as hsg.elu_grad {is_result = true} (`(min(activations, 0) + 1) * grads`); the sweep
  before compared them with is_result = false and reported a correct kernel as far outside.
  A NaN forward output, which the README's cases leave open, is left out (the kernels give
  `grads` for it, hsg.elu_grad NaN).
- **FatreluMul at a = threshold.** Its README (`README.md:36-37`) keeps x1 where x1 >=
  threshold; its kernel where x1 > threshold (`op_kernel/fatrelu_mul.h:199`, `:226`
  CompareScalar CMPMODE::GT, then Select against 0), so at x1 = threshold the kernel gives 0,
  the README threshold * x2. hsg.fatrelu_mul follows the kernel.
- **GeluMul's erf.** Its README (`README.md:36-42`) gives the exact GeLU (erf, or the tanh
  form); its kernel (every SoC but `__CCE_AICORE__ == 330`, which calls the library's Erf)
  computes erf mode with a polynomial and Exp on x clamped to [-13.15, 5.751]
  (`op_kernel/gelu_mul.h:253-255`, `Maxs` writing x itself back), so its rows are outside
  PyTorch's tolerance of the exact GeLU in every dtype on every SoC: for x1 below about -3
  (relative errors of tens of percent where gelu(x1) * x2 is a few 1e-4), and x1 = -inf gives
  -0 where gelu(-inf) * x2 is NaN (-inf * 0).
- **SituGlu's beta.** Its README (`README.md:41`, `:47`) divides by beta and linear_beta; its
  kernel multiplies by their f32 reciprocals (`op_kernel/situ_glu.hpp:266`, `:279`),
  which hsg.situ_glu does too (within PyTorch's tolerance of the division either way).
- **experimental/activation/prelu computes max(x, 0) + weight * min(x, 0).** Its README
  (`README.md:14-21`) gives `x` for x > 0 and `x * weight` for x <= 0, as torch.prelu and
  activation/p_relu's kernel (a Compare GT 0 and a Select of x against x * weight:
  `op_kernel/arch35/p_relu_dag.h`, bit-exact on Ascend 950 with the weight [1, C, 1] that
  aclnnPrelu reshapes it to); the experimental kernel adds the two clamps
  (`op_kernel/prelu.h:545-548` Maxs, Mins, Muls, Add; again at `:667-670` with a weight vector
  per channel). No finite value differs (its rows: values 0), but a weight of inf or NaN makes
  every positive x of its channel NaN (`0 * inf`), where the README gives x, and x * weight = -0
  (x = -0, or a product that underflows) comes out +0 (`+0 + -0`). Both folders are checked
  with x of [N, C, L] and a per-channel weight (hswc.checker.channels); the experimental
  folder's entry takes its type from `DTYPE_X`, which the sweep defines as ops-nn's build does.
- **GLU's Sigmoid underflows.** activation/glu (A2/A3) splits x's rows with GatherMask
  (`op_kernel/glu_single_shape.h:183-184`, `:206-207`, patterns 1 and 2) and computes
  `a * Sigmoid(b)`: bf16 through f32 (`:192-202`), f16 and f32 in their own type (`:211`).
  Where the sigmoid underflows to 0 the product is 0 (NaN for a = inf), where the golden model
  (float64) keeps a tiny product or inf: bf16's one value outside PyTorch's tolerance is such
  (b = -135, a = -1.79e26: -0 against -4.2e-33; PyTorch's f32 opmath underflows alike); f16's
  576 (max 2050 ulp) come from the half Sigmoid, not examined value by value; f32 within. It
  now runs on the CPU model: GetUserWorkspace on the workspace its tiling asks for,
  and GatherMask's built-in patterns. Its Ascend 950 kernel calls `AscendC::Reg::Or` (the
  register API), which the model lacks. Its GatherMasks count repeats of 64 elements
  (`op_kernel/glu_single_shape.h:182`, `:205`: `(count * 2 + 63) / 64`), the lanes of a 4-byte
  type; an f16 or bf16 repeat holds 128, so they read twice the x they need and write 2 * count
  kept elements where count are used: for bf16, from `ubX1[bufferSize]` (`:183`), outside the
  sweep's sizes (bf16 n = 376834, A2) that is 15744 bytes into a LocalTensor of 12288, a write
  past the buffer the model reports.
- **ClippedSwiglu's clamp_mode.** The definition adds clamp_mode in its version 2
  (`op_host/clipped_swiglu_def.cpp:42`) and the README describes both modes; only the Ascend
  950 kernel reads it (`op_kernel/arch35/clipped_swiglu_kernel.h`, `clampMode`): the A2/A3 kernel
  (`op_kernel/clipped_swiglu.hpp:313-331`) clamps before the SiLU whatever the attribute says.
  The sweep checks the default (clamp_mode 0, interleaved), with and without group_index.
- **GeluQuant (activation/gelu_quant), checked against its dynamic mode.** The sweep maps it to
  hswc.checker.quantized's generic (the README's formula: g = gelu(x) * input_scale in f32,
  out_scale = max|g| / 127 per row, y = round half to even of g / out_scale to int8), x of
  [rows, L] with its smooth scales of [L], y and out_scale compared bit for bit. On Atlas A2/A3
  (sizes up to 65536, all runs) y is equal in f16 (298624 values), 13 of 298922 bf16 values
  differ by one step, 31 of 236174 f32 values (up to 127 steps: below); out_scale differs in
  8451 of 69606 rows in f16 (up to 41810 ulps), 5238 of 70732 in bf16 (up to 6 ulps), 22811 of
  71435 in f32. **Not an hswc bug: the kernel does not compute its README's formula.** The f16
  rows, classified with the reference's own g and row max (hswc's interpreter) beside the
  kernel's out_scale: 6686 of the 8451 are exactly `1 / (127 / max)` rounded twice where the
  README has `max / 127` rounded once (`op_kernel/gelu_dynamic_quant.h:257`: `scale = 127 /
  max`, `:258`: `out_scale = 1 / scale`), one ulp each; the other 1765 are rows whose maximum
  the kernel itself computes differently, 1674 of them by at most 11 ulps and 91 at a
  negative x (up to 41810 ulps), because (1) its GELU is not the README's erf form:
  `x / (1 + exp(x * P(x^2)))` with a degree-6 polynomial P on x clamped to [-13.15, 5.75]
  (`op_kernel/gelu_quant_base.h:101-153`, its Maxs at `:102` writing the clamped x back as the
  numerator too); (2) where a row's largest |g| comes from a negative x, the README's
  `0.5 * x * (1 + erf(x / sqrt(2)))` in f32 (hswc's generic, and PyTorch's f32 formula) loses
  relative precision to the cancellation in 1 + erf (about 1e-3 at x = -4, all of it below
  about -5.5, where it is -0), while the kernel's form keeps it: the large ulp figures and the
  f32 y differences of up to 127 steps are rows whose maximum is such an element (one f32 row:
  y 0 against -127 at x = -5.9, where the reference's g is -0 and the kernel's -3.2e-8), so
  there the kernel is the more accurate. y itself is Muls(g, 127 / max) (`:259`), then Cast f32
  -> half CAST_ODD (`:262`) and half -> int8 CAST_RINT (`:265`), which together round the
  product correctly to an integer (the static mode below): the one-step y differences of bf16
  are such products at a rounding boundary, where the README divides.
  **"rule broken (API misuse)" is the kernel's, by the documentation, and harmless in
  practice.** ComputeReduceMax ends in `WholeReduceMax(tempRes, tempRes, ...)`
  (`op_kernel/gelu_quant_base.h:202`): its one result is written over the first lanes of its
  own source within the one repeat, a partial overlap that asc-devkit's general overlap rule
  forbids (docs/zh/api/SIMD-API/通用说明和约束.md:70: within one repeat source and destination
  must overlap completely, never partly; ReduceRepeat.md:162 refers WholeReduceMax to it; `:78`:
  an API stating no
  overlap rule of its own does not support one, and its result may not be what is expected).
  The model computes every result from the sources read first (assumed: a reduction reads its
  repeat before it writes) and goes on under --record-rules; the values above are not from
  it. The same in-place WholeReduce is in ops-nn's norm kernels too
  (`norm/rms_norm/op_kernel/reduce_common.h:169-174`,
  `norm/add_rms_norm_dynamic_quant_v2/op_kernel/add_rms_norm_dynamic_quant_v2_helper.h:94`), so
  it presumably works on the hardware, but no document says so. A row max below 127 / FLT_MAX
  (about 3.7e-37) makes `127 / max` inf and the row's quotients NaN, which the README's
  max / 127 does not (the inputs are drawn so that every row has an element of x >= 1/16:
  hswc.checker.quantized). Under --auto-sync off its dynamic rows are ordered: the scalar's
  V_S wait before `tempRes.GetValue(0)` (`op_kernel/gelu_quant_base.h:205-209`) orders
  WholeReduceMax before the Muls the scalar issues next (`gelu_dynamic_quant.h:259`; one
  unordered pair before the race checker counted waits of the scalar unit, 2026-12-07).
  On Ascend 950 the kernel (`op_kernel/gelu_quant_apt.cpp`, `arch35/`) now runs on the CPU
  model: its MicroAPI Casts f32 -> half CAST_ODD -> int8 CAST_RINT / CAST_ROUND
  (`arch35/gelu_dynamic_quant_regbase.h:332-333`; Reg Cast.md table 6, saturating under the
  kernel-start CTRL[60] = 1, CTRL[59] = 0), Divs by a tensor element
  (`arch35/gelu_dynamic_quant_workspace_regbase.h:328`), its declared UnalignRegForLoad (`:374`,
  unused), and its Casts to fp8 and hifloat8_t with SatMode::SAT under CTRL[60] = 0
  (`arch35/gelu_quant_base_regbase.h:122-130`, the int8 runs do not take them; hifloat8's
  CAST_HYBRID, random rounding, is refused when run). Static mode: bit-exact per channel in
  f16 and bf16 and per tensor in every dtype; per channel f32 2 values of one run differ, as on
  Atlas A2/A3 above (not traced further). Dynamic mode: differing in every dtype (f16 39275
  values of 28 runs, bf16 40427, f32 40640), by the kernel's own formula again: out_scale is
  `Muls(max, 1.0f / 127)` (`arch35/gelu_dynamic_quant_regbase.h:52`, `:316`), the reciprocal
  rounded to float and then the product, where the README has max / 127 rounded once, and y is
  g / out_scale (`Div`, `:329`) then the two Casts, so y moves by one step where the quotient
  sits at a rounding boundary. The LocalMemBar<VEC_STORE, VEC_LOAD> between the scale's store
  and the second loop's loads (`:321-322`) orders nothing in the CPU model (it runs a VF in
  program order; ascendc_cpu_micro_reduce.h says why it cannot check one yet). Its tiling
  reads dst_type through `GetAttrPointer<int32_t>` (`op_host/gelu_quant_tiling_arch35.cpp:117`),
  which the model of the tiling context answers as metadef does (the int64 attribute's low
  half). approximate = tanh is not swept
  (`--op gelu_quant --attr approximate=tanh` checks it).
- **GeluQuant's static mode (rows `activation/gelu_quant:static` and `:static-tensor`).**
  `--attr quant_mode=static`: y = round half to even of gelu(x) * input_scale + input_offset,
  saturated to int8 (README.md), input_scale and input_offset of [L] (per channel, the tiling's
  StaticQuantBlock / GeluQuant templates, `op_kernel/gelu_static_quant_block.h`,
  `gelu_static_quant.h`) or of one element (`--attr scales=tensor`, the checker's own:
  StaticQuantPerTensor, `gelu_static_quant_per_tensor.h`), out_scale passed as a null address
  (docs/aclnnGeluQuant.md:215 asks the caller for one in this mode; a buffer there is reported
  "never written"). The kernels multiply and add in f32 (`gelu_static_quant.h:229`, `:234`),
  then Cast f32 -> half CAST_ODD and half -> int8 CAST_RINT (`:241-243`;
  `gelu_static_quant_per_tensor.h:240-242`, `gelu_static_quant_block.h:268-270`). That chain is
  the README's one rounding for every value that is not NaN (round-to-odd keeps two bits below
  the integer grid wherever half's spacing is 1/4 or finer, below 512, and both saturate beyond
  128; `test/test_check_kernel_quantized.py` checks it against one rounding over every tie of
  [-300, 300] and its f32 neighbours); round-to-nearest first would round twice (2.5000002 ->
  2.5 -> 2, not 3). On Atlas A2/A3 (sizes up to 65536, all runs) y is bit-exact in f16
  per channel and per tensor; per channel 7 bf16 and 63 f32 values differ (per tensor 3 and
  4). **Not an hswc bug, and neither side is right there.** Every one (per channel, classified
  against the exact value in float64) has |input_scale| of about 2^32 (the inputs' clip,
  hswc.checker.quantized), which turns GELU's tiny values into whole steps: 66 are at x < -5,
  GELU's deep tail, where the README's f32 erf form is -0 (so y = round(offset)) and the
  kernel's exp form keeps a value but not its exact one (x = -5.84, bf16: exact -64.05,
  kernel -13, reference 0); 4 are at |x| < 1e-6 where g * scale lies within 1e-5 of a
  half-integer, and the reference rounds it as the exact value does (x = -3.8e-8: exact
  81.499998, reference 81, kernel 82). The per-tensor ones are GELU's tail too, at x of -5.5
  to -5.6 with g * scale + offset within 2e-7 of a half-integer: 3 bf16 the kernel rounds as
  the exact value does (scale 2, offset -0.5: exact -0.50000013, kernel -1, reference 0, its
  g being -0), 4 f32 the reference does (exact 0.50000008, reference 1, kernel 0). Away
  from GELU's tail and such scales the static kernels give the reference's y bit for bit, and
  they broke no rule (no WholeReduceMax in this mode). On Ascend 950 the kernel does not build
  (above).
- **group_index: what the kernels do with it.** ClippedSwiglu's A2/A3 kernel reads the int64
  counts on the device, converts them to float in place (`op_kernel/clipped_swiglu.hpp:121`,
  Cast CAST_RINT onto a ReinterpretCast of its own int64 buffer: exact up to 2^24 only, and
  its float results overlap its sources partially), sums them in float (`:123` ReduceSum) and
  truncates the sum to the number of rows it computes, clamped to x's rows (`:124-127`); the
  rows past it are not written (y keeps what it held: not zeroed). SwigluGroup's Ascend 950
  kernel sums the counts in int64 (`op_kernel/arch35/swiglu_group_base.h:367-384`, exact) and
  clamps the same way (`:385`). hswc writes it as `hsg.first_rows %y, %group_index` (a kernel
  reading its row count from the tensor in GM; a negative sum is 0 rows). The checker now
  gives clipped_swiglu's kernel group_index (hswc/checker/counts.py): besides its runs without
  it, one size per dtype (its largest of at least two rows) with counts summing below, at and
  above x's rows, the tiling seeing int64 [G] (isGroup 1, groupNum G), the counted rows
  compared with hsg.first_rows' and every byte of the rest checked unwritten: all within the
  tolerance, none written past the count (20 runs per row before, 23 now). A sum of 0 is not
  drawn: the A2/A3 kernel then divides by a zero block count (`:168-169`). The group_index path
  adds one finding under --auto-sync off: ReduceSum (`:123`) reads the Cast's result (`:121`)
  with no PipeBarrier<PIPE_V> between (A2/A3 kernels build with auto-sync on: no fault there).
  swiglu_group (`hsg.swiglu_group`, without its optional weight) is Ascend 950 only; its
  kernel builds on the CPU model since it gained VF_CALL (a VF scope), TBufPool and MicroAPI's
  ReduceSum by name: f16 and bf16 within the tolerance, f32 outside in 4 runs (2 without
  group_index and the 2 group_index runs whose counted rows hold the same element), each one NaN
  where the reference has -inf: x0 the smallest negative subnormal, x1 inf; the kernel's f32
  x0 / (1 + exp(-x0)) (`op_kernel/arch35/swiglu_group_base.h:90-93`) is half that subnormal,
  -0 in f32 (a tie to even), and -0 * inf is NaN, as f32 arithmetic gives it (numpy's float32
  x0 * sigmoid(x0) * x1 is NaN too); the reference, the exact function, keeps the sign: -inf.
  Its group_index runs have verdicts since the model has int64 lanes (MicroAPI Add, Sub, Adds,
  ReduceSum: `hswc/checker/ascendc_cpu/ascendc_cpu_micro_int64.h`); they break no rule since the
  race checker counts the kernel's V -> S -> MTE2 order, as swiglu_group_quant's (below). Above
  the sweep's sizes (f32 n = 253954)
  a DataCopyPad write races with an earlier vector read (not traced). No LocalMemBar rule
  broken: its VFs store and load different bytes (a short row's whole-register LoadAlign
  reaching past its buffer is not counted). swiglu_group_quant is hsg.swiglu_group_quant,
  checked on x of [rows, 2H] with 2H a multiple of 256 (`op_host/arch35/
  swiglu_group_quant_tiling.cpp:437`), its fp8 y and y_scale read back in their own types:
  block FP8 (the definition's default, f8E4M3FN y, f32 scales per 128) is bit-exact in f16 and
  bf16 on every run, every f16/bf16 bit pattern included. Its MX variant (quant_mode 1,
  round_scale; E8M0 scales per 32) differs in NaN class only, and exactly in the blocks whose
  SwiGLU holds a NaN (15 of 16 blocks at f16 n = 1024, 7 at bf16, counted independently): the
  kernel takes the NaN scale's exponent field 255, adds 1 for its nonzero mantissa and casts
  256 to uint8 without saturation (`op_kernel/arch35/swiglu_group_quant_base.h:954-964`, Cast
  with SatMode::NO_SAT under CTRL[60] = 0, Cast.md table 4: 256 -> 0), so the scale is E8M0
  0x00 (2^-127) and inv (127 - 129) << 23 = -1.7e38 (`:969-971`), y then -0 for s = +0 and NaN
  or an fp8 overflow otherwise; hswc's op writes NaN (0xff) and NaN y there (an assumption its
  docstring states). ops-nn's own golden (`tests/assets/golden.py:194-203`, _round_pow2: the
  uint8 and 32-bit wrap) computes what the kernel does: the reference's choice, not a kernel
  bug. A block whose SwiGLU holds an inf (and no NaN) agrees: 0xff, inv -inf. With group_index
  (runs of their own) both variants' counted rows are bit-exact or differ as above, and no rule
  is broken: the x copy-in after `ProcessGroupIndexTiling`'s `tBufPool.Reset()` (`:1145`)
  writes the bytes `VFProcessGroupIndex` read (`:1133-1135`), ordered through the scalar unit
  (SetFlag/WaitFlag<V_S> at `:1140-1141`, then the scalar issues the copy: V -> S -> MTE2),
  which the race checker counts since 2026-12-07 (`ascendc_cpu_hb.h` JoinInto: a wait of S
  orders every pipe's later instructions, our reading of asc-devkit's pages on the Scalar unit
  and SetFlag/WaitFlag; before it, these runs reported that copy-in as a race).
  swiglu_group_quant_grad is hsg.swiglu_group_quant_grad,
  run in its form without weight (the CPU model has Ascend 950's Subs, `op_kernel/
  swiglu_group_quant_grad.h:252`; the checker leaves out the optional grad_weight output, a null
  address, as it leaves out optional inputs): outside the tolerance in every dtype, traced:
  - rule broken (misalignment) and values far off in every run whose x row is not whole 32-byte
    blocks (H = 1, 4, ... in the checker's [rows, 2H]): the kernel places b at
    `xFloatLocalTensor[tileLength]`, tileLength = tileTokens * tileH (`op_kernel/
    swiglu_group_quant_grad_base.h:58`, `swiglu_group_quant_grad.h:148`, `:170`, `:233`) with
    no alignment (the tiling's tileH = dimH, `op_host/swiglu_group_quant_grad_tiling_utils.h:
    434-439`), so its vector calls and DataCopyPad get UB addresses off 32 bytes. Such H are
    outside the op's documented sizes (`docs/aclnnSwigluGroupQuantGrad.md:368-375`: H in 512,
    768, ..., 4096): not a bug of the kernel within its contract, but the tiling accepts them.
  - at H = 512 (the runs of n a multiple of 1024) no rule broken; values within a few ulp but
    where an f32 intermediate leaves f32: d_a is (g * b) first, then times silu'(a)
    (`swiglu_group_quant_grad.h:273`, `:275`), so NaN where g * b overflows and silu'(a) is 0
    (f32 n = 65536 index 285: g = -1.1e25, b = -1.7e14, a = -1.1e20, exact -0), and 0 where
    exp(a) underflows (index 9483: a = -130.2, exact 5.8e-36). The 34 f32 values of that run
    outside rtol/atol were not each traced.
  Read, not run: its sigmoid is exp(a) / (exp(a) + 1) (`op_kernel/
  swiglu_group_quant_grad.h:240-246`), NaN for a above about 88.72 (exp overflows f32) where the
  README's 1 / (1 + exp(-a)) and the gradient are finite (without clamp_limit; the op follows
  the kernel).
  ClippedSwigluGrad zeroes the rows past the count instead (`activation/clipped_swiglu_grad/
  op_kernel/clipped_swiglu_grad.h:652-690`, ZeroInvalidRows), which its group_index runs compare.
  hswc-emit packages such a kernel with group_index as the same optional int64 input.
- **ClippedSwigluGrad** (hsg.clipped_swiglu_grad, the A2/A3 kernel's steps
  `op_kernel/clipped_swiglu_grad.h:461-553`, checked against a float64 model of the derivative
  of ClippedSwiglu's clamp_mode 0). It runs once the CPU model follows Copy's counter mode (the
  count is each repeat's elements: `Copy<float, false>` at `:518-522`). Outside PyTorch's
  tolerance in every dtype, mostly where f32 overflows: for |a| beyond about 2e38 / alpha,
  `Muls(-alpha)` or the product `(1 - s) * A * alpha` (`:480`, `:540-542`) overflows to inf and
  meets s = 0, giving NaN where the derivative is 0 (the rows' misplaced NaN; the few bf16 and
  f32 values outside rtol/atol besides are not yet traced); and for a below about -52
  (exp(-alpha * a) past f32's range, `:482`) s is 0, so da and db are 0 where the exact values
  are tiny (within the tolerance's atol). A real misuse on every SoC: `CompareScalar` on
  `alignedCount`, calPairNum_ rounded up to 64 (`:467-470`, `:503-504`; arch35
  `clipped_swiglu_grad_kernel.h:541-549`), reads past the end of the last chunk's buffer half
  (8192 of its 8000 bytes at 2000 pairs a chunk); the mask bits it makes there are not used.
  The Ascend 950 kernel multiplies db as (dy * A) * s (`arch35/clipped_swiglu_grad_kernel.h:
  516-517`), within 1 ulp of the A2 order where nothing overflows; where a is near -3.4e38,
  dy * A overflows to inf before it meets s = 0 (NaN), where the A2 order's A * s is -0 first:
  read from the source, not traced run by run, so the 950's bf16 and f32 NaN are counted apart.
- **ClippedSwiglu (A2/A3) now builds and runs.** Its tiling includes its prototype header
  (`op_host/clipped_swiglu_tiling.h:25`, `graph/operator_reg.h`'s REG_OP macros, which the
  CPU model of the tiling context now has); its kernel picks its element type by
  `#if (ORIG_DTYPE_X == DT_FLOAT16)` (`op_kernel/clipped_swiglu.cpp:31-55`), the macro CANN's
  kernel build defines beside DTYPE_X, which the checker now defines too (before, every dtype
  built the float kernel); it splits interleaved pairs with ArithProgression and Gather
  (`op_kernel/clipped_swiglu.hpp:349-354`), now modelled; and its tiling struct is generated from
  the registered class, as CANN's build does, not taken from `tests/ut/op_kernel/
  clipped_swiglu_tiling_def.h`, whose `#pragma pack(1)` puts ubMaxPair at byte 60 where metadef
  aligns it to 64 (read from the UT header, ubMaxPair was 0 and InitBuffer failed). Checked
  with group_index left out (a null address, isGroup 0) and given (see group_index above).
- **ORIG_DTYPE_* now defined: GeGluGradV2, SituGlu and SituGluGrad swept again.** Before, the
  checker left ORIG_DTYPE_<N> undefined, so `#if ORIG_DTYPE_DY != DT_FLOAT` was false and every
  dtype built the float path (`op_kernel/ge_glu_grad_v2_tanh_base.h:140`, `:308`). Swept again,
  GeGluGradV2's f16 and bf16 rows have no value outside the tolerance (max 1 ulp f16, 248 ulp
  bf16 on A2/A3); what stays are misplaced inf/NaN, not yet traced, so the GeGluGradV2 note
  above (f16 a * dy in half) was measured on the float path and is to be read again. SituGlu and
  SituGluGrad (their tilings include their prototype headers, now built) run on every SoC:
  within the tolerance in f16, outside in bf16 and f32 (not yet traced).
- **The reductions no hsg op computes are mapped (hswc.checker.row_generics).**
  ConfusionSoftmaxGrad (y = grad - sum(grad * x, -1)), SoftmaxGradExt (y = (grad - sum(grad *
  x1, -1)) * x1 * x2, x2 one element), SoftmaxCrossEntropyWithLogits (loss = -sum(labels *
  log_softmax(features), -1) and backprop = softmax(features) - labels, TensorFlow's op) and
  PReluGradReduce (da = sum(updates) over every dim but the channel: its tiling's axes,
  `op_host/arch35/prelu_grad_reduce_tiling_arch35.cpp:57-89`) are written as linalg.generics with
  reduction iterators (f32 accumulation, one rounding), run by hswc's interpreter, compared
  within PyTorch's tolerance. All four are Ascend 950 only. ConfusionSoftmaxGrad now runs (the
  last bullet of these notes); SoftmaxGradExt's tiling includes `common/inc/op_api/
  runtime2_util.h`, whose `util/fp16.h` it now finds (opbase's include/op_common/op_host), and
  then `<nlohmann/json.hpp>`, not installed on the sweep's machine; SoftmaxCrossEntropyWithLogits's
  kernel now builds (its `InitOutput` modelled; `StoreAlign<float, StoreDist::...>(...)` called
  unqualified with template arguments, `op_kernel/arch35/softmax_cross_entropy_with_logits_
  full_load.h:398`, which the device compiler finds by C++20's argument-dependent lookup (P0846)
  and the CPU model now makes visible; `unlikely`, `..._split_r.h:185`, as asc-devkit's
  impl/basic_api/utils/kernel_utils_macros.h:33 defines it), and its runs stop at the library's
  `ReduceMax` / `ReduceSum` over a Pattern (`..._full_load.h:221`, `:237`), which the CPU model
  then refused (no documented order; modelled since, the last bullet): "rule broken (API
  misuse)" was that refusal. PReluGradReduce's entry is ATVOSS's reduce template, its
  parameters spelt as a macro (`template <REDUCE_TPL_PARAM>`,
  `op_kernel/p_relu_grad_reduce_apt.cpp:23`; opbase's
  `atvoss/reduce/reduce_tiling_key_decl.h:63`), which the checker now expands; its tiling
  (opbase's reduce tiling) now builds on the model of the tiling context (GEN_REDUCE_TILING_KEY's
  trailing comma, `atvoss/reduce/reduce_tiling.h:488-491`, taken as asc-devkit's braced list;
  REPORT_INNER_ERR_MSG); the MicroAPI calls of opbase's `atvoss/reduce/reduce_operator.h` it
  stopped at (MaskNot `:236`, Copy `:246`, MaskXor `:671`, Arange `:681`, DataCopyGather `:701`)
  are modelled now and it runs (its verdicts: the bullet on MicroAPI index calls below).
  examples/check_kernel/confusion_softmax_grad_op (an A2 kernel of the same formula in ops-nn's
  layout) passes against the generic and fails with its seeded mistake
  (test/test_check_kernel_row_generics.py).
- **The softmax family: mapped; experimental/activation/softmax_v2 and the Ascend 950 folders
  run.** The sweep maps softmax_v2, log_softmax_v2, softmax_grad and
  log_softmax_grad (activation/ and experimental/activation/) to hsg.softmax, log_softmax,
  softmax_grad and log_softmax_grad (dim -1, every tensor of [rows, L], within PyTorch's
  tolerance of the float64 model; `examples/check_kernel/softmax_op` is such a check passing a
  kernel and catching one without its maximum).
  experimental/activation/softmax_v2 (Atlas A2) takes 4-d x and `dim` in [0, 3] (`README.md`:
  "维度为4维"; its tiling's default `dim = 3` indexes the dims, `op_host/softmax_v2_tiling.cpp`),
  so it runs on [1, 1, rows, L] with dim = 3 (ROW_DIMS); its cores meet at `SyncAll()`
  (`op_kernel/softmax_v2.h:369`, after each of its three passes), which the CPU model now runs
  (hswc/checker/ascendc_cpu/ascendc_cpu_cores.h; its `SetAtomicAdd<T>()`, `:248`, is for a dim
  other than the last and is modelled too, ascendc_cpu_atomic.h). Its rows are real findings:
  (1) a launch of fewer rows than its 8 cores reads before x: the tiling always launches 8
  cores (`op_host/softmax_v2_tiling.cpp:39`, `:248`) and gives a core of no rows one tail row
  (`:191-195`: `small_tail_num = core_tile_x1` when `small_tile_length` is 0), which the kernel
  processes at `progress = loopCount - 1 = -1` (`op_kernel/softmax_v2.h:365`): the GM read of
  elements [2^32 - 2, 2^32) (rule broken, GM out of bounds, in every run of fewer than 8 rows);
  (2) the row sum, `ReduceSum<T>` into the dequeued VECOUT tensor (`op_kernel/softmax_v2.h:231`),
  is copied out by `DataCopyPad` (`:235`) with no V -> MTE3 flag between them (unsynchronised
  pipes); (3) f16 is computed in half throughout (`Adds`, `Exp`, `ReduceSum<half>`, `Div`,
  `:298-327`), not accumulated in float as PyTorch's and ops-nn's Ascend 950 kernels do: 7 of
  its 10 f16 runs are outside PyTorch's tolerance (max 8 ulp); f32 is within it (max 57 ulp).
  The vector calls it leaves unordered with --auto-sync off are listed after the table.
  The Ascend 950 folders' tilings build (the host model has `kernel_tiling/kernel_tiling.h`
  and `GetDeterministicLevel`; log_softmax_v2's and log_softmax_grad's tiling classes derive
  from softmax_v2's and softmax_grad's, which their CMakeLists.txt names as DEPENDENCIES: the
  checker builds those folders' tiling sources with theirs, as ops-nn's one tiling library
  does, and lets `../../softmax_v2/arch35/...` reach softmax_v2's op_kernel, as ops-nn's kernel
  tree does), and now their kernels too: the register calls they make are modelled (below,
  "Ascend 950 folders made checkable"), and each of the five tiling structs, one per tiling key
  (`REGISTER_TILING_DATA_CLASS(SoftmaxV2_500, ...)` to `(SoftmaxV2, ...)`,
  `op_host/arch35/softmax_v2_tiling.h:132-136`), is generated. Their rows:
  - the runs whose tiling takes the full-load path (`op_kernel/arch35/*_ar_full_load.h`: the
    row max and sums by `MicroAPI::Reduce`, a binary tree of pairs) are within PyTorch's
    tolerance: softmax_v2 f16 max 1 ulp, bf16 0, f32 62 (results near 1e-35, inside atol);
    log_softmax_v2 f16 1, bf16 and f32 0; log_softmax_grad f16 1;
  - "rule broken (API misuse)" was the CPU model's refusal, not the kernels': the small-row and
    recompute paths sum with the library's `ReduceSum<float, Pattern::Reduce::RA / AR>`
    (`softmax_v2_ar_small_r.h:150`, `softmax_v2_ar_recompute.h:208`, `:223`, and their kin in the
    other folders), whose order of summation is documented nowhere: such a run stopped there
    (softmax_v2 f32: 16 of 27 runs; they run now in the order asc-devkit implements: the last
    bullet);
  - "queue misuse" (log_softmax_v2, log_softmax_grad, confusion_softmax_grad): `TPipe::
    InitBuffer` of a TBuf of 0 bytes, `InitBuffer(binaryTmpLocalBuffer_, tl_->binaryTmpSize)`
    (`log_softmax_v2_ar_full_load.h:107`, `log_softmax_grad_ar_full_load.h:115`,
    `confusion_softmax_grad_ar_full_load.h:106`), the tiling giving binaryTmpSize 0 for rows of
    at most 128 floats (`softmax_grad/op_host/arch35/softmax_grad_tiling_ar_full_load.cpp:50-55`,
    `:73`). InitBuffer.md does not say whether 0 bytes is allowed; asc-devkit's implementation
    asserts len > 0 (the last bullet), so it is a rule the kernels break; such a run stops there;
  - log_softmax_grad bf16 and f32, "inf/NaN misplaced": at inputs outside the op's contract, in
    the every-bit-pattern run. `output` is a log-softmax (never above 0) but is drawn as any
    value: exp(output) overflows f32 for output above 88.7 (bf16 n = 65536: grad 2e-36,
    output 92: the kernel's -inf against the float64 model's -6.6e8), and a row of bf16 grads
    near their largest sums to inf in f32, times exp(output) = 0 giving NaN (output -2e26).
    Neither happens for an output that log_softmax can give. softmax_grad (now built: its
    `MulAddDst`, `op_kernel/arch35/softmax_grad_ar_full_load.h:179`, is fused as MulAddDst.md and
    the precision table say) was swept then with its inputs swapped by the checker; its verdicts
    since the swap was mended, and why, are in the bullet "softmax_grad on Ascend 950" below;
    its "API misuse" and "queue misuse" are the two above.
- **experimental/activation/log_softmax_v2 (Atlas A2) is now checked: within PyTorch's tolerance
  in every dtype, rule broken.** It reduces each row in mask counter mode (`SetMaskCount`,
  `op_kernel/log_softmax_v2.h:220`; `SetVectorMask<float>(0, length[j])` and
  `BlockReduceMax<float, false>(..., MASK_PLACEHOLDER, ...)`, `:222-223`; then
  `WholeReduceMax<float, false>` with repeatTime MASK_PLACEHOLDER = 0, which counter mode
  ignores, `:227-228`, in its default order, value and index), which the CPU model now runs
  (hswc/checker/ascendc_cpu/ascendc_cpu_mask.h, ascendc_cpu_vec_block_reduce.h). The rules it
  breaks: (1) every reduction is in place, `BlockReduceSum(inputLocal, inputLocal, ...)` (`:238`),
  `WholeReduceSum(inputLocal, inputLocal, ...)` (`:242`) and their f16 (`:857-884`) and bf16
  (`:1579-1605`) twins: each repeat's results are written over that repeat's own source, a
  partial overlap the general rule does not support (通用地址重叠约束: within one repeat source
  and destination overlap 100% or not at all; the model computes them from the sources as read);
  (2) f32 rows shorter than 32 elements are copied in as whole 32-element rows,
  `DataCopy(inputLocal, inputGm[start * n], align_to(n, 32))` (`:206`, `:213`): the last row's
  copy reads past x (GM out of bounds at rows of L = 2 and 16); (3) with --auto-sync off, the
  vector calls listed after the table.
- **experimental/activation/log_softmax_grad (Atlas A2) is now checked: outside PyTorch's
  tolerance in every dtype, rule broken.** Its short rows (L not a multiple of 8 floats) are
  summed through two transposes, `TransDataTo5HD<float>` (`op_kernel/reduce_tail.h:240`, `:260`),
  which the CPU model now has (ascendc_cpu_vec_transpose.h: the order of the two blocks a
  32-bit round writes is in a figure only, and is taken as the kernel's address lists expect
  it, `:235-237`); it calls `AlignUp` unqualified (`op_kernel/log_softmax_grad_base.h:73`),
  which asc-devkit declares (impl/basic_api/utils/kernel_utils_ceil_oom_que.h:41) and the model
  now does too. Rules: rows of fewer than 8 floats are copied in as whole 32-byte blocks,
  `DataCopy(dyIn, dyGM_[offset], AlignUp(count, elemsPerBlock))` (`log_softmax_grad_base.h:73`,
  `:100`): the last row's copy reads past dy and x (GM out of bounds). Values: whole-row runs
  (16, 128, 1024, 12288, ... elements) are within the tolerance, most at 0 ulp; runs of many
  short rows (289 rows of 2, 513 of 2, ...) put some values far off (f32 289 x 2: 27 of 578,
  e.g. the kernel's 0 against -1.6e10 at element 212; f16 and bf16 alike, and infinities and
  NaNs where the reference has finite values). Their cause is not traced here.
- **GeGluV2: y and gelu, both compared (hsg.ge_glu_v2, its definition's defaults: approximate
  tanh, activate_left false).** Its GeLU is `x / (1 + exp(-2u))` in f32
  (`op_kernel/ge_glu_v2_base.h:245-259`). The f16 and f32 kernels Cast the GeLU to x's type and
  multiply that (`op_kernel/tanh/ge_glu_v2_fp16_align.h:139-158`), as PyTorch's `F.gelu(b)` held
  in x's type, which hsg.ge_glu_v2 computes; they enqueue their copied-out gelu again to pass it
  to the Mul (`:166-171`), which asc-devkit's TQueBind::EnQue allows (a DEQUE buffer), and the
  CPU model now does too. The bf16 kernel multiplies the unrounded f32 GeLU
  (`op_kernel/tanh/ge_glu_v2_bf16_align.h:137-145`) and Casts the gelu output apart (`:149`):
  the two differ where the GeLU is subnormal in bf16, which keeps few of its bits (b below
  about -10, against a large a): the bf16 rows' runs outside PyTorch's tolerance (the gelu
  output within). The f32 rows' are the formula's tail in f32: where exp(-2u) is large its
  argument's rounding gives the GeLU some 20 ulp of error (within the tolerance's atol for
  gelu itself, not for y = gelu * a with a large a: y 17 ulp off near b = -3.7), and below
  b = -10.05 exp overflows to inf and the GeLU is -0 where it is subnormal (y 0 against 0.21
  for a = 1.1e38). f16 (its range keeps a small) is within the tolerance. The golden model's
  GeLU had read 0 there (`1 + tanh(w)` rounding to 0 in float64), which made the bf16 and f32
  rows look far worse (6e21 ulp); it is now written without that cancellation
  (hswc/reference_gated.py). Ascend
  950: the kernel's `static constexpr ErfConfig config` inside a member template
  (`op_kernel/arch35/ge_glu_v2_base.h:275-276`), passed to `Erf`'s `const ErfConfig&`
  template parameter, crashes g++ 12 (an internal compiler error, reproduced in ten lines of
  C++17; by value under -std=c++20 it builds). The CPU model's `Erf` is now a class template whose
  constructors are its forms (a call reads the same), which g++ 12 compiles: f16 within 2 ulp
  but one value outside the tolerance (a GeLU of about -0.0013 * -5420 near 3.6, 1 ulp of the
  gelu output carried by the Mul), bf16 outside in 6 of 33 runs (10 values, up to 235 ulp), f32
  outside in 12 of 31 (115 values, up to 1.6e7 ulp), the same kinds of difference as Atlas
  A2/A3's rows above: the f32 GeLU's tail times a large a, and 1-ulp GeLU differences of the
  `x / (1 + exp(-2u))` form (first differences: y 1 ulp off at a = 3.4e38, b = 0.5).
- **GeGluGradV2** (hsg.ge_glu_grad_v2: dx from dy, x and the gelu GeGluV2 wrote, not
  recomputed: `op_kernel/ge_glu_grad_v2_tanh_fp32.h:58` `Mul(outLocalLeft, ubGelu, ubDY)`)
  splits and joins x's halves with `TransDataTo5HDImpl` on UB addresses
  (`op_kernel/ge_glu_grad_v2_tanh_base.h:433`, `arch35/ge_glu_grad_v2_tanh_base.h:440`), which the
  CPU model now runs (ascendc_cpu_vec_transpose.h): checked on every SoC, outside PyTorch's
  tolerance in every dtype. The halves are put back where they belong (most values within 1
  ulp); what is outside is at inputs of large magnitude. In f16 the kernel forms a * dy in half
  (`op_kernel/ge_glu_grad_v2_tanh_fp16.h:76`, `Mul(ubX1, ubX1, ubDY)`) before widening it: where
  that product overflows to inf and GELU's derivative at b is 0 (b below about -10, its
  exp(x (a1 x^2 + a2)) overflowing, `ge_glu_grad_v2_tanh_base.h:280-288`), inf * 0 gives NaN
  against the reference's -0 (f16 n = 4096: b = -36800, dy = 65504 at element 523). The bf16
  and f32 rows are not traced further. On Ascend 950 the kernel also uses an operand past its
  buffer ("operand past its buffer" in its rows), not traced here.
- **SituGluGrad** (hsg.situ_glu_grad, the kernel's steps `op_kernel/situ_glu_grad.hpp:315-416`)
  is not checkable for the same reason as SituGlu: its tiling includes `graph/operator_reg.h`
  (`op_graph/situ_glu_grad_proto.h:18`).
- **GluGrad has one output** (`op_host/glu_grad_def.cpp:29`, `out`: both halves of dx), which
  hsg.glu_grad returns (x's shape) and the sweep compares; its only configuration is Ascend 950
  (`:44`). Its tiling includes `tiling/template_argument.h`
  (`op_kernel/arch35/glu_grad_tiling_key.h:14`): asc-devkit's include/utils/tiling/
  template_argument.h by its source path (the build puts asc/include/utils on the search path,
  cmake/asc/asc_modules/CMakeASCInformation.cmake:222; impl/basic_api/CMakeLists.txt:14 installs
  the same file as ascendc/host_api/tiling/template_argument.h), which the CPU model now maps to
  its model of that header. Swept on Ascend 950 (sizes up to 65536): outside PyTorch's
  tolerance in every dtype. The half and bf16 kernels compute the even and odd
  lanes apart, narrow each into its lanes of a zeroed register and join them with an Add
  (`op_kernel/arch35/glu_grad_common.h:112-113`, `:140-146`), so every -0 result comes out +0
  (-0 + +0); the other f16 bits seen agree within 1 ulp. The values outside (f16 4224, bf16
  290 and 33 inf/NaN misplaced, f32 629) are not traced value by value; read from the source,
  b's gradient is grad * a * s * (1 - s) with 1 - s by subtraction (`:130-137`), which is 0 once
  s = 1 / (1 + exp(-b)) rounds to 1 in f32 (b above about 17), where the exact value is about
  grad * a * exp(-b), large for large a and grad (one f16 value seen: the kernel inf where the
  reference is NaN). The half and bf16 -> float Casts name SatMode::NO_SAT (`:71-76`):
  bf16 -> float's row takes SatMode::UNKNOWN (Reg Cast.md:194), the bf16 rows' "rule broken
  (API misuse)", with no effect on the lanes (the row has one behaviour, and asc-devkit's
  implementation passes no SatMode for the pair); half -> float has no row in the tables.
  (hswc's own GluGrad package writes the halves as two outputs, joined on the host: not
  ops-nn's signature.)
- **The last "not checkable" rows (issue 37): what the CPU model lacked, and the verdicts.**
  Swept again with `--folders ... --soc ascend950` (7 rows, one per kernel and SoC, became 17,
  one per dtype; none is not checkable now).
  - **SIMT (activation/threshold, activation/erfinv).** The model now runs Ascend 950's SIMT VFs:
    `asc_vf_call<f>(dim3(n), args...)` calls f on the block's threads one after another, with
    `threadIdx`, `blockDim`, `blockIdx.x` (the core) and `gridDim.x` (the core count) as
    asc-devkit's mixed-programming pages define them (`ascendc_cpu_simt.h`: the result is the
    hardware's for threads that share no data, which both kernels' loops are; GM bytes a VF
    changes through raw pointers count as its core's writes). **threshold: bit-exact in f16,
    bf16 and f32** (`op_kernel/arch35/threshold_simt.h:29-43`: a grid-stride loop over GM, x
    widened to float, `> threshold ? 1 : 0`). erfinv's VF calls the SIMT `erfinvf`
    (`op_kernel/arch35/erfinv_dag.h:40`), which asc-devkit composes from log2f and rsqrtf
    (`impl/simt_api/math_functions_impl.h:1539-1570`), both documented to 1 ulp at best: the model
    runs that composition with the two taken as correctly rounded (assumed), so its rows are
    the kernel's algorithm, casts and tiling on those models, compared within PyTorch's
    tolerance with Giles' erfinv. **erfinv: within in every dtype** (f16 1 ulp, bf16 0, f32 3)
    once the reference has erfinv's poles: its Giles generic gave -inf at x = 1 and +inf at
    -1 (the tail polynomial's leading coefficient is negative, and w = inf there), where the
    kernel's +inf and -inf are torch.erfinv's (f16 n = 65536: x = 0x3c00, kernel 0x7c00,
    reference 0xfc00; those were all of the rows' inf/NaN misplaced); hswc/checker/
    opsnn_generics.py now selects +-inf at |x| = 1.
  - **LeakyRelu (fused_bias_leaky_relu, both folders).** Not refused any more: its count form is
    modelled (x where x >= 0 on Atlas A2/A3, x > 0 on Ascend 950, as each family's page writes
    it, else x * slope rounded once, assumed as Muls). The definitions' defaults are
    negative_slope 0.2 and scale 1.414213562373 (activation's
    `op_host/fused_bias_leaky_relu_def.cpp:42-43`, experimental's `:40-41`),
    which the generic holds. activation/: f16 within (max 1 ulp; the kernel computes in float
    and narrows with CAST_ROUND, round half away from zero, `op_kernel/arch35/
    fused_bias_leaky_relu.h:165`, where the reference rounds to even), f32 within at 0 ulp.
    experimental/: f32 within at 0 ulp; **f16 outside**, from its own arithmetic: it adds, applies
    LeakyRelu and scales in half (`op_kernel/arch35/fused_bias_leaky_relu.h:140-144`), with the
    slope and scale rounded to half first (`:81-82`: 0.2 -> 0.199951171875, 1.414213562373 ->
    1.4140625), three roundings in half against one from float: f16 n = 127 index 13, x = 0xb269
    (-0.2003), bias = 0x0003: s = 0xb269, s * slope = 0xa920, * scale = 0xab3f (-0.056610),
    where the reference gives 0xab41 (-0.056671), 2 ulp and outside rtol 1e-3; and x + bias
    overflows in half where the float sum would not: x = bias = -65504 gives -inf, the
    reference -131008 * 0.2 * 1.41421 = 0xf886 (-37056) (the rows' inf/NaN misplaced).
  - **fast_gelu_v2 bf16 (experimental): Muls on bfloat16_t.** Ascend 950 runs the level-2 Muls
    on bfloat16_t as a Duplicate of the scalar then the register Mul
    (`impl/basic_api/dav_3510/kernel_operator_vec_binary_scalar_impl.h`, RegMuls::Muls), whose
    bf16 result asc-devkit documents as the float product rounded to bf16
    (`docs/zh/api/附录/Reg矢量计算接口精度标准汇总.md`, Mul): hswc/api_tables.def now says so,
    and the CPU model and the interpreter compute it. **bf16 outside** (max 331 ulp), from the
    kernel's bf16 path, not from Muls: it computes y = |x| inner + x / 2 every step in bf16
    (`op_kernel/fast_gelu_v2.h:160-190`) with its constants rounded to bf16 (0.7071 ->
    0.70703125, 1.769 -> 1.765625, -0.1444 -> -0.14453125). For x < 0 the two terms nearly
    cancel: bf16 n = 18112 index 1, x = -2.125: inner = 0.490234375, |x| inner = 1.0390625, x / 2
    = -1.0625, y = -0.0234375 where the f32 formula gives -0.021728516. For x <= -2.5 the clip
    makes inner exactly 0.5, so y = |x| / 2 + x / 2 = +0 where the reference's x * (sgn(x) 0.5 +
    0.5) is -0; at x = +inf the kernel's inf * 0.5 + inf = inf where the README's sgn(x) = (x +
    1e-12) / |x + 1e-12| is inf / inf = NaN (the reference's NaN; the f16 and f32 kernels take
    that formula and agree with it).
  - **Sigmoid (activation/ and experimental/, Ascend 950): its tiling builds.** It parses its
    compile info with nlohmann/json (`op_host/arch35/sigmoid_tiling_arch35.cpp:201-207`) and
    reads nothing from it; where the library is not installed, the host build now finds hswc's
    stand-in (`hswc/checker/ascendc_cpu/host_fallback/nlohmann/json.hpp`, written for hswc: the
    type, parse with JSON's grammar checked, dump; searched after every real copy). Both within
    PyTorch's tolerance (f16 1 ulp, bf16 24 ulp, f32 2 ulp), as on A2/A3.
- **ReluV2's and ReluV3's masks** (`activation/relu_v2/op_host/relu_v2_def.cpp`, output
  `mask`, DT_UINT1; experimental `relu_v3_def.cpp`, output `mask`, DT_UINT8 of (d + 7) / 8
  bytes) are compared bit for bit beside y (bits LSB first, hswc/checker/masks.py): "mask bits
  too" in their rows. Both folders (and experimental/activation/relu_v2, y only) map to
  `hsg.relu_mask`, whose golden model gives y and the mask; hswc compiles the op to one kernel
  writing y and the mask packed for an i1 result marked `hsg.storage = "bits"`
  (docs/operators.md, test/test_relu_mask.py).
- **Ascend 950 folders made checkable (swept again with `--folders ... --soc ascend950`, their
  A2/A3 rows kept).** The CPU model now has the register calls ops-nn's arch35 kernels make
  (`MicroAPI::Reduce`: a sum as the binary tree of pairs Reduce.md documents; `Move`, the fused
  `MulDstAdd`, `UnPack`, `Duplicate`'s Tensor form, `Div<T, &DivSpecificMode>` with Div.md's
  flush to zero, `StoreUnAlign` / `StoreUnAlignPost`, `LocalMemBar`, the `plt_b32` intrinsic),
  `SetSysWorkspace` and `InitOutput`; a tiling sees opbase's `include/op_common/op_host` (its
  FindOPBASE.cmake) and may `Append` to its TilingData; a kernel naming one tiling struct per
  tiling key gets them all generated. The library's `ReduceSum<float, Pattern::Reduce::AR>`
  (used by the softmax family's recompute and small-row paths) documents no order of summation:
  it compiled and was refused when run, so a run that took such a path stopped there ("rule
  broken (API misuse)": the CPU model's refusal, not the kernel's fault; it runs now, the last
  bullet).
  - **ClippedSwiglu (ascend950): rule broken in every dtype, a real bug.** `CopyOut` dequeues
    the output and enqueues it again at once (`op_kernel/arch35/clipped_swiglu_kernel.h:506-507`),
    then copies it out (`:520`) and frees it (`:521`) while it is enqueued: the queue rule
    (EnQue hands the tensor to the consumer, which DeQues it before use). No run gets as far as
    writing y.
  - **SwishGrad (ascend950):** f16 within PyTorch's tolerance (max 1 ulp); bf16 and f32 outside.
    The kernel forms 1 - sigmoid(x) by subtracting the float sigmoid from 1
    (`op_kernel/arch35/swish_grad_dag.h:72` Div, `:74` Sub), which keeps none of 1 - sigmoid's
    relative accuracy once sigmoid rounds near 1: for x of about 10 to 30, dy * sigmoid * (1 + x
    (1 - sigmoid)) is off by tens of ulps (f32 n = 2048: 45 ulp at dy = 7.4e31); at x = +-inf it
    multiplies inf by 0 (`:75` Mul, `:76` MulDstAdd) and gives NaN where silu'(x) is 1 or 0. A
    sigmoid that underflows to +0 (exp(-x) overflowing, x below about -88.7 in f32) makes
    `MulDstAdd`'s x (1 - 0) * 0 + 0 a +0 where the reference's product is -0 (signs of zero,
    within the tolerance). bf16's 3 values outside (one run, max 254 ulp) are not traced here.
  - **FastGelu (ascend950): outside PyTorch's tolerance only at x = +inf, which the reference
    gets wrong.** The kernel computes x / (exp(-1.702 x) + 1) (`op_kernel/arch35/
    fast_gelu_dag.h:47-51`) and gives +inf at x = +inf; the README's formula the sweep's generic
    writes, x / (1 + exp(-1.702 |x|)) * exp(0.851 (x - |x|)), takes inf - inf there (NaN). Every
    finite x is within the tolerance (f16 max 1 ulp; f32's largest "ulp" figure is a subnormal
    result the kernel's `Div<float, &mode>` with precisionMode flushes to 0, as Div.md says).
    FastGeluGrad (ascend950): within the tolerance in every dtype.
  - **ConfusionSoftmaxGrad (ascend950)** builds and runs (its kernel names SoftmaxGrad's
    `SoftmaxGradARTilingData` and kin, which its tiling defines: generated as SoftmaxGrad's are):
    within PyTorch's tolerance in every dtype (max 0 ulp); its "queue misuse" is the TBuf of 0
    bytes of the softmax family's bullet (`op_kernel/arch35/confusion_softmax_grad_ar_full_load.h:
    106`).
  - **SwiGlu (every SoC)** builds: its tiling uses SwiGluGrad's `GluBaseTiling4RegBase`
    (`op_host/swi_glu_tiling.cpp:19`, `:503`), linked as its `op_host/CMakeLists.txt` names
    DEPENDENCIES swi_glu_grad (the link had lacked its vtable). f32 is within PyTorch's tolerance
    on every SoC (max 3 ulp); f16 and bf16 are outside it in a few elements of some runs, off by
    up to about half their value (A2 f16 n = 49160: -0.00136 against -0.00268; n = 912: 2 of
    456), though the kernel computes in float and rounds once (`op_kernel/swi_glu_bf16.hpp:64-91`):
    not rounding; not traced here (which a and b the kernel paired there is the next question).
    SwiGluGrad's A2/A3 kernel runs now (its bullet below).
- **The library's Pattern reductions run on the Ascend 950 model; a 0-byte InitBuffer is a rule
  asc-devkit asserts (issue 36).** `ReduceSum` / `ReduceMax` / `ReduceMin` over
  `Pattern::Reduce::AR` / `RA` now run in the order asc-devkit 82b89a15f's implementation
  combines them (impl/adv_api/detail/reduce/: the elements past the largest power of two folded
  onto the first ones, then trees of 16 consecutive parts or a halving tree as the shape and its
  alignment choose, then the register `Reduce`; not documented: ReduceSum-90.md gives no order;
  hswc/checker/ascendc_cpu/ascendc_cpu_adv_reduce.h cites each path's lines). `TPipe::InitBuffer`
  with len 0: InitBuffer.md is silent, asc-devkit's implementation asserts `len > 0`
  (impl/basic_api/dav_3510/kernel_tpipe_impl_c310.h:244, `:334`; A2/A3 kernel_tpipe_impl.h:269,
  `:354`; the assert is checked in CANN's CPU-debug builds and compiled away on the device), so the
  softmax family's `InitBuffer(binaryTmpLocalBuffer_, tl_->binaryTmpSize)` with binaryTmpSize 0
  (above) breaks it: "queue misuse" there is the kernels', and such a run still stops at it.
  Swept again on ascend950:
  - softmax_v2: every run reaches its end, the small-row and recompute paths included (f16 13
    runs, bf16 13, f32 25; none stopped), within PyTorch's tolerance (f16 max 1 ulp, bf16 0, f32
    62 at results near 1e-35); no rule broken;
  - log_softmax_v2: within the tolerance (f16 9 runs, bf16 9, f32 18; the large ulp figures are at
    results inside atol); "queue misuse" the 0-byte TBuf;
  - **softmax_cross_entropy_with_logits: rule broken in every dtype, a real bug.** Its runs get
    past the Pattern reductions now (the full-load path's `ReduceSum` with isReuseSource false,
    `op_kernel/arch35/softmax_cross_entropy_with_logits_full_load.h:221`, and `:237`; the split-R
    path's `ReduceMax`, `..._split_r.h:389`). The full-load `Compute` frees the features tensor
    twice: `featuresQueue_.FreeTensor(featuresBuf)` at `..._full_load.h:218` and again at `:246`
    ("queue misuse": TQue::FreeTensor of a tensor already freed), and each such run stops there
    (f32: 25 of 30 runs of a direct check); the runs that take the split-R path are within
    PyTorch's tolerance (sweep: 4 runs a dtype, max 1 ulp; both outputs);
  - softmax_grad and log_softmax_grad reach paths they did not (softmax_grad f32: 20 runs where
    there were 3); their "outside" is traced in the next bullet;
  - confusion_softmax_grad: as before (within; the 0-byte TBuf).
  Further (the optional extra `pip install -e '.[opsnn]'` installs nlohmann-json from the package
  index): SoftmaxGradExt's tiling now builds (the host model has `REPORT_INNER_ERR_MSG`, which
  ops-nn's common/inc/error_util.h calls) and its kernel runs (softmax_grad_ext's bullet below);
  SwiGluGrad's Ascend 950 kernel gets past the unaligned register loads (`LoadUnAlignPre` /
  `LoadUnAlign`, now modelled) and past `MicroAPI::Arange`
  (`op_kernel/arch35/swi_glu_grad_ub_rearrange.h:311`, modelled since: the next bullet).
- **MicroAPI index calls: PReluGradReduce and SwiGluGrad run on Ascend 950.** The CPU model now
  has MicroAPI Not / MaskNot, MaskAnd / MaskOr / MaskXor / MaskMov, Copy, Arange, Gather /
  DataCopyGather, Scatter / DataCopyScatter, UnalignReg with the DataCopyUnAlign* names
  (ascendc_cpu_micro_mask.h, ascendc_cpu_micro_gather.h), the Reg calls' uint16_t / uint32_t lanes
  and integer Div (ascendc_cpu_micro.h). Verdicts:
  - p_relu_grad_reduce: f16 within (max 1 ulp); bf16 and f32 outside in 3 runs each, no kernel bug
    shown. Reproduced for f32 (math.fsum as the exact sum): n = 59136 (231 x 256), column 78 holds
    nine values above 1e37 whose exact sum is 1.9991614e38; the reference's f32 sum in row order
    gives 1.9991617e38, the kernel NaN (its partial sums in its own order overflow to both
    infinities); column 139 holds an inf (reference inf, kernel NaN, likewise). n = 32768,
    column 155: exact -536.16330, kernel -536.16309, reference -536.16437: the kernel is the
    closer one, outside rtol only against the reference's order. The verdicts measure the order of
    f32 sums on columns of cancelling values near f32's maximum, not the kernel.
  - swi_glu_grad (950): rule broken (misalignment) in every run whose H * sizeof(T) is not a
    multiple of 32: the gather path reads the second half from `xLocal.GetPhyAddr(colLen)`
    (`op_kernel/arch35/swi_glu_grad_ub_rearrange.h:340`) with `MicroAPI::Gather` (`:371`, `:386`)
    and writes it back with `MicroAPI::Scatter` at `outLocal.GetPhyAddr(this->colProcess_)`
    (`:403`, `:440`, `:452`), while the pages require a 32-byte aligned base (the Reg Gather
    and Scatter pages: "baseAddr ... 需要32字节对齐"): a breach of the rule (or the pages are
    stricter than vgather2 / vscatter). The aligned runs are "outside" where
    PyTorch's order overflows and the kernel's does not: the reference (autograd's
    silu_backward(g * b, a), g * b stored in T) gets inf * 0 = NaN when g * b overflows, where the
    kernel (`op_kernel/arch35/swi_glu_grad_base.h:187-204`: g * sigmoid(a) first) gives the exact
    0 (f32 n = 4096 index 1105: a = -5.6e24, exact -0); and the kernel's g * sigmoid(a) underflows
    where the exact result is tiny (index 2355: a = -62.2, exact -2.1e-18, kernel -0; within
    atol). f16 n = 2048 index 813: exact 1.7505e-05, kernel 1.7524e-05, reference 2.5690e-05.
    No value bug of the kernel shown.
  - swi_glu_grad (Atlas A2/A3) runs: its kernel says GET_TILING_DATA and so gets the class its
    tiling registers, SwiGluTilingData (`activation/swi_glu/op_host/swi_glu_tiling.h:76`, linked
    as DEPENDENCIES swi_glu), not the `GluBaseTilingData` of the op_host regbase tiling, which
    only the 950 kernel includes (`op_kernel/arch35/swi_glu_grad_regbase_tiling.h:17`). Outside
    the tolerance in every dtype for the reference's order, as on the 950: f16 n = 2048 index
    813 (the 950's case): exact 1.7505e-05, kernel 1.7524e-05 (the f16 value nearest it),
    reference 2.5690e-05; the first eight f16 differences of that run are the exact value
    rounded, the reference 1 ulp off; NaN misplaced where g * b overflows T in the reference
    (index 214: g = -8960, b = -29.2, exact -0, reference NaN). The f32 kernel is within 1 ulp
    of the exact value at its first eight differences (products in its own order,
    `op_kernel/swi_glu_grad_float.hpp:69-104`) but multiplies b in before g, so a subnormal b
    underflows (n = 4096 index 1031: b = 1.4e-45, g = 2.8e26, exact 2.7e-20, kernel 0).
- **experimental relu_v2 and silu_mul on Atlas A2/A3.** relu_v2's CMakeLists.txt builds the
  A2/A3 tiling from `op_host/ascend910b/` (SUPPORT_COMPUTE_UNIT and SUPPORT_TILING_DIR, which
  the checker now follows, hswc/checker/op_folder.py `tiling_dirs`): bit-exact (y; it has no
  mask output). SiluMul's tiling takes 2 dims or more, the last even and at most 1024
  (`op_host/silu_mul_tiling.cpp:99-125`): its generic runs on [rows, L] (sweep.py
  ROWS_GENERIC_FOLDERS), within PyTorch's tolerance in every dtype (max 2 ulp).
- **softmax_grad on Ascend 950: the checker swapped its inputs, not the kernel (issue 36).** At
  n = 130 every wrong value was grad_output * (output - s) for output * (grad_output - s).
  SoftmaxGrad's definition names its inputs (softmax, grad_softmax)
  (`op_host/softmax_grad_def.cpp:23`, `:28`) and its l0op launches it so, `OP_INPUT(output,
  gradOutput)` (`op_api/softmax_grad.cpp:28`); the checker fed hsg.softmax_grad's order
  (grad_output, output). It now matches the gradient by name (hswc/checker/op_dir.py,
  `OpDir.kernel_inputs`: grad_softmax takes grad_output), and the kernel's x0 * x1 - x0 * s
  (`op_kernel/arch35/softmax_grad_ar_small_r.h:184-185`, `softmax_grad_ar_full_load.h:178-179`:
  Neg, then MulAddDst; `README.md:22`'s formula) is the op. The f32 runs that "passed" before
  checked nothing: every row of 4 or more of the checker's f32 draw holds a NaN or an inf * 0,
  so every result is NaN (n = 12, 1024, 20480, 65536). Swept again, both folders stay outside the
  tolerance, only at inputs no softmax gives:
  - softmax_grad f16 4 of 11 runs (no value outside rtol/atol, 4 inf/NaN misplaced), bf16 6 of
    11 (8756 inf/NaN misplaced), f32 11 of 20 (59 values, 5024 inf/NaN): where output is inf or
    near the largest float (f32 n = 642: output inf, grad 0.001: the kernel's inf - inf = NaN
    where output * (grad - s) is -inf), and where grad - s cancels in a row of outputs no softmax
    has (f32 n = 2056: grad 7.357e35 at output 1.000001, s 7.3645e35, outputs -4.6e6 and -4.2e29
    in the row: the README's x0 * x1 - x0 * s rounds x0 * x1 first, 487 ulp off -7.22e32);
  - log_softmax_grad as before (f32 12 of 20). Traced at f32 n = 1026 (rows of 2): grads 2.3e17
    and -0.001, outputs 249 and 1.8e-14: the f32 sum 2.3e17 absorbs -0.001, so y[1] = grad -
    exp(output) * sum is 0 (in PyTorch's f32 too) against the float64 model's -4064; n = 322,
    20482 and 64526 alike (a grad of 1e37 or 1e32 beside small ones in one row);
  - bench/check_row_grads_in_contract.py runs the same check with output a real softmax (its
    log for log_softmax_grad) of N(0, 3) rows and grads N(0, 1): every run that reaches its end
    is within the tolerance (softmax_grad 48 of 57 runs in f16, bf16 and f32, log_softmax_grad
    48 of 57; the other 9 stop at the 0-byte TBuf). With the checker's own grads (`--pool-grads`)
    values stay outside only where a row's grads cancel in f32 (softmax_grad f16 n = 64542: grad
    -29104 at output 1: the kernel's 0 against 1.9e-4, a term the f32 sum cannot hold).
  So neither kernel shows a bug; the 0-byte TBuf (above) still stops their rows of at most 128
  floats. That rule is asc-devkit's `ASCENDC_ASSERT`, which raises SIGABRT only in its CPU debug
  build (ASCENDC_CPU_DEBUG) and expands to nothing for the device
  (impl/basic_api/kernel_log.h:29-73): the NPU does not refuse len 0, it makes a 0-byte TBuf.
- **softmax_grad_ext runs on Ascend 950 (issue 36): outside only at inputs outside its contract;
  a copy past its buffer.** The CPU model now has the device compiler's scalar bit builtins its
  kernel calls (`clz`, `bcnt1`: `op_kernel/arch35/softmax_grad_ext_base.h:86`, `:93`;
  CountLeadingZero.md, GetBitCount.md, asc_clz.md, asc_popc.md), Ascend 950's `Duplicate(dst,
  src, count)` of src[0] (`softmax_grad_ext_ar_full_load.h:496`; Duplicate.md:68, :100) and the
  unqualified `Reduce<ReduceType::SUM>` and `Move` (`softmax_grad_ext_base.h:123`, `:144`) that
  the device compiler finds by argument-dependent lookup. Swept: f16 6 of 18 runs outside (no
  value outside rtol/atol, 8 inf/NaN misplaced), bf16 8 of 18 (4699 inf/NaN), f32 7 of 14 (14
  values, 899 inf/NaN): x1, a softmax, drawn as inf or 3.4e38 (f32 n = 1026: the kernel's NaN
  where the float64 model has +-inf). A direct check (its default sizes, past the sweep's 65536)
  finds a rule broken at f32 n = 65538 and 131080 (32769 rows of 2, 16385 of 8): the small-row
  copy-in pads the R loop, `loopRpSize[0] = aAligned - curTileALen`
  (`op_kernel/arch35/softmax_grad_ext_ar_small_r.h:418`), whose dst stride is aAligned (`:414`),
  so NDDMA writes (2 + 15) rows of 528 elements (a loop's dst size is (lp + loopSize + rp - 1) *
  loopDstStride: the NDDMA DataCopy page, line 128) into its queue's buffer of ubFactor *
  rAligned = 752 * 8 floats (`:113`, `:121`): "dst needs 35844 bytes but the LocalTensor has
  24064". Padding the A loop instead would be loopRpSize[1].
"""
"""The findings written from the op folders' sources (issue 37): appended after the table."""


def markdown(rows: list[Row], rules: list[SyncRule], ops_nn: Path, ops_nn_commit: str,
             opbase_commit: str) -> str:
    from hswc.checker.sweep import verdict_kind

    rows = [(k, s, d, _default_build(v)) for k, s, d, v in rows]
    counts = Counter(verdict_kind(v) for *_, v in rows)
    lines = [
        "# hswc-check-kernel on ops-nn's activation kernels",
        "",
        f"ops-nn commit `{ops_nn_commit}`, opbase commit `{opbase_commit}`. Produced by "
        "`bench/check_kernel_ops_nn.py`; each kernel checked from its op folder alone "
        "(`hswc-check-kernel --sweep`: the op's own tiling, --record-rules, NaN x left out "
        "for the piecewise-linear family as FAMILY.md says). The family is compared bit for "
        "bit; the exponential activations within PyTorch's tolerance of the exact function.",
        "",
        "Rows by verdict (a row is a kernel, SoC and dtype; one can be differing and rule "
        "broken at once, counted by the first): "
        + ", ".join(f"{k} {n}" for k, n in sorted(counts.items())) + ".",
        "",
        "| kernel | hsg op | SoC | dtype | verdict | --auto-sync off |",
        "|---|---|---|---|---|---|",
    ]
    lines += [f"| {k} | {_maps_to(ops_nn, k)} | {s} | {d} | {v.replace('|', '/')} | "
              f"{_unordered(rules, k, s, d)} |" for k, s, d, v in rows]
    return "\n".join(lines) + "\n" + FINDINGS + _sync_section(rules)


def _sync_section(rules: list[SyncRule]) -> str:
    """The synchronisation rules broken, by kernel and SoC, each with both calls' lines."""
    lines = ["", "## Synchronisation rules broken", "",
             "Each kernel's runs under `--auto-sync off` (the kernel as built with "
             "`--cce-auto-sync=off`), each rule once per kernel and SoC with the dtypes that "
             "broke it; files are named from the op folder (`opbase/`: opbase's headers). An "
             "event id reused in flight breaks a rule under any build; vector calls unordered "
             "only where the compiler's automatic synchronisation is off, on Atlas A2/A3 "
             "(ops-nn builds every A2/A3 kernel with it on: its CMake sets AUTO_SYNC false "
             "only for some ascend950 kernels).", ""]
    if not rules:
        return "\n".join([*lines, "None.", ""])
    by_kernel: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for k, s, d, r in rules:
        by_kernel.setdefault((k, s), []).append((d, r))
    for (k, s), found in by_kernel.items():
        lines.append(f"- **{k}** on {s}:")
        lines += [f"  - [{d}] {r.replace('|', '/')}" for d, r in found]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("ops_nn", type=Path)
    p.add_argument("--out", type=Path, default=ROOT / "bench" / "check_kernel_ops_nn.md")
    p.add_argument("--max-size", type=int, default=1 << 16)
    p.add_argument("--table", action="append", default=[],
                   help="a sweep's printed table: FILE (a sweep of OPS_NN itself) or PART=FILE "
                        "(a sweep of OPS_NN/PART); repeat for several")
    p.add_argument("--progress", action="append", default=[],
                   help="the progress lines (stderr) of a sweep from before hswc.progress, "
                        "FILE or PART=FILE, for a sweep stopped before its table")
    p.add_argument("--folders", help="comma-separated op folders (activation/glu,...) to sweep "
                                     "again, their rows replacing theirs in --out")
    p.add_argument("--soc", help="with --folders: sweep them on this SoC only, their rows on "
                                 "the other SoCs kept")
    p.add_argument("--commit", help="ops-nn's commit (default: git rev-parse in OPS_NN)")
    p.add_argument("--opbase-commit", help="opbase's commit (default: git rev-parse there)")
    args = p.parse_args(argv)
    if args.soc and not args.folders:
        p.error("--soc needs --folders (a whole sweep covers every SoC)")
    from hswc.checker.op_folder import opbase_root

    if args.table or args.progress:
        rows, rules = [], []
        for items, read in ((args.table, _rows_from_table), (args.progress, _rows_from_progress)):
            for item in items:
                part, _, file = item.rpartition("=")
                text = Path(file).read_text()
                rows += [(f"{part}/{k}" if part else k, s, d, v) for k, s, d, v in read(text)]
                rules += [(f"{part}/{k}" if part else k, s, d, r)
                          for k, s, d, r in (_sync_from_table(text) if items is args.table
                                             else ())]
    elif args.folders:
        names = [n.strip().strip("/") for n in args.folders.split(",") if n.strip()]
        rows, rules = _merged(args.out, names,
                              *_sweep_folders(args.ops_nn, names, args.max_size, args.soc),
                              args.soc)
    else:
        rows, rules = _sweep(args.ops_nn, args.max_size)
    rows, rules = _relative_rows(rows, rules, (args.ops_nn,))
    opbase = opbase_root(args.ops_nn.resolve())
    if opbase is not None:
        rules = [(k, s, d, r.replace(f"{opbase}/", "opbase/")) for k, s, d, r in rules]
    text = markdown(rows, rules, args.ops_nn, _commit(args.ops_nn, args.commit),
                    _commit(opbase, args.opbase_commit))
    args.out.write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
