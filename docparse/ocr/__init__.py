"""Offline OCR of scanned pages and broken text layers, into the same units.

* :mod:`docparse.ocr.engine`: the engine interface and :func:`load_engine`;
  one module per engine (:mod:`docparse.ocr.rapidocr`,
  :mod:`docparse.ocr.tesseract`).
* :mod:`docparse.ocr.pages`: which pages to OCR, rendering, orientation, and
  OCR lines as the backends' page records (:class:`~docparse.ocr.pages.OcrPass`).

Every PDF backend takes ``ocr`` (``auto``/``off``/``force``), ``ocr_engine``
(``rapidocr``/``tesseract``) and ``ocr_dpi`` options
(:class:`~docparse.backends.base.PdfConfig`).
"""

from docparse.ocr.engine import OcrEngine, OcrEngineName, OcrLine, OcrMode, OcrWord, load_engine

__all__ = ["OcrEngine", "OcrEngineName", "OcrLine", "OcrMode", "OcrWord", "load_engine"]
