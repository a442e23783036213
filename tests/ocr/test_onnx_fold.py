"""The graph rewrites of docparse.ocr.onnx_fold keep the function and remove the nodes."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from docparse.ocr.onnx_fold import fold  # noqa: E402


def _const(name: str, value: Any) -> Any:
    return helper.make_node(
        "Constant", [], [name], value=numpy_helper.from_array(np.asarray(value, np.float32), name)
    )


def _affine(x: str, s: float, b: float, tag: str) -> tuple[list[Any], str]:
    """``x * s + b`` as PP-OCRv4's export writes it (scalar first in the Mul)."""
    nodes = [
        _const(f"{tag}_s", s),
        _const(f"{tag}_b", b),
        helper.make_node("Mul", [f"{tag}_s", x], [f"{tag}_m"]),
        helper.make_node("Add", [f"{tag}_m", f"{tag}_b"], [f"{tag}_y"]),
    ]
    return nodes, f"{tag}_y"


def _hardswish(x: str, tag: str) -> tuple[list[Any], str]:
    nodes = [
        _const(f"{tag}_3", 3.0),
        _const(f"{tag}_0", 0.0),
        _const(f"{tag}_6", 6.0),
        helper.make_node("Add", [x, f"{tag}_3"], [f"{tag}_a"]),
        helper.make_node("Clip", [f"{tag}_a", f"{tag}_0", f"{tag}_6"], [f"{tag}_c"]),
        helper.make_node("Mul", [x, f"{tag}_c"], [f"{tag}_m"]),
        helper.make_node("Div", [f"{tag}_m", f"{tag}_6"], [f"{tag}_y"]),
    ]
    return nodes, f"{tag}_y"


def _model() -> bytes:
    """conv3x3 -> affine -> hardswish -> affine -> conv1x1 -> affine -> hardswish
    -> affine -> padded depthwise conv3x3, the PPLCNetV3 block shape."""
    rng = np.random.default_rng(0)
    nodes: list[Any] = []
    inits = [
        numpy_helper.from_array(rng.normal(size=(4, 3, 3, 3)).astype(np.float32), "w1"),
        numpy_helper.from_array(rng.normal(size=(4,)).astype(np.float32), "b1"),
        numpy_helper.from_array(rng.normal(size=(6, 4, 1, 1)).astype(np.float32), "w2"),
        numpy_helper.from_array(rng.normal(size=(6,)).astype(np.float32), "b2"),
        numpy_helper.from_array(rng.normal(size=(6, 1, 3, 3)).astype(np.float32), "w3"),
    ]
    nodes.append(helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]))
    x = "c1"
    for i, (conv_w, conv_b, extra) in enumerate(
        [("w2", "b2", {}), ("w3", None, {"pads": [1, 1, 1, 1], "group": 6})]
    ):
        part, x = _affine(x, 1.3 + i, 0.4 - i, f"a{i}")
        nodes += part
        part, x = _hardswish(x, f"h{i}")
        nodes += part
        part, x = _affine(x, 0.7 + i, -0.2 + i, f"l{i}")
        nodes += part
        inputs = [x, conv_w] + ([conv_b] if conv_b else [])
        nodes.append(helper.make_node("Conv", inputs, [f"c{i + 2}"], **extra))
        x = f"c{i + 2}"
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 9, 11])],
        [helper.make_tensor_value_info(x, TensorProto.FLOAT, None)],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 12)])
    model.ir_version = 8
    return bytes(model.SerializeToString())


def _run(data: bytes, x: Any) -> Any:
    session = ort.InferenceSession(data, providers=["CPUExecutionProvider"])
    return session.run(None, {session.get_inputs()[0].name: x})[0]


def test_fold_keeps_the_function_and_drops_the_elementwise_nodes() -> None:
    data = _model()
    new = fold(data)
    x = np.random.default_rng(1).normal(scale=3.0, size=(1, 3, 9, 11)).astype(np.float32)
    np.testing.assert_allclose(_run(new, x), _run(data, x), rtol=1e-4, atol=1e-4)
    before = Counter(n.op_type for n in onnx.load_from_string(data).graph.node)
    after = Counter(n.op_type for n in onnx.load_from_string(new).graph.node)
    assert after["Conv"] == before["Conv"] == 3
    assert after["Clip"] == after["Div"] == 0
    assert after["HardSigmoid"] == 2
    # Each hard-swish keeps one Mul; the padded conv keeps one Add (its input shift).
    assert after["Mul"] == 2 and after["Add"] == 1


def test_fold_leaves_a_graph_without_the_patterns_alone() -> None:
    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])],
    )
    data = bytes(helper.make_model(graph).SerializeToString())
    assert fold(data) == data


def test_fold_of_the_shipped_recogniser_reads_the_same() -> None:
    rapid = pytest.importorskip("rapidocr_onnxruntime")
    path = Path(rapid.__file__).parent / "models" / "ch_PP-OCRv4_rec_infer.onnx"
    if not path.exists():
        pytest.skip("rapidocr's recognition model is not where 1.4 keeps it")
    data = path.read_bytes()
    x = np.random.default_rng(2).random((1, 3, 48, 200)).astype(np.float32)
    a, b = _run(data, x), _run(fold(data), x)
    assert (a.argmax(-1) == b.argmax(-1)).all()
    np.testing.assert_allclose(a, b, atol=1e-4)
