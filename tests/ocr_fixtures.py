"""Write the OCR fixtures in ``fixtures/ocr/`` (``python -m tests.ocr_fixtures``).

The introduction of the PMLR sample article (page 1, 285-455 pt from the top)
becomes a text PDF of its own (``pmlr-intro-text.pdf``, the gold) and three
image-only scans of it: clean at 200 dpi, degraded (1.5 degrees of skew,
Gaussian noise sigma 12, JPEG quality 50) and turned a quarter (the page image
set sideways on a landscape page, as a scanner feeding the sheet sideways).
"""

from __future__ import annotations

from pathlib import Path

import pymupdf

from docparse.ocr.scan import ScanStyle, rasterize

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "fixtures" / "pdf" / "jmlr-pmlr-sample" / "pmlr-sample.pdf"
OUT = ROOT / "fixtures" / "ocr"
CLIP = pymupdf.Rect(0, 285, 612, 455)


def make(out: Path = OUT) -> None:
    out.mkdir(parents=True, exist_ok=True)
    text = out / "pmlr-intro-text.pdf"
    with pymupdf.open(SOURCE) as src, pymupdf.open() as doc:
        page = doc.new_page(width=CLIP.width, height=CLIP.height)
        page.show_pdf_page(page.rect, src, 0, clip=CLIP)
        doc.save(text, garbage=3, deflate=True)
    rasterize(text, out / "pmlr-intro-200dpi.pdf", ScanStyle(dpi=200))
    rasterize(
        text, out / "pmlr-intro-degraded.pdf", ScanStyle(dpi=200, skew=1.5, noise=12, jpeg=50)
    )
    with pymupdf.open(text) as src, pymupdf.open() as doc:
        pix = src[0].get_pixmap(
            matrix=pymupdf.Matrix(200 / 72, 200 / 72).prerotate(90), colorspace=pymupdf.csGRAY
        )
        page = doc.new_page(width=CLIP.height, height=CLIP.width)
        page.insert_image(page.rect, stream=pix.tobytes("png"))
        doc.save(out / "pmlr-intro-turned.pdf", garbage=3, deflate=True)


if __name__ == "__main__":
    make()
