"""The HTML families of :mod:`benchmarks.table_pairs`: a seeded generator of HTML tables.

A seeded generator writes small HTML documents, one style family each,
varying what filings and papers vary (the families are listed in
:mod:`benchmarks.table_pairs`). Headless Chromium prints them to PDF; the
``.htm`` read with docparse's own reader is the gold twin.
"""

from __future__ import annotations

import html
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

#: ``pagepair``: two different tables with the same column count, the second
#: starting the next page (they must stay two tables).
FAMILIES = ("statement", "quarters", "ruled", "zebra", "wrapped", "two", "long", "pagepair")

# ---------------------------------------------------------------------------
# Vocabulary

_ASSETS = (
    "Cash and cash equivalents",
    "Short-term investments",
    "Accounts receivable, net",
    "Inventories",
    "Prepaid expenses and other current assets",
    "Restricted cash",
    "Income taxes receivable",
)
_LONG_ASSETS = (
    "Property and equipment, net",
    "Operating lease right-of-use assets",
    "Goodwill",
    "Acquisition-related intangibles, net",
    "Deferred tax assets",
    "Equity method investments",
    "Other non-current assets",
)
_LIABILITIES = (
    "Accounts payable",
    "Accrued and other current liabilities",
    "Payables to related parties",
    "Current portion of long-term debt, net",
    "Deferred revenue",
    "Operating lease liabilities",
    "Income taxes payable",
)
_OPERATIONS = (
    "Net income (loss)",
    "Depreciation and amortization",
    "Stock-based compensation",
    "Deferred income taxes",
    "Inventory loss at contract manufacturer",
    "Amortization of operating lease right-of-use assets",
    "Loss on debt redemption, repurchase and conversion",
    "Other, net",
)
_EQUITY = (
    "Common stock, par value $0.01",
    "Additional paid-in capital",
    "Treasury stock, at cost",
    "Accumulated deficit",
    "Accumulated other comprehensive loss",
)
_INVESTING = (
    "Purchases of property and equipment",
    "Purchases of short-term investments",
    "Proceeds from maturity of short-term investments",
    "Acquisitions, net of cash acquired",
    "Proceeds from sale of equity investments",
    "Other, net",
)
_FINANCING = (
    "Proceeds from issuance of common stock",
    "Repurchases of common stock",
    "Repayment of debt",
    "Proceeds from short-term borrowings",
    "Common stock repurchases for tax withholding on employee equity plans",
    "Other, net",
)
_INCOME = (
    "Net revenue",
    "Cost of sales",
    "Research and development",
    "Marketing, general and administrative",
    "Amortization of acquisition-related intangibles",
    "Restructuring charges",
    "Licensing gain",
    "Interest expense",
    "Other income (expense), net",
    "Income tax provision (benefit)",
)
_SECTIONS = (
    ("Current assets:", _ASSETS, "Total current assets"),
    ("Non-current assets:", _LONG_ASSETS, "Total non-current assets"),
    ("Current liabilities:", _LIABILITIES, "Total current liabilities"),
    ("Stockholders’ equity:", _EQUITY, "Total stockholders’ equity"),
    ("Operating activities:", _OPERATIONS, "Net cash provided by operating activities"),
    ("Investing activities:", _INVESTING, "Net cash used in investing activities"),
    ("Financing activities:", _FINANCING, "Net cash used in financing activities"),
)
_SEGMENTS = (
    "Data Center",
    "Client",
    "Gaming",
    "Embedded",
    "Industrial and Automotive",
    "Consumer Health",
    "Pharmaceutical",
    "MedTech",
    "North America",
    "Europe, Middle East and Africa",
    "Asia Pacific",
    "Latin America",
)
_WRAPPING = (
    "Net cash provided by (used in) operating activities of continuing operations",
    "Unrealized gains (losses) on available-for-sale debt securities, net of tax",
    "Reclassification of actuarial losses and prior service costs to net income",
    "Purchases of property, plant and equipment and capitalized software costs",
    "Proceeds from the issuance of common stock under employee equity plans",
    "Effect of exchange rate changes on cash, cash equivalents and restricted cash",
    "Impairment of goodwill and long-lived assets held for sale or disposal",
    "Changes in fair value of contingent consideration for acquired businesses",
)
_METHODS = (
    "Baseline",
    "Logistic regression",
    "Random forest",
    "Gradient boosting",
    "Transformer (base)",
    "Transformer (large)",
    "BiLSTM-CRF",
    "Nearest neighbour",
    "Ours",
    "Ours w/o pretraining",
)
_DATASETS = ("CoNLL", "SQuAD", "MNIST", "ImageNet", "WikiText", "PubMed", "arXiv", "SST-2")
_TEXT_HEADS = ("Method", "Model", "System", "Approach")
_NUM_HEADS = ("Accuracy", "F1", "Precision", "Recall", "BLEU", "Params (M)", "Time (s)", "Error")
_PROSE = (
    "the company recorded revenue growth in each segment during the year while operating "
    "expenses rose with higher headcount and investment in research programs management "
    "believes that cash flows from operations together with available credit facilities "
    "will be sufficient to meet working capital needs for at least the next twelve months "
    "results of the evaluation are summarised below and discussed in the following section "
    "each model was trained three times with different random seeds and the mean is reported"
)
_WORDS = tuple(_PROSE.split())
_TITLES = (
    "Consolidated Balance Sheets",
    "Consolidated Statements of Operations",
    "Consolidated Statements of Cash Flows",
    "Summary of Segment Results",
    "Selected Quarterly Financial Data",
    "Results on the Test Sets",
    "Comparison of Methods",
    "Revenue by Geographic Region",
)


