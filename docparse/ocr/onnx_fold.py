"""Exact rewrites of the PP-OCRv4 ONNX graphs that ONNX Runtime does not make itself.

The PP-OCRv4 models (PPLCNetV3 backbone) were exported from Paddle with every
activation spelled out in elementwise nodes: after each convolution a
"learnable affine block" (``Mul`` by a scalar, ``Add`` a scalar), a hard-swish
written as four nodes (``Add 3``, ``Clip 0..6``, ``Mul``, ``Div 6``) and a
second affine block. ONNX Runtime runs each node as its own pass over the
feature map and fuses none of them: in the recogniser they cost about 40% of
the CPU time, more than the convolutions' arithmetic. The rewrites below
produce the same function with fewer passes:

* ``Conv -> Mul(s) -> Add(b)`` becomes one ``Conv`` (weights times ``s``,
  bias ``s * bias + b``);
* the four hard-swish nodes become two, ``x * HardSigmoid(x)`` (``HardSwish``
  itself needs opset 14, where ``Squeeze`` of these opset-12 graphs changed);
* ``Mul(s) -> Add(b) -> Conv`` with an unpadded convolution becomes one
  ``Conv`` (weights times ``s``, bias plus ``b`` times the weights' sums); before a
  padded convolution only the ``Mul`` is folded (``Add(b / s)``, weights
  times ``s``): the zero padding would otherwise see ``b``.

Each is algebraically exact; only float rounding differs. The rewrite needs
the ``onnx`` package; without it :func:`fold` is not called and the models
run as shipped (slower, same results).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any


def available() -> bool:
    """Whether the ``onnx`` package needed for the rewrite is importable."""
    try:
        import onnx  # noqa: F401
    except ImportError:
        return False
    return True


class _Graph:
    """The nodes, constants and consumers of one ONNX graph, for local rewrites."""

    def __init__(self, model: Any) -> None:
        from onnx import numpy_helper

        self.model = model
        self.graph = model.graph
        self.const: dict[str, Any] = {}
        for init in self.graph.initializer:
            self.const[init.name] = numpy_helper.to_array(init)
        for node in self.graph.node:
            if node.op_type == "Constant" and node.attribute and node.attribute[0].name == "value":
                self.const[node.output[0]] = numpy_helper.to_array(node.attribute[0].t)
        self.outputs = {o.name for o in self.graph.output}
        self.dead: set[int] = set()
        self.counter = 0
        self._index()

    def _index(self) -> None:
        self.users: dict[str, list[Any]] = defaultdict(list)
        self.producer: dict[str, Any] = {}
        for node in self.graph.node:
            for name in node.input:
                self.users[name].append(node)
            for name in node.output:
                self.producer[name] = node

    def only_user(self, name: str, op: str) -> Any | None:
        """The one node reading ``name``, if it is an ``op`` and ``name`` is no graph output."""
        users = self.users.get(name, [])
        if len(users) != 1 or users[0].op_type != op or name in self.outputs:
            return None
        return users[0]

    def scalar(self, node: Any, other_than: str) -> float | None:
        """The scalar constant input of a binary ``node`` whose other input is ``other_than``."""
        if len(node.input) != 2 or other_than not in node.input:
            return None
        name = node.input[1] if node.input[0] == other_than else node.input[0]
        value = self.const.get(name)
        if value is None or value.size != 1:
            return None
        return float(value.reshape(()))

    def set_const(self, name: str, value: Any) -> str:
        """A new initializer holding ``value``; its name."""
        from onnx import numpy_helper

        self.counter += 1
        new = f"{name}__fold{self.counter}"
        self.graph.initializer.append(numpy_helper.from_array(value, new))
        self.const[new] = value
        return new

    def kill(self, *nodes: Any) -> None:
        self.dead.update(id(n) for n in nodes)

    def compact(self) -> None:
        keep = [n for n in self.graph.node if id(n) not in self.dead]
        del self.graph.node[:]
        self.graph.node.extend(keep)
        self.dead.clear()
        self._index()


def _conv_weights(g: _Graph, conv: Any) -> tuple[Any, Any] | None:
    """A ``Conv``'s weight and bias arrays (bias zeros when absent), or ``None``."""
    import numpy as np

    weight = g.const.get(conv.input[1])
    if weight is None:
        return None
    bias = g.const.get(conv.input[2]) if len(conv.input) > 2 else None
    if len(conv.input) > 2 and bias is None:
        return None
    if bias is None:
        bias = np.zeros(weight.shape[0], dtype=weight.dtype)
    return weight, bias


def _set_conv(g: _Graph, conv: Any, weight: Any, bias: Any) -> None:
    conv.input[1] = g.set_const(conv.input[1], weight)
    name = g.set_const(conv.name or "conv", bias)
    if len(conv.input) > 2:
        conv.input[2] = name
    else:
        conv.input.append(name)


def _attr(node: Any, name: str, default: Any) -> Any:
    from onnx import helper

    for a in node.attribute:
        if a.name == name:
            return helper.get_attribute_value(a)
    return default


