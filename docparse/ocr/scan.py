"""Make image-only PDFs from PDFs: OCR test inputs whose gold text is known.

:func:`rasterize` renders pages of a PDF into a new PDF that holds one image
per page and no text layer, as a scanner would, optionally degraded the way
scans are: set slightly askew, with sensor noise, JPEG-compressed. Parsing the
result with OCR and projecting the twin of the original onto it
(:func:`align.project.project`) measures OCR fidelity against exact gold.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from docparse.backends.preflight import load_pymupdf
from docparse.errors import ConfigError


@dataclass(frozen=True, slots=True)
class ScanStyle:
    """How a page is scanned.

    ``dpi``: resolution. ``skew``: degrees the page is turned (positive
    counter-clockwise). ``noise``: standard deviation of Gaussian noise added
    to each pixel (0-255 scale). ``jpeg``: JPEG quality (1-100), 0 for
    lossless PNG. ``gray``: one channel instead of RGB. ``seed``: for the noise.
    """

    dpi: int = 200
    skew: float = 0.0
    noise: float = 0.0
    jpeg: int = 0
    gray: bool = True
    seed: int = 0

    def __post_init__(self) -> None:
        if not 10 <= self.dpi <= 1200 or not 0 <= self.jpeg <= 100 or self.noise < 0:
            raise ConfigError(None, f"bad scan style {self!r}")


def rasterize(
    src: str | Path,
    dst: str | Path,
    style: ScanStyle | None = None,
    *,
    pages: tuple[int, int] | None = None,
) -> Path:
    """Write ``dst``: pages ``pages`` (1-based inclusive; all when ``None``) of
    ``src`` as images only, scanned in ``style``. Each page keeps its size."""
    import numpy as np

    style = style or ScanStyle()
    pymupdf = load_pymupdf()
    rng = np.random.default_rng(style.seed)
    out = pymupdf.open()
    with pymupdf.open(src) as doc:
        first, last = pages or (1, doc.page_count)
        for index in range(first - 1, min(last, doc.page_count)):
            page = doc.load_page(index)
            matrix = pymupdf.Matrix(style.dpi / 72.0, style.dpi / 72.0)
            if style.skew:
                matrix = matrix.prerotate(style.skew)
            space = pymupdf.csGRAY if style.gray else pymupdf.csRGB
            pix = page.get_pixmap(matrix=matrix, colorspace=space, alpha=False)
            if style.noise:
                pixels = np.frombuffer(pix.samples, dtype=np.uint8).astype(np.float32)
                pixels += rng.normal(0.0, style.noise, pixels.shape).astype(np.float32)
                data = np.clip(pixels, 0, 255).astype(np.uint8).tobytes()
                pix = pymupdf.Pixmap(space, pix.width, pix.height, data, False)
            image = pix.tobytes("jpeg", jpg_quality=style.jpeg) if style.jpeg else pix.tobytes()
            rect = page.rect
            new = out.new_page(width=rect.width, height=rect.height)
            new.insert_image(new.rect, stream=image)
    target = Path(dst)
    out.save(target, garbage=3, deflate=True)
    out.close()
    return target
