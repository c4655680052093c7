// A bf16 body's exact steps on Ascend 950 (hswc.vectorizer.narrow, hswc/api_tables.def): the
// compares and the select of HardShrink run on the bf16 values, with no f32 copy of x, since
// dav_3510's Compare and Select take bfloat16_t and round nothing. Atlas A2/A3 (the default
// table) widens x to f32 first, as before (the default schedule there compares with CompareScalar).
// RUN: hswc-opt %s -p 'hsg-decompose,hsg-tile-on-cores{soc=ascend950 variant=reference},hsg-block-into-ub,convert-hsg-to-ascend' | filecheck %s --check-prefix=A950
// RUN: hswc-opt %s -p 'hsg-decompose,hsg-tile-on-cores{api=dav_3510 variant=reference},hsg-block-into-ub,convert-hsg-to-ascend' | filecheck %s --check-prefix=A950
// The default schedule on Ascend 950 (chosen by the calibrated cost model: Compare against
// tensors duplicated once per core, not CompareScalar): bf16 too.
// RUN: hswc-opt %s -p 'hsg-decompose,hsg-tile-on-cores{soc=ascend950},hsg-block-into-ub,convert-hsg-to-ascend' | filecheck %s --check-prefix=A950-DEFAULT
// RUN: hswc-opt %s --lower-to-ascend | filecheck %s --check-prefix=A2
// The table is recorded on the kernel, so convert-hsg-to-ascend needs no option of its own:
// RUN: hswc-opt %s -p 'hsg-decompose,hsg-tile-on-cores{soc=ascend950}' | filecheck %s --check-prefix=RECORDED

func.func @hard_shrink_bf16(%x: tensor<?xbf16>) -> tensor<?xbf16> {
  %y = hsg.hard_shrink %x {lambd = 0.7 : f32} : tensor<?xbf16>
  func.return %y : tensor<?xbf16>
}

// RECORDED: func.func @hard_shrink_kernel_bf16({{.*}}hsg.api = "dav_3510"

// A950-LABEL: func.func @hard_shrink_kernel_bf16(
// A950-NOT:     ascend.cast
// A950:         ascend.compare %{{.*}}, %{{.*}}, %{{.*}}, ge, %{{.*}} : !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<bf16, vecin>, !ascend.local_tensor<bf16, veccalc>
// A950:         ascend.compare %{{.*}}, %{{.*}}, %{{.*}}, le, %{{.*}} : !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<bf16, vecin>, !ascend.local_tensor<bf16, veccalc>
// A950:         ascend.select {{.*}} : !ascend.local_tensor<bf16, vecout>, !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<bf16, veccalc>, !ascend.local_tensor<bf16, vecin>
// A950-NOT:     ascend.cast

// A2-LABEL: func.func @hard_shrink_kernel_bf16(
// A2:         ascend.cast %{{.*}}, %{{.*}}, cast_none, %{{.*}} : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<bf16, vecin>
// A2:         ascend.compare_scalar {{.*}} : f32, ge, {{.*}} : !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>
// A2:         ascend.cast %{{.*}}, %{{.*}}, cast_rint, %{{.*}} : !ascend.local_tensor<bf16, vecout>, !ascend.local_tensor<f32, veccalc>

// A950-DEFAULT-LABEL: func.func @hard_shrink_kernel_bf16(
// A950-DEFAULT-SAME:    hsg.schedule = {options = "double-buffer=true in-place=true early-free=true x-first=true l2-bypass=true api=dav_3510", soc = "ascend950", platform = "folded"
// A950-DEFAULT-NOT:     ascend.cast
// A950-DEFAULT:         ascend.duplicate %{{.*}}, %{{.*}} : bf16, %{{.*}} : !ascend.local_tensor<bf16, veccalc>
// A950-DEFAULT:         ascend.compare %{{.*}}, %{{.*}}, %{{.*}}, ge, %{{.*}} : !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<bf16, vecin>, !ascend.local_tensor<bf16, veccalc>
// A950-DEFAULT:         ascend.compare %{{.*}}, %{{.*}}, %{{.*}}, le, %{{.*}} : !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<bf16, vecin>, !ascend.local_tensor<bf16, veccalc>
// A950-DEFAULT:         ascend.select {{.*}} : !ascend.local_tensor<bf16, vecout>, !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<bf16, veccalc>, !ascend.local_tensor<bf16, vecin>
// A950-DEFAULT-NOT:     ascend.cast
