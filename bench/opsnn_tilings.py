"""Host tilings of ops-nn's experimental activation kernels, written by hand in Python for
hswc-check-kernel's --tiling-function (the kernels themselves are fetched, never committed).

Each is `tiling(total, core_num, ub_size, dtype)` returning the kernel's tiling fields, its
`block_dim` and `tiling_key`, worked out from the op's op_host tiling source.
"""

from __future__ import annotations

BLOCK = 32
ELEMENT_BYTES = {"f16": 2, "bf16": 2, "f32": 4}


def _split(total: int, core_num: int, dtype: str, buffers_per_element: int, buffer_num: int,
           ub_size: int) -> dict[str, int]:
    """Tiles of the UB divided by buffer_num and the kernel's buffers per element."""
    tile_blocks = (ub_size // buffer_num // BLOCK) // buffers_per_element
    return _split_blocks(total, core_num, dtype, tile_blocks)


def _split_blocks(total: int, core_num: int, dtype: str, tile_blocks: int) -> dict[str, int]:
    """The small-core / big-core split of ops-nn's experimental elementwise tilings: 32-byte
    blocks spread over the cores, the first `tailBlockNum` cores one block more, each core's
    blocks in tiles of `tile_blocks` blocks."""
    size = ELEMENT_BYTES[dtype]
    aligned = (total * size + BLOCK - 1) // BLOCK * BLOCK
    tile_data = tile_blocks * BLOCK // size
    blocks = aligned // BLOCK
    every, tail_block_num = blocks // core_num, blocks % core_num
    fields = {"tailBlockNum": tail_block_num, "tileDataNum": tile_data}
    for name, count in (("small", every), ("big", every + 1)):
        data = count * BLOCK // size
        tiles = count // tile_blocks
        fields[f"{name}CoreDataNum"] = data
        fields[f"final{name.capitalize()}TileNum"] = tiles + (count % tile_blocks != 0)
        tail = data - tile_data * tiles
        fields[f"{name}TailDataNum"] = tail or tile_data
    return fields


def sigmoid(total: int, core_num: int, ub_size: int, dtype: str) -> dict[str, int]:
    """experimental/activation/sigmoid (arch22): 1024 elements per core at least, 1024 bytes
    of UB reserved, 3 (f32) or 4 (f16, bf16) buffers per element, double-buffered (key 0)
    unless the whole input fits the cores' UB and is under 1024 per core (key 1)."""
    ub = ub_size - 1024
    cores = min(-(-total // 1024), core_num)
    per_element = 3 if dtype == "f32" else 4
    aligned = (total * ELEMENT_BYTES[dtype] + BLOCK - 1) // BLOCK * BLOCK
    single = aligned * per_element <= cores * ub and total < 1024 * cores
    buffer_num = 1 if single else 2
    fields = _split(total, cores, dtype, per_element, buffer_num, ub)
    return {**fields, "block_dim": cores, "tiling_key": 1 if single else 0,
            "template_args": "1" if single else "0"}


def _gelu_like(total: int, core_num: int, ub_size: int, dtype: str) -> dict[str, int]:
    """experimental gelu and mish: 1024 elements per core at least, 12 (f32) or 14 buffers per
    element of the whole UB, tiles of a multiple of 16 blocks, one template key (0)."""
    cores = 1 if total <= 1024 else min(total // 1024 + (total % 1024 > 0), core_num)
    per_element = 12 if dtype == "f32" else 14
    tile_blocks = (ub_size // BLOCK) // per_element
    tile_blocks = tile_blocks if tile_blocks <= 16 else tile_blocks // 16 * 16
    fields = _split_blocks(total, cores, dtype, tile_blocks)
    return {**fields, "block_dim": cores, "tiling_key": 0, "template_args": "0"}


gelu = _gelu_like
mish = _gelu_like


def tanh_grad(total: int, core_num: int, ub_size: int, dtype: str) -> dict[str, int]:
    """experimental/activation/tanh_grad: tiles of the whole UB over 2 x 3 buffers of the dtype
    (+ 2 f32 ones for f16 / bf16), whole 32-byte blocks; one core when a tile holds the input,
    else no more cores than blocks; one template key (0)."""
    size = ELEMENT_BYTES[dtype]
    per_element = 2 * 3 * size + (2 * 4 if size == 2 else 0)
    block_data = BLOCK // size
    tile_data = max(ub_size // per_element // block_data * block_data, block_data)
    tile_blocks = max(tile_data * size // BLOCK, 1)
    blocks = (total * size + BLOCK - 1) // BLOCK
    cores = 1 if tile_data >= total else min(core_num, blocks)
    fields = _split_blocks(total, cores, dtype, tile_blocks)
    fields["tileDataNum"] = tile_data
    for name in ("Small", "Big"):
        fields[f"final{name}TileNum"] = max(fields[f"final{name}TileNum"], 1)
    return {**fields, "block_dim": cores, "tiling_key": 0, "template_args": "0"}


def softplus(total: int, core_num: int, ub_size: int, dtype: str) -> dict[str, int]:
    """experimental/activation/softplus: bufferOpen 0 when the input fits the cores' UB at 3
    (f32) or 8 buffers per element, else 1; the tile divides the UB by 10 buffers per element
    for every dtype (the f16 / bf16 test's else-branch also runs for f32, as the source has it);
    one core when a tile holds the input, else no more cores than blocks; key 0."""
    size = ELEMENT_BYTES[dtype]
    aligned = (total * size + BLOCK - 1) // BLOCK * BLOCK
    whole = ub_size // BLOCK * BLOCK
    buffer_open = 0 if aligned < core_num * (whole // (3 if dtype == "f32" else 8)) else 1
    tile_blocks = (ub_size // BLOCK) // 10
    tile_data = tile_blocks * BLOCK // size
    cores = 1 if tile_data >= total else min(core_num, aligned // BLOCK)
    fields = _split_blocks(total, cores, dtype, tile_blocks)
    return {**fields, "bufferOpen": buffer_open, "block_dim": cores, "tiling_key": 0,
            "template_args": "0"}
