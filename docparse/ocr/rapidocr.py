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

import itertools
import math
import time
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
#: The narrowest input of the recogniser (pixels at its 48 px height): two CTC columns.
MIN_PIECE_WIDTH = 16
#: An image this many times longer than wide (or wider than long) is a strip.
STRIP = 8


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
        _own_sessions(self._ocr)
        # One line per recogniser run: batches of 6 cost 1.6 times the CPU per
        # line (the padded batch tensors leave the cache).
        self._ocr.text_rec.rec_batch_num = 1
        # No padding of short pieces to rapidocr's 320 px minimum width (the
        # recogniser takes any width): on four test pages 98 short pieces read the
        # same but for 3 leading spaces and 3 characters ("I:3" for "1:3" twice,
        # right; "." for "。"), at 0.63 of the CPU.
        self._ocr.text_rec.rec_image_shape = [3, 48, MIN_PIECE_WIDTH]
        self._stages: dict[str, float] = {}
        self._clock = time.process_time()

    def _lap(self, stage: str) -> None:
        now = time.process_time()
        self._stages[stage] = self._stages.get(stage, 0.0) + now - self._clock
        self._clock = now

    def stage_seconds(self) -> dict[str, float]:
        out = dict(self._stages)
        self._stages.clear()
        return out

    def read_crops(self, crops: Sequence[Image]) -> list[tuple[str, float]]:
        """Text and score of each line crop (RGB), read one at a time as the page
        pipeline reads its pieces (scaled to the recogniser's 48 px height)."""
        recognised, _ = self._ocr.text_rec(list(crops), False)
        return [(str(r[0]), float(r[1])) for r in recognised]

    def recognize(self, image: Image, sample: int | None = None) -> list[OcrLine]:
        import cv2

        self._clock = time.process_time()
        # An edge-preserving smoothing: JPEG ringing and sensor noise around the
        # glyphs otherwise make the recogniser drop the spaces between words
        # (JPEG quality 50: word recall 0.71 -> 0.98 on the PMLR fixture).
        smooth: Any = cv2.bilateralFilter(image, 5, 40, 5)
        self._lap("smooth")
        lines: list[OcrLine] = []
        for item in self._run(smooth, sample):
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
        self._lap("boxes")
        return lines

    def _run(self, image: Image, sample: int | None = None) -> list[list[Any]]:
        """``[quad, text, score, char boxes, chars, char scores]`` per line.

        Text is detected on the page scaled down to :data:`DET_MAX_SIDE` (the
        detector finds lines as well there, at a fraction of the cost) and
        recognised from crops of the full-resolution page, long lines in
        pieces (:func:`cut_points`). ``sample``: recognise only that many of
        the widest lines (enough to judge which way up a page is).
        """
        import numpy as np

        ocr = self._ocr
        h, w = image.shape[:2]
        factor = min(1.0, DET_MAX_SIDE / max(h, w))
        # rapidocr's own pipeline pads strips (one line of text) before detection.
        if max(h, w) > STRIP * min(h, w) or not hasattr(ocr, "cal_rec_boxes"):
            result, _ = ocr(image, use_cls=False, return_word_box=True)
            found = list(result or ())
            if sample is not None:
                found = sorted(found, key=lambda r: -_box(r[0])[2] + _box(r[0])[0])[:sample]
            self._lap("recognise")
            return found
        import cv2

        small: Any = image
        if factor < 1.0:
            small = cv2.resize(
                image, (round(w * factor), round(h * factor)), interpolation=cv2.INTER_AREA
            )
        found, _ = ocr.text_det(small)
        self._lap("detect")
        if found is None or len(found) == 0:
            return []
        quads = [np.asarray(q, dtype=np.float32) / factor for q in ocr.sorted_boxes(found)]
        if sample is not None:
            widest = sorted(range(len(quads)), key=lambda i: -float(np.ptp(quads[i][:, 0])))
            quads = [quads[i] for i in sorted(widest[:sample])]
        crops = ocr.get_crop_img_list(image, quads)
        pieces: list[Any] = []
        piece_quads: list[Any] = []
        owner: list[int] = []
        for index, (crop, quad) in enumerate(zip(crops, quads, strict=True)):
            cuts = cut_points(crop)
            for a, b in itertools.pairwise([0, *cuts, crop.shape[1]]):
                pieces.append(crop[:, a:b])
                piece_quads.append(_sub_quad(quad, a / crop.shape[1], b / crop.shape[1]))
                owner.append(index)
        self._lap("crop")
        recognised, _ = ocr.text_rec(pieces, True)
        self._lap("recognise")
        detailed = [
            char_boxes(piece, quad, rec) or ocr.cal_rec_boxes([piece], [quad], [rec])[0]
            for piece, quad, rec in zip(pieces, piece_quads, recognised, strict=True)
        ]
        lines: list[list[Any]] = []
        for index, group in itertools.groupby(range(len(pieces)), key=owner.__getitem__):
            parts = [detailed[i] for i in group if str(detailed[i][0]).strip()]
            if not parts:
                continue
            merged = _merge(parts)
            if float(merged[1]) >= ocr.text_score:
                lines.append([quads[index].tolist(), *merged])
        return lines


