"""The LaTeX families of :mod:`benchmarks.table_pairs`: seeded ``.tex`` tables, pdflatex-compiled.

* ``texpaper``: a results table with booktabs rules, a ``\\multirow`` stub
  grouping methods by dataset, ``\\midrule`` between the groups;
* ``texgroups``: year groups over quarters (``\\multicolumn`` heads with
  ``\\cmidrule`` under each), amounts with ``\\$``, ``(negatives)``, ``---``,
  a percent column;
* ``texstatement``: a statement with section label rows, indented labels
  (``\\quad``) and totals under a ``\\cmidrule``;
* ``texlong``: a ``longtable`` over a page break, its head repeated on each
  page (``\\endfirsthead``, ``\\endhead`` under a "continued" line,
  ``\\endfoot`` "Continued on next page");
* ``texlongplain``: a ``longtable`` over a page break with its head on the
  first page only (no ``\\endhead``).

The ``.tex`` read by docparse's LaTeX reader is the gold twin.
"""

from __future__ import annotations

from benchmarks.table_pairs_html import (
    _DATASETS,
    _INCOME,
    _METHODS,
    _NUM_HEADS,
    _SECTIONS,
    Generator,
)

TEX_FAMILIES = ("texpaper", "texgroups", "texstatement", "texlong", "texlongplain")


def _esc(text: str) -> str:
    """``text`` with LaTeX's special characters escaped."""
    for a, b in (("\\", r"\textbackslash{}"), ("&", r"\&"), ("%", r"\%"), ("$", r"\$")):
        text = text.replace(a, b)
    for ch in "#_{}":
        text = text.replace(ch, "\\" + ch)
    return text.replace("\u2014", "---").replace("\u2019", "'")


