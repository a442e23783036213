"""Parity and speed of docparse's SentenceSplitter against llama-index-core's.

Usage::

    python benchmarks/sentence_splitter.py [--corpus ../shared/corpus] [--repeat 3]

For every real text (book .txt files cut into parts, PDF text from PyMuPDF's
``page.get_text()``) and both settings pdfQA-like (400, 0) and LlamaIndex's
default (1024, 200), it checks that the chunk lists are identical and times
both splitters (best of ``--repeat`` warm runs each; LlamaIndex gets the cl100k
``encode`` tokenizer, docparse its default cl100k counter). Prints one row per
text and the total speed-up.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SETTINGS = ((400, 0), (1024, 200))
PART_CHARS = 60_000
PDF_PAGES = 30


#: Arguments of a short run (``python -m benchmarks.run --quick``).
QUICK_ARGS = ["--corpus", "{corpus}", "--repeat", "1", "--limit", "4"]


def book_parts(path: Path, n_parts: int = 3) -> list[tuple[str, str]]:
    """Up to ``n_parts`` consecutive ~60 kB parts of a book, cut at line ends."""
    text = path.read_text(encoding="utf-8", errors="replace")
    out = []
    start = 0
    for i in range(n_parts):
        if start >= len(text):
            break
        end = text.find("\n", start + PART_CHARS)
        end = len(text) if end < 0 else end + 1
        out.append((f"{path.name}#part{i + 1}", text[start:end]))
        start = end
    return out


def pdf_text(path: Path, max_pages: int = PDF_PAGES) -> str:
    """PyMuPDF's plain text of the first pages, pages concatenated."""
    import pymupdf

    with pymupdf.open(path) as pdf:
        return "".join(str(page.get_text()) for i, page in enumerate(pdf) if i < max_pages)


def corpus_texts(corpus: Path, limit: int | None = None) -> list[tuple[str, str]]:
    """The real texts of the parity check (>= 20 when the corpus is complete);
    the first ``limit`` of them when given."""
    texts: list[tuple[str, str]] = []
    for book in sorted(corpus.glob("books/*/*.txt")):
        texts.extend(book_parts(book))
    if limit is not None and len(texts) >= limit:
        return texts[:limit]
    pdfs = (
        sorted(corpus.glob("research/*/*.pdf"))
        + sorted(corpus.glob("s2orc/*/*.pdf"))
        + sorted(corpus.glob("qa_evidence/uda-paper-*/*.pdf"))
        + sorted(corpus.glob("qa_evidence/uda-wiki-*/*.pdf"))
        + [corpus / "financial/3M_2018_10K/3M_2018_10K.pdf"]
        + [corpus / "financial/JOHNSON_JOHNSON_2022Q4_EARNINGS/JOHNSON_JOHNSON_2022Q4_EARNINGS.pdf"]
    )
    for pdf in pdfs:
        if limit is not None and len(texts) >= limit:
            break
        if pdf.exists():
            texts.append((pdf.name, pdf_text(pdf)))
    return texts


def best_of(fn: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--limit", type=int, default=None, help="only the first N texts")
    args = parser.parse_args()

    from llama_index.core.node_parser import SentenceSplitter as LlamaSplitter

    from docparse.chunking import SentenceSplitter
    from docparse.text import encoding

    texts = corpus_texts(args.corpus, args.limit)
    print(f"{len(texts)} texts, {sum(len(t) for _, t in texts):,} characters")
    enc = encoding()
    mismatches = 0
    total_llama = total_ours = 0.0
    for cs, ov in SETTINGS:
        llama = LlamaSplitter(chunk_size=cs, chunk_overlap=ov, tokenizer=enc.encode)
        ours = SentenceSplitter(chunk_size=cs, chunk_overlap=ov)
        llama.split_text("Warm up. The sentence tokenizer loads lazily.")
        sub_llama = sub_ours = 0.0
        print(f"\nchunk_size={cs} chunk_overlap={ov}")
        head = f"{'text':48} {'chars':>8} {'chunks':>6} {'same':>5} "
        print(head + f"{'llama s':>8} {'ours s':>8} {'x':>5}")
        for name, text in texts:
            expected = llama.split_text(text)
            got = ours.split_text(text)
            same = expected == got
            mismatches += not same
            t_llama = best_of(lambda s=llama, t=text: s.split_text(t), args.repeat)
            t_ours = best_of(lambda s=ours, t=text: s.split_text(t), args.repeat)
            sub_llama += t_llama
            sub_ours += t_ours
            print(
                f"{name[:48]:48} {len(text):8d} {len(expected):6d} {same!s:>5} "
                f"{t_llama:8.4f} {t_ours:8.4f} {t_llama / t_ours:5.1f}"
            )
        print(
            f"subtotal: llama {sub_llama:.3f}s, docparse {sub_ours:.3f}s, "
            f"speed-up {sub_llama / sub_ours:.1f}x"
        )
        total_llama += sub_llama
        total_ours += sub_ours
    print(
        f"\nparity: {len(texts) * len(SETTINGS) - mismatches}/{len(texts) * len(SETTINGS)} "
        f"identical chunk lists; total llama {total_llama:.3f}s, docparse {total_ours:.3f}s, "
        f"speed-up {total_llama / total_ours:.1f}x"
    )
    return 1 if mismatches else 0


if __name__ == "__main__":
    raise SystemExit(main())
