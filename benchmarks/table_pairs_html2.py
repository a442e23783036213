"""More HTML families of :mod:`benchmarks.table_pairs`, of what filings and papers print.

* ``multihead``: three levels of column heads (``Year Ended December 31,``
  over the years, each year over ``Amount`` and ``% of revenue``, joined by
  ``colspan``), footnote markers in heads (``(1)``, ``*``, ``†``);
* ``notes``: a units line (``(In millions, except per share data)``) as the
  first head row, footnote markers in labels and cells, nil cells printed
  ``—``, ``–`` or ``-``, sub-items indented on two levels, totals between a
  rule above and a double rule below, per-share rows of decimals;
* ``narrow``: five to eight value columns set with very little padding
  (columns a point or two apart), small type, ``$`` glued or in its cell;
* ``textcols``: right-aligned text columns beside numbers (a debt or
  property schedule: ``Senior notes`` | ``Fixed`` | ``2031`` | ``4.50%`` |
  amount), heads over two lines.

Scored as the other families by ``python -m benchmarks.table_pairs --family F``.
"""

from __future__ import annotations

import html

from benchmarks.table_pairs_html import _INCOME, _SECTIONS, _TITLES, Generator, _Style, _Table

HTML2_FAMILIES = ("multihead", "notes", "narrow", "textcols")

_MARKS = ("(1)", "(2)", "*", "\u2020", "(a)")
_NILS = ("\u2014", "\u2013", "-")
_DEBT = (
    "Senior notes",
    "Senior unsecured notes",
    "Convertible notes",
    "Term loan A",
    "Term loan B",
    "Revolving credit facility",
    "Commercial paper",
    "Finance lease obligations",
    "Mortgage notes",
    "Euro-denominated notes",
)
_RATE_KIND = ("Fixed", "Floating", "Variable", "Fixed / floating")
_SECURED = ("Secured", "Unsecured", "Subordinated")
_PER_SHARE = ("Basic", "Diluted")
_EXTRA_CSS = """
th.units {{ font-weight: normal; font-style: italic; text-align: left; }}
td.ind3 {{ padding-left: 3.6em; }}
td.rtext {{ text-align: right; }}
table.rules-notes tr:has(.tot) td:not(:first-child) {{
  border-top: 0.75pt solid #000; border-bottom: 2.2pt double #000; }}
table.rules-notes thead tr:last-child th {{ border-bottom: 0.75pt solid #000; }}
table.tight th, table.tight td {{ padding: 0.5pt {pad}pt; }}
"""


