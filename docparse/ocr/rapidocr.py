"""OCR with RapidOCR (PP-OCRv4 detection and recognition as ONNX models).

``rapidocr-onnxruntime`` ships its models inside the wheel (Chinese and
English in one recognition model), so nothing is downloaded. Install with
``pip install 'docparse[ocr]'``.

The recognition model reads a whole line and often drops the space between
two words; its per-character boxes (``return_word_box``) show the gap, so
words are cut where the gap between two characters is wide for the line's
height (:func:`split_words`).
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence
from typing import Any, ClassVar

from docparse.errors import MissingDependencyError
from docparse.ocr.engine import Image, OcrEngine, OcrLine, OcrWord

INSTALL = "pip install 'docparse[ocr]'"

#: A gap between two characters wider than this share of the line height is a
#: word break even when the model printed no space (CTC boxes of the letters of
#: one word leave gaps of at most about 0.2 line heights).
SPACE_GAP = 0.3


def _is_cjk(ch: str) -> bool:
    """Characters of scripts written without spaces between words."""
    if not ch:
        return False
    name = unicodedata.name(ch[0], "")
    return name.startswith(("CJK", "HIRAGANA", "KATAKANA", "HANGUL", "FULLWIDTH", "IDEOGRAPHIC"))


def _box(points: Sequence[Sequence[float]]) -> tuple[float, float, float, float]:
    xs = [float(p[0]) for p in points]
    ys = [float(p[1]) for p in points]
    return (min(xs), min(ys), max(xs), max(ys))


def _height_and_angle(points: Sequence[Sequence[float]]) -> tuple[float, float]:
    """Text height and baseline slope of a detected quadrilateral (top-left, top-right,
    bottom-right, bottom-left corners)."""
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = ((float(p[0]), float(p[1])) for p in points[:4])
    height = (math.hypot(x3 - x0, y3 - y0) + math.hypot(x2 - x1, y2 - y1)) / 2
    angle = math.atan2(-((y1 + y2) - (y0 + y3)) / 2, ((x1 + x2) - (x0 + x3)) / 2)
    return height, angle


def split_words(
    chars: Sequence[str],
    boxes: Sequence[tuple[float, float, float, float]],
    scores: Sequence[float],
    line_height: float,
) -> list[OcrWord]:
    """Words of one recognised line from its characters, their boxes and scores.

    A word ends at a space character, and between two characters of spaced
    scripts whose boxes leave a gap wider than :data:`SPACE_GAP` line heights.
    Characters of unspaced scripts (CJK) are kept together: the assembly joins
    them without spaces either way.
    """
    words: list[OcrWord] = []
    cur: list[int] = []

    def flush() -> None:
        if cur:
            text = "".join(chars[i] for i in cur)
            box = (
                min(boxes[i][0] for i in cur),
                min(boxes[i][1] for i in cur),
                max(boxes[i][2] for i in cur),
                max(boxes[i][3] for i in cur),
            )
            conf = sum(scores[i] for i in cur) / len(cur)
            words.append(OcrWord(text, box, conf))
            cur.clear()

    for i, ch in enumerate(chars):
        if not ch.strip():
            flush()
            continue
        if cur:
            prev = cur[-1]
            gap = boxes[i][0] - boxes[prev][2]
            if gap > SPACE_GAP * line_height and not _is_cjk(ch) and not _is_cjk(chars[prev]):
                flush()
        cur.append(i)
    flush()
    return words


class RapidOcrEngine(OcrEngine):
    """PP-OCRv4 through ``rapidocr_onnxruntime``, one ONNX thread (CPU time per page is
    what counts; batch ingestion runs files in parallel processes)."""

    name: ClassVar[str] = "rapidocr"
    dpi: ClassVar[int] = 200

    def __init__(self) -> None:
        try:
            from rapidocr_onnxruntime import RapidOCR
        except ImportError as exc:
            raise MissingDependencyError("the rapidocr OCR engine", INSTALL, cause=exc) from exc
        self._ocr: Any = RapidOCR(intra_op_num_threads=1, inter_op_num_threads=1)

    def recognize(self, image: Image) -> list[OcrLine]:
        result, _ = self._ocr(image, use_cls=False, return_word_box=True)
        lines: list[OcrLine] = []
        for item in result or ():
            box = _box(item[0])
            text = str(item[1])
            height, angle = _height_and_angle(item[0])
            if len(item) >= 6 and item[4]:
                chars = [str(c) for c in item[4]]
                boxes = [_box(b) for b in item[3]]
                scores = [float(s) for s in item[5]]
                words = split_words(chars, boxes, scores, height)
            else:
                score = float(item[2])
                words = [OcrWord(t, box, score) for t in text.split()]
            if words:
                lines.append(OcrLine(tuple(words), box, height, angle))
        return lines
