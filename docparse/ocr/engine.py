"""The engine interface of OCR: one page image in, text lines with boxes out.

An engine sees a page as an RGB image (a ``numpy`` array of shape
``(height, width, 3)``) and returns :class:`OcrLine` records in that image's
pixel coordinates. Everything else (rendering, orientation, turning lines into
the backends' page records) is engine-independent (:mod:`docparse.ocr.pages`).

Engines are optional: :func:`load_engine` raises
:class:`~docparse.errors.MissingDependencyError` with the exact install line
when one is not installed. No engine downloads anything: rapidocr's models
ship inside its wheel, tesseract's language data come with its Debian packages.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    Image = NDArray[np.uint8]
else:
    Image = Any

#: When to OCR a page: ``auto`` (no text layer, or mostly unmapped glyphs),
#: ``off``, ``force`` (every page).
OcrMode = Literal["auto", "off", "force"]
#: The OCR engines docparse can run.
OcrEngineName = Literal["rapidocr", "tesseract"]


@dataclass(frozen=True, slots=True)
class OcrWord:
    """One recognised word: its text, box (pixels, top-left origin) and confidence in [0, 1]."""

    text: str
    box: tuple[float, float, float, float]
    confidence: float


@dataclass(frozen=True, slots=True)
class OcrLine:
    """One recognised text line: its words left to right and the line's box (pixels).

    ``height`` is the text height across the line (for a slanted line less than
    the box height); ``angle`` the slope of its baseline in radians, positive
    when the line climbs to the right (``None`` when the engine does not say).
    """

    words: tuple[OcrWord, ...]
    box: tuple[float, float, float, float]
    height: float = 0.0
    angle: float | None = None

    @property
    def text(self) -> str:
        return " ".join(w.text for w in self.words)

    @property
    def confidence(self) -> float:
        """Mean word confidence weighted by word length."""
        n = sum(len(w.text) for w in self.words)
        if not n:
            return 0.0
        return sum(w.confidence * len(w.text) for w in self.words) / n

    @property
    def vertical(self) -> bool:
        """A box much taller than wide: text that runs down the page (a page turned sideways)."""
        x0, y0, x1, y1 = self.box
        return (y1 - y0) > 2.0 * (x1 - x0) and len(self.text.strip()) >= 3


class OcrEngine(ABC):
    """An OCR engine: :meth:`recognize` one page image into text lines.

    ``dpi`` is the resolution pages are rendered at for this engine.
    """

    name: ClassVar[str]
    dpi: ClassVar[int] = 200

    @abstractmethod
    def recognize(self, image: Image, sample: int | None = None) -> list[OcrLine]:
        """Text lines of ``image`` (RGB, ``uint8``, ``(h, w, 3)``) in pixel coordinates.

        ``sample``: only that many lines, the widest, are needed (to judge
        which way up a page is); an engine that cannot read part of a page
        cheaply may return them all.
        """

    def stage_seconds(self) -> dict[str, float]:
        """CPU seconds per stage of :meth:`recognize` (detection, recognition, ...)
        since the last call, which resets them; empty when the engine does not
        say (a subprocess)."""
        return {}


_ENGINES: dict[str, OcrEngine] = {}


def load_engine(name: OcrEngineName) -> OcrEngine:
    """The engine ``name``, loaded once per process (model loading takes a while).

    Raises :class:`~docparse.errors.MissingDependencyError` (with the install
    line) when the engine is not installed, :class:`~docparse.errors.ConfigError`
    for an unknown name.
    """
    engine = _ENGINES.get(name)
    if engine is not None:
        return engine
    if name == "rapidocr":
        from docparse.ocr.rapidocr import RapidOcrEngine

        engine = RapidOcrEngine()
    elif name == "tesseract":
        from docparse.ocr.tesseract import TesseractEngine

        engine = TesseractEngine()
    else:
        from docparse.errors import ConfigError

        raise ConfigError(None, f"unknown OCR engine {name!r}; valid: rapidocr, tesseract")
    _ENGINES[name] = engine
    return engine