class TexGenerator(Generator):
    """Seeded writer of one LaTeX document of a ``tex*`` family."""

    def tex_amount(self, dollar: bool, magnitude: int = 5) -> str:
        value = self.amount(magnitude)
        if dollar and value != "\u2014":
            value = "$" + value
        return _esc(value)

    def paper(self) -> tuple[str, str]:
        """(column spec, rows) of a results table grouped by dataset."""
        rng = self.rng
        nums = rng.sample(_NUM_HEADS, rng.randint(2, 4))
        lines = [" & ".join(["Dataset", "Method", *(_esc(h) for h in nums)]) + r" \\", r"\midrule"]
        for g, data in enumerate(rng.sample(_DATASETS, rng.randint(2, 3))):
            if g:
                lines.append(r"\midrule")
            methods = rng.sample(_METHODS, rng.randint(2, 4))
            for i, m in enumerate(methods):
                stub = rf"\multirow{{{len(methods)}}}{{*}}{{{data}}}" if i == 0 else ""
                lines.append(" & ".join([stub, _esc(m), *(self.decimal() for _ in nums)]) + r" \\")
        return "ll" + "r" * len(nums), "\n".join(lines)

    def groups(self) -> tuple[str, str]:
        """(column spec, rows) of an income statement under year groups over quarters."""
        rng = self.rng
        years = sorted(rng.sample(range(2015, 2025), 2), reverse=True)
        subs = [f"Q{q}" for q in range(rng.choice((2, 3)), 5)]
        pct = rng.random() < 0.5
        per = len(subs) + pct
        heads = [rf"\multicolumn{{{per}}}{{c}}{{{y}}}" for y in years]
        rules = "".join(
            rf"\cmidrule(lr){{{2 + k * per}-{1 + (k + 1) * per}}}" for k in range(len(years))
        )
        sub = [*subs, r"\%"] if pct else subs
        lines = [
            " & ".join(["", *heads]) + r" \\",
            rules,
            " & ".join(["", *(sub * len(years))]) + r" \\",
            r"\midrule",
        ]
        for i, item in enumerate(rng.sample(_INCOME, rng.randint(5, len(_INCOME)))):
            cells = [_esc(item)]
            for _ in years:
                cells += [self.tex_amount(i == 0) for _ in subs]
                if pct:
                    cells.append(_esc(self.percent()))
            lines.append(" & ".join(cells) + r" \\")
        return "l" + "r" * per * len(years), "\n".join(lines)

    def statement(self) -> tuple[str, str]:
        """(column spec, rows) of a statement with sections, indented labels and totals."""
        rng = self.rng
        n_cols = rng.choice((2, 3))
        years = sorted(rng.sample(range(2015, 2025), n_cols), reverse=True)
        lines = [" & ".join(["", *(str(y) for y in years)]) + r" \\", r"\midrule"]
        start = rng.randrange(len(_SECTIONS))
        sections = (_SECTIONS[start:] + _SECTIONS[:start])[: rng.randint(2, 3)]
        first = True
        for section, pool, total in sections:
            lines.append(" & ".join([_esc(section), *[""] * n_cols]) + r" \\")
            for item in rng.sample(pool, rng.randint(2, 4)):
                cells = [r"\quad " + _esc(item), *(self.tex_amount(first) for _ in years)]
                lines.append(" & ".join(cells) + r" \\")
                first = False
            lines.append(rf"\cmidrule(l){{2-{1 + n_cols}}}")
            cells = [r"\quad\quad " + _esc(total), *(self.tex_amount(True, 6) for _ in years)]
            lines.append(" & ".join(cells) + r" \\")
        return "l" + "r" * n_cols, "\n".join(lines)

    def long_rows(self) -> tuple[str, str, int]:
        """(column spec, head row, columns) and rows of a table long enough for two pages."""
        rng = self.rng
        if rng.random() < 0.5:
            nums = rng.sample(_NUM_HEADS, rng.randint(2, 4))
            head = " & ".join(["Method", "Dataset", *(_esc(h) for h in nums)]) + r" \\"
            rows = [
                " & ".join([_esc(rng.choice(_METHODS)), rng.choice(_DATASETS)])
                + "".join(" & " + self.decimal() for _ in nums)
                + r" \\"
                for _ in range(rng.randint(55, 80))
            ]
            return "ll" + "r" * len(nums), head + "\n" + "\n".join(rows), 2 + len(nums)
        years = sorted(rng.sample(range(2015, 2025), rng.choice((2, 3))), reverse=True)
        head = " & ".join(["", *(str(y) for y in years)]) + r" \\"
        labels = [item for _, pool, _ in _SECTIONS for item in pool] + list(_INCOME)
        rows = [
            " & ".join([_esc(rng.choice(labels)), *(self.tex_amount(False) for _ in years)])
            + r" \\"
            for _ in range(rng.randint(55, 80))
        ]
        return "l" + "r" * len(years), head + "\n" + "\n".join(rows), 1 + len(years)

    def long_document(self) -> str:
        """A ``longtable`` over a page break, its head repeated unless ``texlongplain``."""
        rng = self.rng
        spec, rows, n = self.long_rows()
        head, body = rows.split("\n", 1)
        caption = rf"\caption{{{_esc(self.caption().split(' ', 2)[2])}}} \\"
        if self.family == "texlong":
            heads = [
                caption,
                r"\toprule",
                head,
                r"\midrule",
                r"\endfirsthead",
                rf"\multicolumn{{{n}}}{{l}}{{\tablename\ \thetable{{}} (continued)}} \\",
                r"\toprule",
                head,
                r"\midrule",
                r"\endhead",
                rf"\midrule \multicolumn{{{n}}}{{r}}{{Continued on next page}} \\",
                r"\endfoot",
                r"\bottomrule",
                r"\endlastfoot",
            ]
        else:
            heads = [caption, r"\toprule", head, r"\midrule", r"\endfirsthead"]
        parts = [
            r"\documentclass[11pt]{article}",
            r"\usepackage[T1]{fontenc}",
            r"\usepackage{lmodern}",
            r"\usepackage{booktabs,longtable}",
            r"\usepackage[margin=1in]{geometry}",
            r"\begin{document}",
            rf"\section{{{_esc(rng.choice(('Results', 'Financial Statements', 'Appendix')))}}}",
            *(self.paragraph() + "\n" for _ in range(rng.randint(1, 4))),
            rf"\begin{{longtable}}{{{spec}}}",
            *heads,
            body,
            *([] if self.family == "texlong" else [r"\bottomrule"]),
            r"\end{longtable}",
            "",
            self.paragraph(),
            r"\end{document}",
            "",
        ]
        return "\n".join(parts)

    def document(self) -> str:
        """The whole LaTeX document of this family and seed."""
        rng = self.rng
        if self.family in ("texlong", "texlongplain"):
            return self.long_document()
        build = {"texpaper": self.paper, "texgroups": self.groups, "texstatement": self.statement}
        if self.family not in build:
            raise ValueError(f"unknown family {self.family!r}")
        spec, rows = build[self.family]()
        caption = rf"\caption{{{_esc(self.caption().split(' ', 2)[2])}}}"
        top = rng.random() < 0.6
        size = rng.choice(("", r"\small", r"\footnotesize"))
        parts = [
            r"\documentclass[11pt]{article}",
            # Latin Modern: T1 without it is EC bitmap fonts, whose ``fi`` maps to nothing.
            r"\usepackage[T1]{fontenc}",
            r"\usepackage{lmodern}",
            r"\usepackage{booktabs,multirow}",
            r"\usepackage[margin=1in]{geometry}",
            r"\begin{document}",
            rf"\section{{{_esc(rng.choice(('Results', 'Financial Statements', 'Evaluation')))}}}",
            *(self.paragraph() + "\n" for _ in range(rng.randint(1, 2))),
            r"\begin{table}[h]",
            r"\centering",
            size,
            caption if top else "",
            rf"\begin{{tabular}}{{{spec}}}",
            r"\toprule",
            rows,
            r"\bottomrule",
            r"\end{tabular}",
            "" if top else caption,
            r"\end{table}",
            "",
            self.paragraph(),
            r"\end{document}",
            "",
        ]
        return "\n".join(parts)


def generate_tex(family: str, seed: int) -> str:
    """The LaTeX document of ``family`` drawn from ``seed`` (same seed, same document)."""
    return TexGenerator(family, seed).document()
