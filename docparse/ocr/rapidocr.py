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
#: word break even when the model printed no space. CTC boxes are coarse: the
#: letters of one word can leave gaps of 0.25 line heights, so only clearly
#: wide gaps count; glued words are mostly split by :func:`docparse.ocr.pages.split_glued`.
SPACE_GAP = 0.5


#: Longest side (pixels) of the image the text detector sees: a 200 dpi letter
#: page is detected at about 110 dpi, where body text is still 15 px high.
DET_MAX_SIDE = 1216


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
        import cv2

        # An edge-preserving smoothing: JPEG ringing and sensor noise around the
        # glyphs otherwise make the recogniser drop the spaces between words
        # (JPEG quality 50: word recall 0.71 -> 0.98 on the PMLR fixture).
        smooth: Any = cv2.bilateralFilter(image, 5, 40, 5)
        lines: list[OcrLine] = []
        for item in self._run(smooth):
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

    def _run(self, image: Image) -> list[list[Any]]:
        """``[quad, text, score, char boxes, chars, char scores]`` per line.

        Text is detected on the page scaled down to :data:`DET_MAX_SIDE` (the
        detector finds lines as well there, at a fraction of the cost) and
        recognised from crops of the full-resolution page.
        """
        import numpy as np

        ocr = self._ocr
        h, w = image.shape[:2]
        factor = DET_MAX_SIDE / max(h, w)
        if factor >= 1.0 or not hasattr(ocr, "cal_rec_boxes"):
            result, _ = ocr(image, use_cls=False, return_word_box=True)
            return list(result or ())
        import cv2

        small = cv2.resize(
            image, (round(w * factor), round(h * factor)), interpolation=cv2.INTER_AREA
        )
        found, _ = ocr.text_det(small)
        if found is None or len(found) == 0:
            return []
        quads = [np.asarray(q, dtype=np.float32) / factor for q in ocr.sorted_boxes(found)]
        crops = ocr.get_crop_img_list(image, quads)
        recognised, _ = ocr.text_rec(crops, True)
        detailed = ocr.cal_rec_boxes(crops, quads, recognised)
        return [
            [q.tolist(), *r]
            for q, r in zip(quads, detailed, strict=True)
            if float(r[1]) >= ocr.text_score
        ]
