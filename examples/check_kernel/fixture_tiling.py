"""The host tiling of the checker's fixture kernels (elementwise_kernel.h), for
hswc-check-kernel --tiling-function: CANN's split (blockFactor = CeilDiv(total, cores), as many
cores as that needs) and a chunk that fills the UB: per element, two buffers of each queue
(INPUTS + 1 queues of the dtype) and three f32 scratch slots, a multiple of 128."""

SIZES = {"f16": 2, "bf16": 2, "f32": 4}
SLOTS = 3
MASK_RESERVE = 1024


def tiling(total: int, core_num: int, ub_size: int, dtype: str, inputs: int) -> dict[str, int]:
    block_factor = -(-total // core_num)
    per_element = 2 * (inputs + 1) * SIZES[dtype] + 4 * SLOTS
    ub_factor = (ub_size - MASK_RESERVE) // per_element // 128 * 128
    return {"totalNum": total, "blockFactor": block_factor, "ubFactor": ub_factor,
            "block_dim": -(-total // block_factor)}


def one_input(total: int, core_num: int, ub_size: int, dtype: str) -> dict[str, int]:
    return tiling(total, core_num, ub_size, dtype, 1)


def two_inputs(total: int, core_num: int, ub_size: int, dtype: str) -> dict[str, int]:
    return tiling(total, core_num, ub_size, dtype, 2)
