// A user's elementwise linalg.generic through each pass of --lower-to-ascend: its body becomes
// the kernel's Compute, call for call, and its UB plan comes from its own buffers. The reference
// schedule (variant=reference) first; then the default, the schedule the cost model chose.
// RUN: hswc-opt %s -p 'hsg-decompose,hsg-tile-on-cores{variant=reference}' | filecheck %s --check-prefix=TILE
// RUN: hswc-opt %s -p 'hsg-tile-on-cores{kernel-name=my_op}' | filecheck %s --check-prefix=NAMED
// RUN: hswc-opt %s -p 'hsg-tile-on-cores{variant=reference},hsg-block-into-ub' | filecheck %s --check-prefix=BLOCK
// RUN: hswc-opt %s --lower-to-ascend -p 'hsg-tile-on-cores{variant=reference},convert-hsg-to-ascend{variant=reference}' | filecheck %s --check-prefix=ASCEND
// RUN: hswc-opt %s --lower-to-ascend -p 'hsg-tile-on-cores{variant=reference},convert-hsg-to-ascend{variant=reference}' -t ascendc | filecheck %s --check-prefix=CPP
// RUN: hswc-opt %s --lower-to-ascend | filecheck %s --check-prefix=DEFAULT

// y = max(a * b, 0) - a in f32, on a dynamic shape.
func.func @scaled_relu(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a, %b : tensor<?xf32>, tensor<?xf32>) outs(%a : tensor<?xf32>) {
  ^bb0(%ea: f32, %eb: f32, %o: f32):
    %prod = arith.mulf %ea, %eb : f32
    %zero = arith.constant 0.0 : f32
    %relu = arith.maximumf %prod, %zero : f32
    %diff = arith.subf %relu, %ea : f32
    linalg.yield %diff : f32
  } -> tensor<?xf32>
  func.return %y : tensor<?xf32>
}
// The kernel is named after the function (or kernel-name), its arguments after the operands;
// the tiling divides by the buffers' own 16 bytes per element (three queues and one f32 TBuf),
// with no reserve: there is no Select and no mask.
// TILE-LABEL: func.func @scaled_relu(
// TILE-SAME:      %[[A:.*]]: tensor<?xf32>, %[[B:.*]]: tensor<?xf32>) -> tensor<?xf32> {
// TILE-NEXT:    %[[N:.*]] = hsg.num_elements %[[A]] : tensor<?xf32>
// TILE:         func.call @scaled_relu_tiling_f32(%[[N]],
// TILE-NEXT:    %[[Y:.*]] = hsg.launch @scaled_relu_kernel_f32 blocks %{{.*}} (%[[A]], %[[B]]) tiling(
// TILE-NEXT:    func.return %[[Y]] : tensor<?xf32>
// TILE-LABEL: func.func @scaled_relu_tiling_f32(
// TILE-SAME:      attributes {hsg.tiling, hsg.ub_plan = {bytes_per_element = 16 : i64, ub_reserve = 0 : i64, align_elements = 64 : i64}} {
// TILE-LABEL: func.func @scaled_relu_kernel_f32(
// TILE-SAME:      %[[KA:.*]]: memref<?xf32>, %[[KB:.*]]: memref<?xf32>, %[[KY:.*]]: memref<?xf32>, %{{.*}}: index, %{{.*}}: index, %[[UF:.*]]: index) attributes {hsg.kernel, hsg.ub_plan =
// TILE:         hsg.elementwise_slice ins(%[[KA]], %[[KB]] : memref<?xf32>, memref<?xf32>) outs(%[[KY]] : memref<?xf32>) [%{{.*}}, %{{.*}}] ub_factor %[[UF]] {
// TILE-NEXT:    ^{{.*}}(%[[EA:.*]]: f32, %[[EB:.*]]: f32):
// TILE-NEXT:      %[[P:.*]] = arith.mulf %[[EA]], %[[EB]] : f32
// TILE-NEXT:      %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// TILE-NEXT:      %[[R:.*]] = arith.maximumf %[[P]], %[[Z]] : f32
// TILE-NEXT:      %[[D:.*]] = arith.subf %[[R]], %[[EA]] : f32
// TILE-NEXT:      linalg.yield %[[D]] : f32
// TILE-NEXT:    }
// NAMED:       hsg.launch @my_op_kernel_f32
// NAMED:       func.func @my_op_tiling_f32(
// NAMED:       func.func @my_op_kernel_f32(
// BLOCK-LABEL: func.func @scaled_relu_kernel_f32(
// BLOCK:         scf.for
// BLOCK:           hsg.elementwise_chunk ins(%{{.*}}, %{{.*}} : memref<?xf32>, memref<?xf32>) outs(%{{.*}} : memref<?xf32>) slice [
// BLOCK:             arith.maximumf
// Mul into a temporary, Maxs with the constant as its scalar (in place), then Sub straight into
// y; a barrier between dependent steps, and before the Mul, whose temporary the previous
// chunk's Sub reads; both inputs read through their f32 views.
// ASCEND-LABEL: func.func @scaled_relu_kernel_f32(
// ASCEND:         %[[QA:.*]] = ascend.tque : !ascend.tque<vecin, 1>
// ASCEND-NEXT:    %[[QB:.*]] = ascend.tque : !ascend.tque<vecin, 1>
// ASCEND-NEXT:    %[[QY:.*]] = ascend.tque : !ascend.tque<vecout, 1>
// ASCEND-NEXT:    %[[PB:.*]] = ascend.tbuf : !ascend.tbuf<veccalc>
// ASCEND-NOT:     ascend.tbuf :
// ASCEND:         scf.for
// ASCEND:           %[[AV:.*]] = ascend.reinterpret_cast %{{.*}} : !ascend.local_tensor<f32, vecin> -> !ascend.local_tensor<f32, vecin>
// ASCEND-NEXT:      %[[BV:.*]] = ascend.reinterpret_cast %{{.*}} : !ascend.local_tensor<f32, vecin> -> !ascend.local_tensor<f32, vecin>
// ASCEND-NEXT:      ascend.pipe_barrier pipe_v
// ASCEND-NEXT:      %[[P:.*]] = ascend.tbuf_get %[[PB]] : !ascend.tbuf<veccalc> -> !ascend.local_tensor<f32, veccalc>
// ASCEND:           %[[N:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// ASCEND-NEXT:      ascend.mul %[[P]], %[[AV]], %[[BV]], %[[N]] :
// ASCEND-NEXT:      ascend.pipe_barrier pipe_v
// ASCEND-NEXT:      ascend.maxs %[[P]], %[[P]], 0.000000e+00 : f32, %[[N]] :
// ASCEND-NEXT:      ascend.pipe_barrier pipe_v
// ASCEND-NEXT:      %[[YV:.*]] = ascend.reinterpret_cast %{{.*}} : !ascend.local_tensor<f32, vecout> -> !ascend.local_tensor<f32, vecout>
// ASCEND-NEXT:      ascend.sub %[[YV]], %[[P]], %[[AV]], %[[N]] :
// ASCEND-NEXT:      ascend.enque %[[QY]]
// CPP:         struct ScaledReluTilingData {
// CPP:         class ScaledRelu<float> {
// CPP:         AscendC::Mul(prodLocal, aFp32, bFp32, computeNum);
// CPP-NEXT:    AscendC::PipeBarrier<PIPE_V>();
// CPP-NEXT:    AscendC::Maxs(prodLocal, prodLocal, 0.0f, computeNum);
// CPP-NEXT:    AscendC::PipeBarrier<PIPE_V>();
// CPP-NEXT:    AscendC::LocalTensor<float> yFp32 = yLocal.ReinterpretCast<float>();
// CPP-NEXT:    AscendC::Sub(yFp32, prodLocal, aFp32, computeNum);
// CPP:         template <uint32_t schMode>
// CPP-NEXT:    __global__ __aicore__ void scaled_relu(GM_ADDR a, GM_ADDR b, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
// The default: depth-2 queues (3 x 2 x 4 bytes) and the one f32 temporary, 28 bytes per
// element, chosen by the cost model for the default SoC and recorded on the kernel; each input
// freed right after its last use (b after Mul, a after Sub) and y taken when first written;
// a and b, read once, bypass L2 (SetL2CacheHint, taken as it models faster at 2^24), y keeps it;
// b, y and prod start in the other half of a bank-group span than the buffer before them
// (bank-offsets: a gap TBuf before each, the three gaps' 1536 bytes reserved by the tiling).
// DEFAULT-LABEL: func.func @scaled_relu_tiling_f32(
// DEFAULT-SAME:      hsg.ub_plan = {bytes_per_element = 28 : i64, ub_reserve = 0 : i64, align_elements = 64 : i64, bank_gaps = 3 : i64}
// DEFAULT-LABEL: func.func @scaled_relu_kernel_f32(
// DEFAULT-SAME:      hsg.schedule = {options = "double-buffer=true scalar-compare=true early-free=true x-first=true l2-bypass=true bank-offsets=true", soc = "ascend910b", platform = "default (known at run time)", elements = 1048576 : i64}
// DEFAULT:         %[[GA:.*]] = ascend.set_global_buffer
// DEFAULT-NEXT:    ascend.set_l2_cache_hint %[[GA]], "disable"
// DEFAULT-NEXT:    %[[GB:.*]] = ascend.set_global_buffer
// DEFAULT-NEXT:    ascend.set_l2_cache_hint %[[GB]], "disable"
// DEFAULT-NEXT:    ascend.set_global_buffer
// DEFAULT-NOT:     ascend.set_l2_cache_hint
// DEFAULT:         %[[QA:.*]] = ascend.tque : !ascend.tque<vecin, 2>
// DEFAULT-NEXT:    %[[QB:.*]] = ascend.tque : !ascend.tque<vecin, 2>
// DEFAULT-NEXT:    %[[QY:.*]] = ascend.tque : !ascend.tque<vecout, 2>
// DEFAULT-NEXT:    ascend.tbuf : !ascend.tbuf<veccalc>
// DEFAULT-COUNT-3: %bank_gap{{[0-9]}} = ascend.tbuf : !ascend.tbuf<veccalc>
// DEFAULT-NOT:     ascend.tbuf :
// DEFAULT:         scf.for
// DEFAULT:           ascend.mul
// DEFAULT-NEXT:      ascend.free_tensor %[[QB]]
// DEFAULT:           ascend.maxs
// DEFAULT:           %[[Y:.*]] = ascend.alloc_tensor %[[QY]]
// DEFAULT:           ascend.sub
// DEFAULT-NEXT:      ascend.enque %[[QY]], %[[Y]]
// DEFAULT-NEXT:      ascend.free_tensor %[[QA]]
