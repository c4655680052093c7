"""hswc-check-kernel's per-channel inputs (hswc.checker.channels): x of [N, C, L] and PReLU's
weight of C elements, laid out as the op's tiling reads it, given to the tiling as those shapes
and to the reference spread over x by NumPy's broadcasting; the sweep maps ops-nn's PReLU
folders to the generic PReLU with them. Hand-checked shapes and values."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from hswc.checker import channels, host_tiling
from hswc.checker.errors import CheckError
from hswc.checker.expected import Reference
from hswc.checker.op_folder import Folder
from hswc.checker.opsnn_generics import argument, module_text
from hswc.checker.options import CheckOptions, reference
from hswc.checker.sweep import CHANNEL_FOLDERS, folder_options, mapping


@pytest.mark.parametrize(("n", "dims"), [
    (1, (1, 1, 1)), (7, (7, 1, 1)), (16, (1, 16, 1)), (3 * 5, (5, 3, 1)), (1 << 16, (64, 16, 64)),
    (2 * 3 * 7, (7, 3, 2)), (48, (3, 16, 1)), (16 * 64 * 3, (3, 16, 64))])
def test_a_size_is_batch_channels_and_inner(n: int, dims: tuple[int, int, int]) -> None:
    assert channels.dims(n) == dims
    batch, c, inner = dims
    assert batch * c * inner == n
    assert channels.shape("channel_x", n) == dims
    assert channels.shape("channel", n) == (c,)
    assert channels.shape("channel_nd", n) == (1, c, 1)


def _reference(tmp_path: Path, kind: str = "channel") -> Reference:
    path = tmp_path / "prelu.mlir"
    path.write_text(module_text("prelu"))
    return reference(CheckOptions(kernel="k.cpp", reference=str(path),
                                  channels={argument("weight"): kind}))


def test_the_reference_reads_the_weight_of_each_elements_channel(tmp_path: Path) -> None:
    ref = _reference(tmp_path)
    assert ref.channels is not None and ref.input_names == ("x_in", "weight_in")
    n = 12  # [1, 3, 4]: C = 3 (16 does not divide 12), L = 4
    drawn = [-np.arange(1, n + 1, dtype=np.float32), np.arange(n, dtype=np.float32) + 1]
    x, w = ref.channels.sized(ref.input_names, drawn, n)
    assert w.tolist() == [1.0, 2.0, 3.0]
    (y,) = ref.outputs("f32", [x, w])
    # element i of [1, 3, 4] is in channel i // 4: x * weight[c]
    assert y.tolist() == [-1, -2, -3, -4, -10, -12, -14, -16, -27, -30, -33, -36]
    x[0] = 5.0
    assert ref.outputs("f32", [x, w])[0][0] == 5.0
    assert ref.channels.aligned(ref.input_names, [x, w], n)[1].tolist() == \
        [1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]


def test_the_tiling_is_given_each_tensor_its_own_shape(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The harness command of a per-channel check: x and y [N, C, L], the weight its kind's."""
    op = host_tiling.OpDefinition("PRelu", [("x", (1,)), ("weight", (1,))], [("y", (1,))])
    folder = Folder(tmp_path, "ascend950", (), (), ())
    tiling = host_tiling.HostTiling(
        tmp_path / "op_tiling", op, folder, [], {}, None, "ascend950",
        kinds={("input", 0): "channel_x", ("input", 1): "channel_nd",
               ("output", 0): "channel_x"})
    seen: list[list[str]] = []

    def record(command: list[str], where: str) -> None:
        seen.append(command)
        raise CheckError(where)

    monkeypatch.setattr(host_tiling, "_run_step", record)
    with pytest.raises(CheckError):
        tiling.launch(48, "f16", 64, 253952)
    tensors = [seen[0][i + 1] for i, a in enumerate(seen[0]) if a in ("--input", "--output")]
    assert tensors == ["1:3x16x1", "1:1x16x1", "1:3x16x1"]


def test_the_sweep_maps_the_prelu_folders_with_their_weights_layout(tmp_path: Path) -> None:
    for name, kind in (("p_relu", "channel_nd"), ("prelu", "channel")):
        folder = tmp_path / name
        assert mapping(folder) is not None and mapping(folder)[0] == "generic prelu"
        o = folder_options(folder, CheckOptions(kernel=""), "ascend910b", "generic prelu", {},
                           tmp_path)
        assert o.channels == {"weight_in": kind} == {argument(n): k for n, k in
                                                     CHANNEL_FOLDERS[name].items()}


def test_what_a_per_channel_check_refuses(tmp_path: Path) -> None:
    with pytest.raises(CheckError, match="a per-channel weight is given to a --reference"):
        reference(CheckOptions(kernel="k.cpp", op="hsg.relu", channels={"x": "channel"}))
    path = tmp_path / "prelu.mlir"
    path.write_text(module_text("prelu"))
    with pytest.raises(CheckError, match="takes no input w "):
        reference(CheckOptions(kernel="k.cpp", reference=str(path), channels={"w": "channel"}))


def test_prelu_grad_update_is_one_generic_of_two_results_per_channel(tmp_path: Path) -> None:
    """activation/p_relu_grad_update: dx and update from one generic, its 1-d weights of C spread
    over features of [N, C, L]. Hand-checked: n = 12 is [1, 3, 4]."""
    folder = tmp_path / "p_relu_grad_update"
    found = mapping(folder)
    assert found is not None and found[0] == "generic prelu_grad_update"
    o = folder_options(folder, CheckOptions(kernel=""), "ascend950", found[0], {}, tmp_path)
    assert o.channels == {"weights_in": "channel"}
    ref = reference(o)
    assert ref.result_count == 2 and ref.input_names == ("grads_in", "features_in", "weights_in")
    assert ref.channels is not None
    n = 12
    grads = np.full(n, 2.0, dtype=np.float32)
    features = np.array([1, -1, 0, 3, -2, 5, -0.5, 0, -4, 1, -1, 2], dtype=np.float32)
    g, x, w = ref.channels.sized(ref.input_names, [grads, features,
                                                   np.arange(n, dtype=np.float32) + 10], n)
    assert w.tolist() == [10.0, 11.0, 12.0]
    dx, update = ref.outputs("f32", [g, x, w])
    # channel c = i // 4: x > 0 takes grads (2), else weights[c] * 2; update x * 2 or 0
    assert dx.tolist() == [2, 20, 20, 2, 22, 2, 22, 22, 24, 2, 24, 2]
    assert update.tolist() == [0, -2, 0, 0, -4, 0, -1, 0, -8, 0, -2, 0]