class Html2Generator(Generator):
    """Seeded writer of one HTML document of an ``HTML2_FAMILIES`` family."""

    pad = 5.0

    def nil(self) -> str:
        return self.rng.choice(_NILS)

    def amount2(self, magnitude: int = 5) -> str:
        """An amount whose nil cells are printed in any of the three dashes."""
        value = self.amount(magnitude)
        return self.nil() if value == "\u2014" else value

    def mark(self) -> str:
        return f"<sup>{html.escape(self.rng.choice(_MARKS))}</sup>"

    def multihead(self, style: _Style) -> _Table:
        """An income statement under period / year / (amount, % of revenue) heads."""
        rng = self.rng
        t = _Table()
        w = self.span(style)
        years = sorted(rng.sample(range(2015, 2025), rng.choice((2, 3))), reverse=True)
        per = w + 1
        period = rng.choice(("Year Ended December 31,", "Fiscal Years Ended", "Six Months Ended"))
        t.head.append([("", ""), (period, f'colspan="{per * len(years)}"')])
        t.head.append([("", ""), *[(str(y), f'colspan="{per}"') for y in years]])
        pct_head = rng.choice(("% of revenue", "% of Net Sales", "Percent"))
        amt_head = rng.choice(("Amount", "$", "Dollars"))
        if rng.random() < 0.5:
            pct_head += self.mark()
        t.head.append([("", ""), *[(amt_head, f'colspan="{w}"'), (pct_head, "")] * len(years)])
        items = rng.sample(_INCOME, rng.randint(5, len(_INCOME)))
        for i, item in enumerate(items):
            label = html.escape(item) + (self.mark() if rng.random() < 0.1 else "")
            row: list[tuple[str, str]] = [(label, "")]
            for _ in years:
                row += self.value_cells([self.amount2()], style, dollar=i == 0)
                row.append((self.percent(), 'class="num"'))
            t.body.append(row)
        row = [("Net income", 'class="tot"')]
        for _ in years:
            row += self.value_cells([self.amount(6)], style, dollar=True)
            row.append((self.percent(), 'class="num tot"'))
        t.body.append(row)
        return t

    def notes(self, style: _Style) -> _Table:
        """A statement with a units line, markers, nil dashes, two indent levels, per-share rows."""
        rng = self.rng
        t = _Table()
        w = self.span(style)
        n_cols = rng.choice((2, 3))
        years = sorted(rng.sample(range(2015, 2025), n_cols), reverse=True)
        units = rng.choice(
            (
                "(In millions, except per share data)",
                "(in thousands, except per share amounts)",
                "(Dollars in millions)",
            )
        )
        t.head.append([(units, f'class="units" colspan="{1 + w * n_cols}"')])
        t.head.append([("", ""), *[(str(y), f'colspan="{w}"') for y in years]])
        section, pool, total = rng.choice(_SECTIONS)
        t.body.append([(html.escape(section), 'class="sec"'), *[("", "")] * (w * n_cols)])
        first = True
        for item in rng.sample(pool, min(len(pool), rng.randint(3, 5))):
            label = html.escape(item) + (self.mark() if rng.random() < 0.2 else "")
            values = [self.amount2() for _ in range(n_cols)]
            if rng.random() < 0.15:
                values[rng.randrange(n_cols)] += self.mark()
            t.body.append([(label, 'class="ind"'), *self.value_cells(values, style, dollar=first)])
            first = False
            if rng.random() < 0.3:
                for sub in rng.sample(("Domestic", "Foreign", "Related parties", "Other"), 2):
                    values = [self.amount2(4) for _ in range(n_cols)]
                    t.body.append(
                        [(sub, 'class="ind3"'), *self.value_cells(values, style, dollar=False)]
                    )
        values = [self.amount(6) for _ in range(n_cols)]
        t.body.append(
            [
                (html.escape(total), 'class="ind2 tot"'),
                *self.value_cells(values, style, dollar=True),
            ]
        )
        t.body.append(
            [(rng.choice(("Earnings per share:", "Net income per share:")), 'class="sec"')]
            + [("", "")] * (w * n_cols)
        )
        for name in _PER_SHARE:
            values = [f"{rng.uniform(-3, 12):.2f}".replace("-", "(") for _ in range(n_cols)]
            values = [v + ")" if v.startswith("(") else v for v in values]
            t.body.append([(name, 'class="ind"'), *self.value_cells(values, style, dollar=True)])
        return t

    def narrow(self, style: _Style) -> _Table:
        """Five to eight value columns a point or two apart."""
        rng = self.rng
        t = _Table()
        w = self.span(style)
        n_cols = rng.randint(5, 8)
        if rng.random() < 0.5:
            heads = [str(y) for y in range(2024 - n_cols + 1, 2025)][::-1]
        else:
            heads = [f"Q{q} {y}" for y in (2023, 2024) for q in range(1, 5)][:n_cols]
        t.head.append([("", ""), *[(h, f'colspan="{w}"') for h in heads]])
        for i, item in enumerate(rng.sample(_INCOME, rng.randint(5, 9))):
            values = [self.amount2(4) for _ in range(n_cols)]
            row = [(html.escape(item), ""), *self.value_cells(values, style, dollar=i == 0)]
            t.body.append(row)
        values = [self.amount(5) for _ in range(n_cols)]
        t.body.append([("Total", 'class="tot"'), *self.value_cells(values, style, dollar=True)])
        return t

    def textcols(self, style: _Style) -> _Table:
        """A debt schedule: right-aligned text columns beside years, rates and amounts."""
        rng = self.rng
        t = _Table()
        w = self.span(style)
        year = rng.randint(2019, 2024)
        heads = [
            ("Instrument", ""),
            ("Rate<br>type", 'class="rtext"'),
            ("Ranking", 'class="rtext"'),
            ("Maturity<br>date", 'class="rtext"'),
            ("Interest<br>rate", 'class="rtext"'),
            (f"December 31,<br>{year}", f'colspan="{w}"'),
        ]
        t.head.append(heads)
        for i, name in enumerate(rng.sample(_DEBT, rng.randint(4, 8))):
            rate = f"{rng.uniform(0.5, 8):.2f}%" if rng.random() < 0.8 else "SOFR + 1.25%"
            row = [
                (html.escape(name), ""),
                (rng.choice(_RATE_KIND), 'class="rtext"'),
                (rng.choice(_SECURED), 'class="rtext"'),
                (str(rng.randint(year + 1, year + 30)), 'class="rtext"'),
                (html.escape(rate), 'class="rtext"'),
                *self.value_cells([self.amount(5)], style, dollar=i == 0),
            ]
            t.body.append(row)
        total = [("Total debt", 'class="tot"'), *[("", "")] * 4]
        t.body.append(total + self.value_cells([self.amount(6)], style, dollar=True))
        return t

    def css(self, style: _Style) -> str:
        return super().css(style) + _EXTRA_CSS.format(pad=self.pad)

    def table_html(self, t: _Table, style: _Style) -> str:
        out = super().table_html(t, style)
        if self.family == "narrow":
            out = out.replace('<table class="', '<table class="tight ', 1)
        return out

    def document(self) -> str:
        """The whole HTML document of this family and seed."""
        rng = self.rng
        fam = self.family
        if fam == "multihead":
            style = self.style(("none", "totals", "booktabs"))
            table = self.multihead(style)
        elif fam == "notes":
            style = self.style(("notes", "notes", "none", "booktabs"))
            table = self.notes(style)
        elif fam == "narrow":
            style = self.style(("none", "totals", "booktabs"))
            style.size = min(style.size, 9.0)
            self.pad = rng.choice((0.8, 1.2, 1.8))
            table = self.narrow(style)
        elif fam == "textcols":
            style = self.style(("none", "totals", "grid", "booktabs"))
            table = self.textcols(style)
        else:
            raise ValueError(f"unknown family {fam!r}")
        title = rng.choice(_TITLES)
        blocks = [f"<h2>{html.escape(title)}</h2>"]
        blocks += [f"<p>{self.paragraph()}</p>" for _ in range(rng.randint(1, 3))]
        blocks.append(self.table_html(table, style))
        blocks += [f"<p>{self.paragraph()}</p>" for _ in range(rng.randint(1, 2))]
        body = "\n".join(blocks)
        return (
            f'<!DOCTYPE html>\n<html><head><meta charset="utf-8">'
            f"<title>{html.escape(title)}</title>\n"
            f"<style>{self.css(style)}</style></head>\n<body>\n{body}\n</body></html>\n"
        )


def generate_html2(family: str, seed: int) -> str:
    """The HTML document of ``family`` (one of :data:`HTML2_FAMILIES`) drawn from ``seed``."""
    return Html2Generator(family, seed).document()