def _own_sessions(ocr: Any) -> None:
    """Reopen rapidocr's detection and recognition sessions: on the rewritten
    graphs of :mod:`docparse.ocr.onnx_fold` (same results, about a third less
    CPU) when the ``onnx`` package is there, and without ONNX Runtime's memory
    patterns: one is planned and kept for every input shape, and every line
    width is a new shape (the recogniser alone grew by 40 MB over 400 widths,
    and stayed flat without them, at no measurable CPU cost)."""
    import onnxruntime  # type: ignore[import-untyped]

    from docparse.ocr import onnx_fold

    fold = onnx_fold.available()
    for wrapper in (getattr(ocr.text_det, "infer", None), getattr(ocr.text_rec, "session", None)):
        session: Any = getattr(wrapper, "session", None)
        # rapidocr 1.4 opens its sessions from the model files inside the wheel.
        path = getattr(session, "_model_path", None)
        if wrapper is None or session is None or not path:
            continue
        with open(path, "rb") as fh:
            data = fh.read()
        options = session.get_session_options()
        options.enable_mem_pattern = False
        wrapper.session = onnxruntime.InferenceSession(
            onnx_fold.fold(data) if fold else data,
            sess_options=options,
            providers=session.get_providers(),
        )


#: Crops wider than this many line heights are recognised in pieces: the
#: recogniser's cost per pixel grows with the width past about 13 heights
#: (17 ms per 100 px at 20 heights against 13 ms at 13, one thread).
MAX_PIECE_RATIO = 13.0


