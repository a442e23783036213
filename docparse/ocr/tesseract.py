"""OCR with the Tesseract command-line program (Debian package ``tesseract-ocr``).

The page image goes to ``tesseract`` on standard input as PNG; its TSV output
(one row per word with block, paragraph and line numbers, box and confidence)
comes back on standard output. No Python binding is needed. Language data are
the installed ``tesseract-ocr-*`` packages: English by default.
"""

from __future__ import annotations

import csv
import io
import math
import os
import shutil
import subprocess
from typing import ClassVar

from docparse.errors import MissingDependencyError, ParseError
from docparse.ocr.engine import Image, OcrEngine, OcrLine, OcrWord

INSTALL = "apt-get install tesseract-ocr tesseract-ocr-eng"


def parse_tsv(tsv: str) -> list[OcrLine]:
    """Lines of ``tesseract ... tsv`` output, in the order tesseract read them.

    Word rows (level 5) with text are grouped by (block, paragraph, line);
    confidences (0-100, -1 for none) become [0, 1].
    """
    groups: dict[tuple[str, str, str], list[OcrWord]] = {}
    for row in csv.DictReader(io.StringIO(tsv), delimiter="\t", quoting=csv.QUOTE_NONE):
        if row.get("level") != "5" or not (row.get("text") or "").strip():
            continue
        left, top = float(row["left"]), float(row["top"])
        box = (left, top, left + float(row["width"]), top + float(row["height"]))
        conf = max(0.0, float(row["conf"])) / 100.0
        key = (row["block_num"], row["par_num"], row["line_num"])
        groups.setdefault(key, []).append(OcrWord(row["text"].strip(), box, conf))
    lines = []
    for words in groups.values():
        box = (
            min(w.box[0] for w in words),
            min(w.box[1] for w in words),
            max(w.box[2] for w in words),
            max(w.box[3] for w in words),
        )
        heights = sorted(w.box[3] - w.box[1] for w in words)
        lines.append(OcrLine(tuple(words), box, heights[len(heights) // 2], _slope(words)))
    return lines


def _slope(words: list[OcrWord]) -> float | None:
    """Baseline angle (radians, positive climbing right) fitted through the word bottoms."""
    if len(words) < 3:
        return None
    xs = [(w.box[0] + w.box[2]) / 2 for w in words]
    ys = [w.box[3] for w in words]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx <= 0:
        return None
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx
    return math.atan(-slope)


class TesseractEngine(OcrEngine):
    """``tesseract`` as a subprocess, one thread (``OMP_THREAD_LIMIT=1``)."""

    name: ClassVar[str] = "tesseract"
    dpi: ClassVar[int] = 300

    def __init__(self, languages: str = "eng") -> None:
        binary = shutil.which("tesseract")
        if binary is None:
            raise MissingDependencyError("the tesseract OCR engine", INSTALL)
        self.binary = binary
        self.languages = languages

    def recognize(self, image: Image, sample: int | None = None) -> list[OcrLine]:
        from docparse.backends.preflight import load_pymupdf

        pymupdf = load_pymupdf()
        h, w = image.shape[:2]
        png = pymupdf.Pixmap(pymupdf.csRGB, w, h, image.tobytes(), False).tobytes("png")
        env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
        cmd = [self.binary, "stdin", "stdout", "-l", self.languages, "--dpi", str(self.dpi), "tsv"]
        # A time limit (SIGALRM) raising inside run() kills the child on the way out.
        done = subprocess.run(cmd, input=png, capture_output=True, env=env, check=False)
        if done.returncode != 0:
            message = done.stderr.decode("utf-8", "replace").strip()[-300:]
            raise ParseError(None, f"tesseract failed (exit {done.returncode}): {message}")
        return parse_tsv(done.stdout.decode("utf-8", "replace"))