# ---------------------------------------------------------------------------
# The generator


@dataclass
class _Style:
    """The drawing choices of one table (drawn once per table from the seed)."""

    rules: str  # "none", "totals", "grid", "booktabs"
    zebra: bool
    dollar: str  # "cell", "glued", "none"
    caption: str  # "top", "bottom", "none"
    font: str
    size: float  # pt
    label_width: str | None = None  # CSS width of the label column (wrapped labels)


@dataclass
class _Table:
    """A generated table as HTML rows: ``head`` and ``body`` rows of ``(html, attrs)`` cells."""

    head: list[list[tuple[str, str]]] = field(default_factory=list)
    body: list[list[tuple[str, str]]] = field(default_factory=list)
    caption: str = ""


class Generator:
    """Seeded writer of one HTML document of a style family."""

    def __init__(self, family: str, seed: int) -> None:
        self.family = family
        self.seed = seed
        self.rng = random.Random(f"{family}-{seed}")
        self.n_tables = 0

    # -- values ------------------------------------------------------------

    def amount(self, magnitude: int = 5) -> str:
        """An amount as filings print it: ``1,234``, ``(567)`` or ``—``."""
        r = self.rng.random()
        if r < 0.08:
            return "\u2014"
        value = self.rng.randint(1, 10 ** self.rng.randint(2, magnitude))
        text = f"{value:,}"
        return f"({text})" if r < 0.25 else text

    def percent(self) -> str:
        value = self.rng.uniform(-30, 80)
        text = f"{abs(value):.1f}"
        return f"({text})%" if value < 0 else f"{text}%"

    def decimal(self) -> str:
        return f"{self.rng.uniform(0, 100):.{self.rng.choice((1, 2))}f}"

    def sentence(self, n: int) -> str:
        words = [self.rng.choice(_WORDS) for _ in range(n)]
        return " ".join(words).capitalize() + "."

    def paragraph(self) -> str:
        return " ".join(
            self.sentence(self.rng.randint(8, 18)) for _ in range(self.rng.randint(2, 4))
        )

    # -- styles ------------------------------------------------------------

    def style(self, rules: Sequence[str], zebra: float = 0.0) -> _Style:
        rng = self.rng
        return _Style(
            rules=rng.choice(list(rules)),
            zebra=rng.random() < zebra,
            dollar=rng.choice(("cell", "cell", "glued", "none")),
            caption=rng.choice(("top", "top", "bottom", "none")),
            font=rng.choice(("Times New Roman, serif", "Arial, sans-serif", "DejaVu Sans")),
            size=rng.choice((8.0, 9.0, 10.0, 11.0)),
        )

    def value_cells(self, values: list[str], style: _Style, dollar: bool) -> list[tuple[str, str]]:
        """The cells of ``values`` in one row: a ``$`` cell before each when the style splits it."""
        out: list[tuple[str, str]] = []
        for v in values:
            sign = dollar and v not in ("\u2014", "")
            if style.dollar == "cell":
                out.append(("$" if sign else "", 'class="sym"'))
                out.append((v, 'class="num"'))
            else:
                glued = "$" + v if sign and style.dollar == "glued" else v
                out.append((glued, 'class="num"'))
        return out

    def span(self, style: _Style) -> int:
        """Grid columns one value column takes."""
        return 2 if style.dollar == "cell" else 1

    # -- tables --------------------------------------------------------------

    def caption(self) -> str:
        self.n_tables += 1
        title = self.rng.choice(_TITLES)
        if self.rng.random() < 0.5:
            return f"Table {self.n_tables}. {title}"
        return f"Table {self.n_tables}: {title} ({self.rng.choice(('in millions', 'unaudited'))})"

    def statement(self, style: _Style, rows: int | None = None) -> _Table:
        """A balance sheet or cash-flow statement with sections and subtotals."""
        rng = self.rng
        n_cols = rng.choice((2, 2, 3))
        years = sorted(rng.sample(range(2015, 2025), n_cols), reverse=True)
        t = _Table()
        w = self.span(style)
        if rng.random() < 0.4:
            t.head.append([("", ""), ("(In millions)", f'colspan="{w * n_cols}"')])
        if rng.random() < 0.5:
            heads = [f"December {rng.choice((25, 28, 31))}, {y}" for y in years]
        else:
            heads = [str(y) for y in years]
        t.head.append([("", ""), *[(h, f'colspan="{w}"') for h in heads]])
        # Sections in statement order, none twice: a section label that
        # recurs under the first values is a second table's header to a
        # reader (two blocks of one layout stacked), not one table.
        start = rng.randrange(len(_SECTIONS))
        sections = _SECTIONS[start:] + _SECTIONS[:start]
        budget = rows or rng.randint(8, 16)
        first = True
        marks = 0
        for section, pool, total in sections:
            if budget <= 0:
                break
            t.body.append([(section, 'class="sec"'), *[("", "")] * (w * n_cols)])
            items = rng.sample(pool, min(len(pool), rng.randint(2, 5 if rows is None else 7)))
            for item in items:
                label = html.escape(item)
                if marks < 2 and rng.random() < 0.12:
                    marks += 1
                    label += f"<sup>({marks})</sup>"
                values = [self.amount() for _ in range(n_cols)]
                t.body.append(
                    [(label, 'class="ind"'), *self.value_cells(values, style, dollar=first)]
                )
                first = False
            values = [self.amount(6) for _ in range(n_cols)]
            t.body.append(
                [(total, 'class="ind2 tot"'), *self.value_cells(values, style, dollar=True)]
            )
            budget -= len(items) + 2
        return t

    def quarters(self, style: _Style) -> _Table:
        """An income statement under two-level spanning heads."""
        rng = self.rng
        t = _Table()
        w = self.span(style)
        if rng.random() < 0.5:
            years = sorted(rng.sample(range(2015, 2025), 2), reverse=True)
            subs = [f"Q{q}" for q in range(rng.choice((2, 3)), 5)]
            groups = [str(y) for y in years]
        else:
            groups = ["Three Months Ended", "Nine Months Ended"]
            subs = [f"Sept. {rng.choice((24, 28, 30))}, {y}" for y in (2023, 2022)]
        pct = rng.random() < 0.4
        per = len(subs) + pct
        t.head.append([("", ""), *[(g, f'colspan="{w * len(subs) + pct}"') for g in groups]])
        sub_cells = [(s, f'colspan="{w}"') for s in subs]
        if pct:
            sub_cells.append(("% Change", ""))
        t.head.append([("", ""), *(sub_cells * len(groups))])
        items = rng.sample(_INCOME, rng.randint(6, len(_INCOME)))
        for i, item in enumerate(items):
            row: list[tuple[str, str]] = [(html.escape(item), "")]
            for _ in groups:
                row += self.value_cells([self.amount() for _ in subs], style, dollar=i == 0)
                if pct:
                    row.append((self.percent(), 'class="num"'))
            t.body.append(row)
            if i == 2 or i == len(items) - 1:
                label = "Operating income (loss)" if i == 2 else "Net income (loss)"
                row = [(label, 'class="tot"')]
                for _ in groups:
                    row += self.value_cells([self.amount(6) for _ in subs], style, dollar=True)
                    if pct:
                        row.append((self.percent(), 'class="num tot"'))
                t.body.append(row)
        assert per  # every group has its columns
        return t

    def research(self, style: _Style, rows: int | None = None) -> _Table:
        """A results table: text columns, then decimals; some cells empty."""
        rng = self.rng
        t = _Table()
        heads = [rng.choice(_TEXT_HEADS)]
        if rng.random() < 0.5:
            heads.append("Dataset")
        nums = rng.sample(_NUM_HEADS, rng.randint(2, 5))
        t.head.append([(h, "") for h in heads + nums])
        for _ in range(rows or rng.randint(4, 12)):
            row: list[tuple[str, str]] = [(rng.choice(_METHODS), "")]
            if len(heads) > 1:
                row.append((rng.choice(_DATASETS), ""))
            for _ in nums:
                cell = "" if rng.random() < 0.07 else self.decimal()
                row.append((cell, 'class="num"'))
            t.body.append(row)
        return t

    def segments(self, style: _Style, wrap: bool = False) -> _Table:
        """Segment or region rows with amounts and a share column; long labels if ``wrap``."""
        rng = self.rng
        t = _Table()
        w = self.span(style)
        years = sorted(rng.sample(range(2015, 2025), rng.choice((2, 3))), reverse=True)
        share = rng.random() < 0.5
        heads = [(str(y), f'colspan="{w}"') for y in years]
        if share:
            heads.append(("Share of total", ""))
        t.head.append([("Segment" if not wrap else "", ""), *heads])
        labels = list(_WRAPPING if wrap else _SEGMENTS)
        rng.shuffle(labels)
        if wrap:
            labels = [lab if rng.random() < 0.6 else rng.choice(_SEGMENTS) for lab in labels]
        for i, lab in enumerate(labels[: rng.randint(4, len(labels))]):
            values = [self.amount() for _ in years]
            if wrap:
                values = [v if rng.random() > 0.15 else "" for v in values]
            row = [(html.escape(lab), ""), *self.value_cells(values, style, dollar=i == 0)]
            if share:
                row.append((self.percent(), 'class="num"'))
            t.body.append(row)
        total = [self.amount(6) for _ in years]
        row = [("Total", 'class="tot"'), *self.value_cells(total, style, dollar=True)]
        if share:
            row.append(("100.0%", 'class="num tot"'))
        t.body.append(row)
        return t

    # -- the document ----------------------------------------------------------

    def table_html(self, t: _Table, style: _Style) -> str:
        cls = [f"rules-{style.rules}"]
        if style.zebra:
            cls.append("zebra")
        parts = [f'<table class="{" ".join(cls)}">']
        if style.caption != "none":
            side = "bottom" if style.caption == "bottom" else "top"
            parts.append(
                f'<caption style="caption-side: {side}">{html.escape(self.caption())}</caption>'
            )
        parts.append("<thead>")
        for row in t.head:
            cells = "".join(f"<th {a}>{c}</th>" for c, a in row)
            parts.append(f"<tr>{cells}</tr>")
        parts.append("</thead><tbody>")
        for row in t.body:
            cells = "".join(f"<td {a}>{c}</td>" for c, a in row)
            parts.append(f"<tr>{cells}</tr>")
        parts.append("</tbody></table>")
        return "\n".join(parts)

    def css(self, style: _Style) -> str:
        label = f"width: {style.label_width};" if style.label_width else ""
        return f"""
body {{ font-family: {style.font}; font-size: {style.size}pt; margin: 0.6in; }}
p {{ text-align: justify; }}
table {{ border-collapse: collapse; margin: 1em 0; }}
caption {{ font-weight: bold; padding: 4pt; text-align: left; }}
th, td {{ padding: 1pt 5pt; vertical-align: bottom; }}
th {{ font-weight: bold; text-align: center; }}
td:first-child {{ text-align: left; {label} }}
td.num {{ text-align: right; }}
td.sym {{ text-align: left; padding-right: 0; }}
td.sec {{ font-weight: bold; }}
td.ind {{ padding-left: 1.2em; }}
td.ind2 {{ padding-left: 2.4em; }}
table.rules-grid td, table.rules-grid th {{ border: 0.75pt solid #000; }}
table.rules-booktabs {{ border-top: 1.2pt solid #000; border-bottom: 1.2pt solid #000; }}
table.rules-booktabs thead tr:last-child th {{ border-bottom: 0.6pt solid #000; }}
table.rules-totals thead tr:last-child th {{ border-bottom: 0.75pt solid #000; }}
table.rules-totals tr:has(.tot) td {{ border-top: 0.75pt solid #000; }}
table.rules-totals tr:has(.tot) td:first-child {{ border-top: none; }}
table.zebra tbody tr:nth-child(odd) td {{ background: #dde6f0; }}
* {{ -webkit-print-color-adjust: exact; print-color-adjust: exact; }}
"""

    def tables(self) -> list[tuple[_Table, _Style]]:
        """The tables of this family's document, each with its style."""
        rng = self.rng
        fam = self.family
        if fam == "statement":
            style = self.style(("none", "totals", "totals", "booktabs"))
            tables = [(self.statement(style), style)]
        elif fam == "quarters":
            style = self.style(("none", "totals", "booktabs"))
            tables = [(self.quarters(style), style)]
        elif fam == "ruled":
            style = self.style(("grid",))
            pick: Callable[[_Style], _Table] = rng.choice((self.research, self.segments))
            tables = [(pick(style), style)]
        elif fam == "zebra":
            style = self.style(("none", "booktabs"), zebra=1.0)
            pick = rng.choice((self.research, self.segments, self.statement))
            tables = [(pick(style), style)]
        elif fam == "wrapped":
            style = self.style(("none", "totals", "grid"))
            style.label_width = rng.choice(("1.6in", "1.9in", "2.2in"))
            tables = [(self.segments(style, wrap=True), style)]
        elif fam == "two":
            style = self.style(("none", "totals", "grid", "booktabs"), zebra=0.3)
            style.size = min(style.size, 9.0)
            a = rng.choice((self.research, self.segments))(style)
            b = rng.choice((self.research, self.segments))(style)
            tables = [(a, style), (b, style)]
        elif fam == "long":
            style = self.style(("none", "totals", "grid", "booktabs"), zebra=0.3)
            long_table = (
                self.statement(style, rows=rng.randint(45, 70))
                if rng.random() < 0.5
                else self.research(style, rows=rng.randint(50, 75))
            )
            tables = [(long_table, style)]
        elif fam == "pagepair":
            style = self.style(("none", "totals", "grid", "booktabs"), zebra=0.3)
            first = self.research(style, rows=rng.randint(25, 45))
            second = self.research(style)
            for _ in range(50):  # the same column count, other heads
                if len(second.head[0]) == len(first.head[0]) and second.head != first.head:
                    break
                second = self.research(style)
            tables = [(first, style), (second, style)]
        else:
            raise ValueError(f"unknown family {fam!r}")
        return tables

    def document(self) -> str:
        """The whole HTML document of this family and seed."""
        rng = self.rng
        fam = self.family
        blocks: list[str] = []
        tables = self.tables()
        title = rng.choice(_TITLES)
        blocks.append(f"<h2>{html.escape(title)}</h2>")
        for _ in range(rng.randint(1, 3) if fam != "long" else 3):
            blocks.append(f"<p>{self.paragraph()}</p>")
        for i, (t, st) in enumerate(tables):
            if i and fam == "pagepair":
                # The second table starts the next page, right after the first.
                blocks.append('<div style="break-before: page"></div>')
            elif i:
                blocks.append(f"<p>{self.paragraph()}</p>")
            blocks.append(self.table_html(t, st))
        for _ in range(rng.randint(1, 2)):
            blocks.append(f"<p>{self.paragraph()}</p>")
        body = "\n".join(blocks)
        return (
            f'<!DOCTYPE html>\n<html><head><meta charset="utf-8">'
            f"<title>{html.escape(title)}</title>\n"
            f"<style>{self.css(tables[0][1])}</style></head>\n<body>\n{body}\n</body></html>\n"
        )


def generate(family: str, seed: int) -> str:
    """The HTML document of ``family`` drawn from ``seed`` (same seed, same document)."""
    if family not in FAMILIES:
        from benchmarks.table_pairs_html2 import generate_html2

        return generate_html2(family, seed)
    return Generator(family, seed).document()