def cut_points(crop: Image) -> list[int]:
    """Columns where a long line crop is cut into pieces of at most
    :data:`MAX_PIECE_RATIO` heights: each cut at the middle of the widest run
    of blank columns (a space between words) in the piece's last third."""
    import numpy as np

    h, w = crop.shape[:2]
    limit = int(MAX_PIECE_RATIO * h)
    if w <= limit or h < 4:
        return []
    gray = crop.mean(axis=2) if crop.ndim == 3 else crop
    # A column is blank when its darkest pixel is close to the line's paper.
    paper = float(np.percentile(gray, 90))
    ink = gray.min(axis=0) < paper - 0.35 * max(paper - float(gray.min()), 1.0)
    cuts: list[int] = []
    start = 0
    while w - start > limit:
        lo, hi = start + limit * 2 // 3, start + limit
        best, run, best_len = -1, 0, 0
        for x in range(lo, hi):
            run = 0 if ink[x] else run + 1
            if run > best_len:
                best, best_len = x - run // 2, run
        if best_len < max(2, h // 10):
            return cuts  # no space between words here: leave the rest whole
        cuts.append(best)
        start = best
    return cuts


def char_boxes(piece: Image, quad: Any, rec: Sequence[Any]) -> list[Any] | None:
    """``[text, score, char quads, chars, char scores]`` of one recognised piece.

    The same boxes as rapidocr's ``CalRecBoxes`` (each character centred on
    its CTC column, as wide as the mean pitch of the characters of its
    script in the piece, overlaps split in the middle), mapped to the page
    along the piece's quadrilateral, without the per-point matrix products
    that made ``CalRecBoxes`` about a tenth of a dense page's CPU time.
    ``None`` for a piece read turned (a tall quadrilateral): left to rapidocr.
    """
    import numpy as np

    text, score, info = str(rec[0]), float(rec[1]), rec[2]
    tl, tr, br, bl = (np.asarray(p, dtype=np.float64) for p in quad)
    if np.linalg.norm(tl - bl) >= 1.5 * max(float(np.linalg.norm(tl - tr)), 1e-6):
        return None
    col_num, words, cols, states, confs = info
    w = float(piece.shape[1])
    if not text or not col_num:
        return [text, score, [], [], []]
    cell = w / float(col_num)
    pitch: dict[str, list[float]] = {"cn": [], "en&num": []}
    for word_cols, state in zip(cols, states, strict=True):
        if len(word_cols) > 1:
            pitch[state].append((word_cols[-1] - word_cols[0]) * cell / (len(word_cols) - 1))
    spans: list[list[float]] = []
    chars: list[str] = []
    for word, word_cols, state in zip(words, cols, states, strict=True):
        width = float(np.mean(pitch[state])) if pitch[state] else w / len(text)
        for ch, col in zip(word, word_cols, strict=True):
            centre = (col + 0.5) * cell
            spans.append([max(int(centre - width / 2), 0), min(int(centre + width / 2), w)])
            chars.append(str(ch))
    for cur, nxt in itertools.pairwise(spans):
        if cur[1] > nxt[0]:
            half = (cur[1] - nxt[0]) / 2
            cur[1] -= half
            nxt[0] += half
    boxes = []
    for x0, x1 in spans:
        a, b = x0 / w, x1 / w
        # Whole pixels, truncated as rapidocr does: the layout sees the same boxes.
        corners = [tl + (tr - tl) * a, tl + (tr - tl) * b, bl + (br - bl) * b, bl + (br - bl) * a]
        boxes.append([np.trunc(c) for c in corners])
    return [text, score, boxes, chars, list(confs)[: len(chars)]]


def _sub_quad(quad: Any, a: float, b: float) -> Any:
    """The part of a quadrilateral (tl, tr, br, bl) between fractions ``a`` and
    ``b`` of its width."""
    import numpy as np

    tl, tr, br, bl = (np.asarray(p, dtype=np.float32) for p in quad)
    return np.array(
        [tl + (tr - tl) * a, tl + (tr - tl) * b, bl + (br - bl) * b, bl + (br - bl) * a],
        dtype=np.float32,
    )


def _merge(parts: list[list[Any]]) -> list[Any]:
    """One line's ``[text, score, char boxes, chars, char scores]`` from its pieces
    (each cut at a space, so the pieces are joined by one)."""
    if len(parts) == 1:
        return list(parts[0])
    text = " ".join(str(p[0]).strip() for p in parts)
    n = sum(len(str(p[0])) for p in parts)
    score = sum(float(p[1]) * len(str(p[0])) for p in parts) / n
    boxes: list[Any] = []
    chars: list[Any] = []
    scores: list[Any] = []
    for i, p in enumerate(parts):
        if i:
            # The space between two pieces: its box is never used (words end at spaces).
            boxes.append(p[2][0] if p[2] else boxes[-1])
            chars.append(" ")
            scores.append(1.0)
        boxes.extend(p[2])
        chars.extend(p[3])
        scores.extend(p[4])
    return [text, score, boxes, chars, scores]
