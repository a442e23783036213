"""Twin-vs-parse projection: statuses, scores and breakdowns on real text.

The paragraphs below are real text from the Quantum journal template
(``fixtures/research/quantum-template``, LPPL); the "parsed" documents
re-cut them the way PDF parsers do (split across units, merged, dropped,
truncated, reordered).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from align import project
from align.project import STATUSES, comparison_words, match_words
from docparse.builder import UnitDraft, build_document
from docparse.model import Document, Provenance, Table

P = [
    "See Fig. 1 for an example of how to include figures. Feel free to place them at the top "
    "or bottom of the page, or in the middle of a paragraph as you see fit. Try to place them "
    "on the same page as the text referring to them. A figure on the first page can help "
    "readers remember and recognize your work more easily.",
    "Important: As Quantum is a member of Crossref, all references to works that have a DOI "
    "must be hyperlinked according to the DOI. Those links must start with https://doi.org/ "
    "(preferred), or http://dx.doi.org/. Direct links to the website of the publisher are not "
    "sufficient. Also so-called shortDOIs are unfortunately not accepted by Crossref (despite "
    "shortDOI being their own service).",
    "This can be achieved in several ways, depending on how you are formatting your "
    "bibliography. This is done easiest using the custom bibliography style for Quantum, please "
    "refer to its separate demo for details (quantum_bst_demo.pdf). Suppose the DOI of an "
    "article that you want to cite is 10.22331/idonotexist.",
    "Important: If you are formatting your bibliography manually, please do not group multiple "
    "citations into one bibitem. Having to search through multiple references to find the cited "
    "result makes your work less accessible for authors and grouping references can screw up "
    "our automatic extraction of citations.",
    "The quantumarticle class automatically detects that the natbib package was loaded and "
    "redefines the doi command to create hyperlinks. This is likely the easiest option if you "
    "are converting from another document class.",
    "The quantumarticle class automatically detects that the biblatex package was loaded, sets "
    "the default option doi=true to include the DOI in the bibliography, and declares a "
    "suitable field format to make it a hyperlink. Due to issues with biber we recommend to "
    "use the bibtex backend of biblatex.",
]
HEADING = "Figures and references"


def doc(
    texts: list[str],
    *,
    fmt: str = "tex",
    kinds: list[str] | None = None,
    pages: list[int] | None = None,
    sections: list[str] | None = None,
) -> Document:
    drafts = [
        UnitDraft(
            kind=(kinds[i] if kinds else "paragraph"),  # type: ignore[arg-type]
            text=t,
            section=(sections[i],) if sections else (),
            provenance=(Provenance(pages[i]),) if pages else (),
        )
        for i, t in enumerate(texts)
    ]
    return build_document(
        path=f"x.{fmt}",
        format="pdf" if fmt == "pdf" else "tex",
        backend="test" if fmt == "pdf" else "tex",
        drafts=drafts,
        doc_id="t" + fmt,
    )


def halves(text: str) -> tuple[str, str]:
    words = text.split()
    return " ".join(words[: len(words) // 2]), " ".join(words[len(words) // 2 :])


def status_of(proj, twin: Document, text_prefix: str) -> str:  # type: ignore[no-untyped-def]
    for u, tu in zip(proj.units, twin.content_units(), strict=True):
        if tu.text.startswith(text_prefix):
            return str(u.status)
    raise AssertionError(text_prefix)


def test_identical_documents_match_everything() -> None:
    twin = doc(P)
    proj = project(twin, doc(P, fmt="pdf"))
    assert [u.status for u in proj.units] == ["matched"] * len(P)
    assert proj.unit_recall(0.9) == 1.0
    assert proj.ned() == 0.0
    assert proj.spurious() == 0.0
    assert proj.kendall_tau() == pytest.approx(1.0)


def test_statuses_on_recut_text() -> None:
    twin = doc([HEADING, *P])
    a, b = halves(P[1])
    keep, _ = halves(P[3])
    parsed_texts = [
        HEADING + " " + P[0],  # heading merged into the paragraph below it
        a,  # P[1] split over a page break
        "Quantum 5, 123 (2021)",  # running footer the parser kept as text
        b,
        P[2],  # matched
        keep,  # P[3] truncated to its first half
        # P[4] lost
        P[5],
    ]
    parsed = doc(parsed_texts, fmt="pdf")
    proj = project(twin, parsed)
    assert status_of(proj, twin, HEADING) == "merged"
    assert status_of(proj, twin, P[0][:70]) == "merged"
    assert status_of(proj, twin, P[1][:70]) == "split"
    assert status_of(proj, twin, P[2][:70]) == "matched"
    assert status_of(proj, twin, P[3][:70]) == "partial"
    assert status_of(proj, twin, P[4][:70]) == "missing"
    assert status_of(proj, twin, P[5][:70]) == "matched"
    by_status = {u.status: u for u in proj.units}
    assert len(by_status["split"].parsed_ids) == 2
    assert by_status["missing"].parsed_ids == ()
    assert 0.4 < by_status["partial"].similarity < 0.6
    # The footer is the only parsed text absent from the twin.
    footer_words = len(comparison_words("Quantum 5, 123 (2021)")[0])
    assert proj.spurious_words == footer_words
    assert proj.unit_recall(0.9) == pytest.approx(5 / 7)


def test_moved_block_is_found_and_lowers_reading_order() -> None:
    twin = doc(P)
    moved = [P[0], P[2], P[3], P[4], P[5], P[1]]  # a block emitted late (e.g. a float)
    proj = project(twin, doc(moved, fmt="pdf"))
    assert all(u.status == "matched" for u in proj.units)
    tau = proj.kendall_tau()
    assert tau is not None and tau < 1.0
    reversed_tau = project(twin, doc(P[::-1], fmt="pdf")).kendall_tau()
    assert reversed_tau == pytest.approx(-1.0)


def test_pdf_artefacts_do_not_count_as_loss() -> None:
    twin = doc([P[0]])
    pdf_text = (
        P[0]
        .replace("figures", "ﬁgures")
        .replace("paragraph", "para-\ngraph")
        .replace("readers", "readers1")
    )
    proj = project(twin, doc([pdf_text], fmt="pdf"))
    assert proj.units[0].similarity == 1.0


def test_math_is_left_out_on_both_sides_and_counted() -> None:
    twin = doc(["The energy $E = mc^2$ of a particle with mass $m$ is conserved."])
    parsed = doc(["The energy E = mc2 of a particle with mass m is conserved."], fmt="pdf")
    proj = project(twin, parsed)
    assert proj.math_words >= 2
    assert proj.units[0].similarity == 1.0
    assert proj.units[0].status == "matched"
    display = doc(["$$\\int_0^1 f(x)\\,dx$$", P[0]])
    proj2 = project(display, doc([P[0]], fmt="pdf"))
    assert proj2.unscored_units == 1
    assert len(proj2.units) == 1


def test_ned_counts_edits_over_lengths() -> None:
    twin = doc([P[4]])
    changed = P[4].replace("hyperlinks", "hyperlynks")
    proj = project(twin, doc([changed], fmt="pdf"))
    u = proj.units[0]
    assert u.edits == 1
    assert proj.ned() == pytest.approx(1 / u.length)
    missing = project(twin, doc([P[0]], fmt="pdf"))
    assert missing.units[0].status == "missing"
    assert missing.ned() == pytest.approx(1.0, abs=0.35)


def test_breakdowns_and_page_losses() -> None:
    twin = doc(P, sections=["Intro", "Intro", "Refs", "Refs", "Refs", "Refs"])
    parsed = doc([P[0], P[1], P[2], P[5]], fmt="pdf", pages=[1, 1, 2, 2])
    proj = project(twin, parsed)
    sections = proj.breakdown("section")
    assert list(sections) == ["Intro", "Refs"]
    assert sections["Intro"]["unit_recall"] == 1.0
    assert sections["Refs"]["unit_recall"] == 0.5
    assert sections["Refs"]["statuses"]["missing"] == 2
    pages = {p.page: p for p in proj.page_losses}
    assert pages[1].lost == 0
    # P[3] and P[4] were lost between text that landed on page 2.
    assert pages[2].lost == len(comparison_words(P[3])[0]) + len(comparison_words(P[4])[0])
    summary = proj.summary()
    json.dumps(summary)
    assert set(summary["breakdown"]) == {"modality", "kind", "position_bucket", "section"}
    with pytest.raises(ValueError):
        proj.breakdown("colour")


def test_tables_are_scored_against_their_best_parsed_table() -> None:
    gold = Table(rows=(("Model", "F1"), ("BM25", "0.41"), ("DPR", "0.52")))
    bad = Table(rows=(("Model", "F1"), ("BM25", "0.47"), ("DPR", "0.52")))
    other = Table(rows=(("Year", "Count"), ("2020", "3")))

    def tdoc(tables: list[Table], fmt: str) -> Document:
        drafts = [UnitDraft(kind="paragraph", text=P[0])]
        drafts += [UnitDraft(kind="table", text="", table=t) for t in tables]
        return build_document(
            path=f"t.{fmt}",
            format="pdf" if fmt == "pdf" else "tex",
            backend="t",
            drafts=drafts,
            doc_id="t" + fmt,
        )

    twin = tdoc([gold, other], "tex")
    proj = project(twin, tdoc([other, bad], "pdf"))
    assert proj.table_recall() == 1.0
    f1 = {t.twin_id: t for t in proj.tables}
    first, second = (f1[u.id] for u in twin.units if u.table is not None)
    assert second.cell_f1 == 1.0 and second.teds == 1.0
    assert first.cell_f1 < 1.0 and first.teds < 1.0
    none = project(twin, tdoc([], "pdf"))
    assert none.table_recall() == 0.0
    assert none.table_teds() == 0.0


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.integers(0, len(P) - 1), min_size=1, max_size=8),
    st.lists(st.floats(0, 1), min_size=2, max_size=6),
)
def test_unit_recall_is_monotone_in_threshold(picks: list[int], ts: list[float]) -> None:
    twin = doc(P)
    parsed = doc([halves(P[i])[i % 2] if i % 3 else P[i] for i in picks], fmt="pdf")
    proj = project(twin, parsed)
    ts = sorted(ts)
    recalls = [proj.unit_recall(t) for t in ts]
    assert recalls == sorted(recalls, reverse=True)
    assert all(s in STATUSES for s in proj.statuses())
    for u in proj.units:
        assert 0.0 <= u.similarity <= 1.0


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 30), max_size=60), st.lists(st.integers(0, 30), max_size=60))
def test_match_words_is_one_to_one_and_on_equal_words(a: list[int], b: list[int]) -> None:
    m = match_words(a, b)
    assert len(set(m.values())) == len(m)
    assert all(a[i] == b[j] for i, j in m.items())


def test_twin_tex_against_pymupdf_parse(fixtures_dir: Path) -> None:
    """The real pair: the Quantum template's .tex twin against its PDF."""
    import docparse

    tex = fixtures_dir / "research" / "quantum-template" / "quantum-template.tex"
    pdf = fixtures_dir / "pdf" / "quantum-template" / "quantum-template.pdf"
    twin = docparse.parse(tex)
    parsed = docparse.parse(pdf, backend="pymupdf")
    proj = project(twin, parsed)
    assert proj.unit_recall(0.9) >= 0.85
    assert proj.word_recall() >= 0.95
    tau = proj.kendall_tau()
    assert tau is not None and tau > 0.9
    assert {p.page for p in proj.page_losses} <= set(range(1, (parsed.n_pages or 0) + 1))
