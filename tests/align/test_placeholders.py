"""S2ORC/QASPER placeholders (BIBREFn, TABREFn, ...) match whatever the PDF prints there.

Each case pairs a QASPER-style evidence paragraph with the text a PDF text
layer gives for it (checked by hand against the layouts such papers use:
numeric and author-year citations, "Table 2", "Figure 1", "Eq. (3)",
"Section 4", inline and display formulas).
"""

from __future__ import annotations

import pytest

from align.locate import Locator
from docparse.builder import UnitDraft, build_document
from docparse.model import Document, Provenance

FILLER = (
    "We evaluate the models on three benchmarks and report averages over five runs. "
    "All hyper-parameters were tuned on the development sets of each benchmark."
)

CASES = {
    "BIBREF": (
        "RKS approach proposed in BIBREF21, BIBREF22, explicitly maps data vectors to a space "
        "where linear separation is possible, as shown by BIBREF3 for kernel machines.",
        "RKS approach proposed in [21, 22], explicitly maps data vectors to a space where "
        "linear separation is possible, as shown by Rahimi and Recht (2008) for kernel machines.",
    ),
    "TABREF": (
        "The results in TABREF12 show that the joint model outperforms every pipeline baseline "
        "on all three datasets by a wide margin.",
        "The results in Table 3 show that the joint model outperforms every pipeline baseline "
        "on all three datasets by a wide margin.",
    ),
    "FIGREF": (
        "As illustrated in FIGREF7, the attention weights concentrate on the negation cue and "
        "its scope in most of the sentences.",
        "As illustrated in Figure 2, the attention weights concentrate on the negation cue and "
        "its scope in most of the sentences.",
    ),
    "EQREF": (
        "The loss in EQREF15 is minimised with Adam, and the gradient of the second term is "
        "clipped to keep training stable.",
        "The loss in Eq. (4) is minimised with Adam, and the gradient of the second term is "
        "clipped to keep training stable.",
    ),
    "SECREF": (
        "We describe the annotation procedure in SECREF4 and discuss the agreement between the "
        "two annotators in SECREF19.",
        "We describe the annotation procedure in Section 3.2 and discuss the agreement between "
        "the two annotators in Appendix A.",
    ),
    "INLINEFORM": (
        "Each token INLINEFORM0 is embedded into a vector INLINEFORM1 of dimension INLINEFORM2 "
        "before it enters the encoder layers of the network.",
        "Each token wi is embedded into a vector ei ∈ Rd of dimension d = 300 before it enters "
        "the encoder layers of the network.",
    ),
    "DISPLAYFORM": (
        "The score of a candidate answer is computed as DISPLAYFORM0 where the sum runs over "
        "all the passages retrieved for the question.",
        "The score of a candidate answer is computed as s(a) = ∑ p∈P σ(w⊤hp) (2) where the "
        "sum runs over all the passages retrieved for the question.",
    ),
}


def _doc(text: str) -> Document:
    drafts = [
        UnitDraft("paragraph", FILLER, provenance=(Provenance(1),)),
        UnitDraft("paragraph", text, provenance=(Provenance(2),)),
    ]
    return build_document(path="x.pdf", format="pdf", backend="test", doc_id="d", drafts=drafts)


@pytest.mark.parametrize("family", list(CASES))
def test_placeholder_matches_what_the_pdf_prints(family: str) -> None:
    evidence, printed = CASES[family]
    doc = _doc(printed)
    m = Locator(doc).locate(evidence)
    assert m.found and m.coverage >= 0.97, (family, m)
    assert m.unit_ids == (doc.units[1].id,) and m.page == 2


def test_placeholders_are_not_free_text() -> None:
    # Only the placeholder is a wildcard: the words around it must still be there.
    evidence, _ = CASES["BIBREF"]
    doc = _doc("RKS approach proposed in [21, 22] was later extended to other kernels.")
    m = Locator(doc).locate(evidence)
    assert not m.found