def _fold_affine_after_conv(g: _Graph) -> int:
    """``Conv -> Mul(s) -> Add(b)``: one ``Conv``."""
    n = 0
    for conv in list(g.graph.node):
        if conv.op_type != "Conv" or id(conv) in g.dead:
            continue
        wb = _conv_weights(g, conv)
        mul = g.only_user(conv.output[0], "Mul")
        if wb is None or mul is None:
            continue
        s = g.scalar(mul, conv.output[0])
        add = g.only_user(mul.output[0], "Add")
        b = g.scalar(add, mul.output[0]) if add is not None else None
        if s is None or add is None or b is None:
            continue
        weight, bias = wb
        _set_conv(g, conv, (weight * s).astype(weight.dtype), (bias * s + b).astype(bias.dtype))
        conv.output[0] = add.output[0]
        g.kill(mul, add)
        n += 1
    g.compact()
    return n


def _fold_hardswish(g: _Graph) -> int:
    """``x * Clip(x + 3, 0, 6) / 6``: one ``HardSwish``."""
    from onnx import helper

    n = 0
    for add in list(g.graph.node):
        if add.op_type != "Add" or id(add) in g.dead:
            continue
        x = add.input[0] if add.input[1] in g.const else add.input[1]
        if g.scalar(add, x) != 3.0:
            continue
        clip = g.only_user(add.output[0], "Clip")
        if clip is None or len(clip.input) != 3:
            continue
        lo, hi = g.const.get(clip.input[1]), g.const.get(clip.input[2])
        if lo is None or hi is None or float(lo) != 0.0 or float(hi) != 6.0:
            continue
        mul = g.only_user(clip.output[0], "Mul")
        if mul is None or x not in mul.input:
            continue
        div = g.only_user(mul.output[0], "Div")
        if div is None or div.input[0] != mul.output[0] or g.scalar(div, mul.output[0]) != 6.0:
            continue
        name = div.output[0]
        sig = helper.make_node(
            "HardSigmoid", [x], [f"{name}__hsig"], name=f"{name}__hsig", alpha=1 / 6, beta=0.5
        )
        prod = helper.make_node("Mul", [x, f"{name}__hsig"], [name], name=f"{name}__hs")
        at = list(g.graph.node).index(div)
        g.kill(add, clip, mul, div)
        g.graph.node.insert(at, prod)
        g.graph.node.insert(at, sig)
        n += 1
    g.compact()
    return n


def _fold_affine_before_conv(g: _Graph) -> int:
    """``Mul(s) -> Add(b) -> Conv``: into the ``Conv`` (only ``s`` when it pads)."""
    import numpy as np

    n = 0
    for mul in list(g.graph.node):
        if mul.op_type != "Mul" or id(mul) in g.dead:
            continue
        x = mul.input[0] if mul.input[1] in g.const else mul.input[1]
        s = g.scalar(mul, x)
        add = g.only_user(mul.output[0], "Add")
        if s is None or s == 0.0 or add is None:
            continue
        b = g.scalar(add, mul.output[0])
        conv = g.only_user(add.output[0], "Conv")
        if b is None or conv is None or conv.input[0] != add.output[0]:
            continue
        wb = _conv_weights(g, conv)
        if wb is None:
            continue
        weight, bias = wb
        pads = _attr(conv, "pads", [0, 0, 0, 0])
        auto_pad = _attr(conv, "auto_pad", b"NOTSET")
        if any(pads) or auto_pad not in (b"NOTSET", "NOTSET", b"VALID", "VALID"):
            # Keep an Add of b / s before the Conv: conv(s*x + b) = conv_{sW}(x + b/s).
            shift = g.set_const("shift", np.array(b / s, dtype=weight.dtype))
            add.input[0], add.input[1] = x, shift
            _set_conv(g, conv, (weight * s).astype(weight.dtype), bias)
            g.kill(mul)
        else:
            shift = weight.reshape(weight.shape[0], -1).sum(axis=1) * b
            _set_conv(g, conv, (weight * s).astype(weight.dtype), (bias + shift).astype(bias.dtype))
            conv.input[0] = x
            g.kill(mul, add)
        n += 1
    g.compact()
    return n


def fold(data: bytes) -> bytes:
    """The model ``data`` (serialized ONNX) with the rewrites above applied."""
    import onnx

    model = onnx.load_from_string(data)
    g = _Graph(model)
    count = _fold_affine_after_conv(g) + _fold_hardswish(g) + _fold_affine_before_conv(g)
    if not count:
        return data
    # Drop Constant nodes no longer read (their values live on as initializers).
    used = {name for node in g.graph.node for name in node.input} | g.outputs
    keep = [n for n in g.graph.node if n.op_type != "Constant" or n.output[0] in used]
    del g.graph.node[:]
    g.graph.node.extend(keep)
    used_init = [i for i in g.graph.initializer if i.name in used]
    del g.graph.initializer[:]
    g.graph.initializer.extend(used_init)
    return bytes(model.SerializeToString())
