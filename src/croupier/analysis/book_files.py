"""A :class:`~croupier.analysis.book.ParBook` written as a spreadsheet (xlsxwriter) or a PDF
(fpdf2), in the order labs read a par sheet: heading (game, chapter, version, date), summary,
each wager's outcome table, every pay-table letter with its pay lines and price, the optimal
strategy, the rules in force."""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from croupier.analysis.book import (
    LETTER_HEADER,
    OUTCOME_HEADER,
    SUMMARY_HEADER,
    LetterPrice,
    ParBook,
    outcome_rows,
    summary_rows,
)
from croupier.analysis.par import exact
from croupier.core.reading import save_file

__all__ = ["write_pdf", "write_xlsx"]


def _letter_row(lp: LetterPrice) -> tuple[str, ...]:
    edge = f"{float(lp.sheet.house_edge):.6%}" if lp.sheet is not None else lp.problem
    return (
        lp.wager,
        lp.letter,
        lp.section,
        "yes" if lp.current else "",
        edge,
        exact(lp.sheet.house_edge) if lp.sheet is not None else "",
        lp.pay_lines,
    )


def _sheet_name(text: str, taken: set[str]) -> str:
    name = re.sub(r"[\[\]:*?/\\]", "-", text)[:31]
    base, n = name, 2
    while name.lower() in taken:
        suffix = f" {n}"
        name, n = base[: 31 - len(suffix)] + suffix, n + 1
    taken.add(name.lower())
    return name


# ---------------------------------------------------------------------------------------------
# XLSX


def write_xlsx(book: ParBook, path: str | Path) -> Path:
    """Write ``book`` as an .xlsx workbook: Summary, one sheet per wager, Pay tables,
    Strategy, Rules."""
    import xlsxwriter

    target = Path(path)
    buffer = io.BytesIO()
    workbook = xlsxwriter.Workbook(buffer, {"in_memory": True})
    fmt = {
        "bold": workbook.add_format({"bold": True}),
        "head": workbook.add_format({"bold": True, "bg_color": "#F0F0F0", "border": 1}),
        "pct": workbook.add_format({"num_format": "0.000000%"}),
        "int": workbook.add_format({"num_format": "#,##0"}),
        "prob": workbook.add_format({"num_format": "0.0000000000"}),
        "num": workbook.add_format({"num_format": "0.000000"}),
        "wrap": workbook.add_format({"text_wrap": True, "valign": "top"}),
    }
    taken: set[str] = set()
    summary = workbook.add_worksheet(_sheet_name("Summary", taken))
    row = _xlsx_heading(summary, book, fmt)
    summary.write_row(row, 0, SUMMARY_HEADER, fmt["head"])
    for i, (ws, values) in enumerate(zip(book.wagers, summary_rows(book), strict=True), row + 1):
        summary.write_row(i, 0, values[:2])
        summary.write_number(i, 2, float(ws.house_edge), fmt["pct"])
        summary.write(i, 3, values[3])
        summary.write_number(i, 4, float(ws.element_of_risk), fmt["pct"])
        summary.write_number(i, 5, float(ws.hit_frequency), fmt["pct"])
        summary.write_number(i, 6, ws.std_dev, fmt["num"])
        summary.write(i, 7, values[7])
    notes_at = row + len(book.wagers) + 2
    for i, note in enumerate(book.sheet.notes):
        summary.write(notes_at + i, 0, f"note: {note}")
    summary.set_column(0, 1, 26)
    summary.set_column(2, 7, 18)
    for ws in book.wagers:
        _xlsx_wager(workbook.add_worksheet(_sheet_name(f"W {ws.wager}", taken)), ws, fmt)
    letters = workbook.add_worksheet(_sheet_name("Pay tables", taken))
    letters.write_row(0, 0, LETTER_HEADER, fmt["head"])
    for i, lp in enumerate(book.letters, 1):
        letters.write_row(i, 0, _letter_row(lp))
    letters.set_column(0, 5, 18)
    letters.set_column(6, 6, 120)
    strategy = workbook.add_worksheet(_sheet_name("Strategy", taken))
    for i, line in enumerate(book.strategy):
        strategy.write(i, 0, line)
    rules = workbook.add_worksheet(_sheet_name("Rules", taken))
    rules.write(0, 0, "Rules Submission in force (defaults resolved)", fmt["bold"])
    for i, line in enumerate(book.rules_text.splitlines(), 1):
        rules.write(i, 0, line)
    workbook.close()
    return save_file(target, buffer.getvalue())


def _xlsx_heading(sheet: Any, book: ParBook, fmt: dict[str, Any]) -> int:
    for i, line in enumerate(book.heading):
        sheet.write(i, 0, line, fmt["bold"] if i == 0 else None)
    return len(book.heading) + 1


def _xlsx_wager(sheet: Any, ws: Any, fmt: dict[str, Any]) -> None:
    table = f", pay table {ws.paytable}" if ws.paytable else ""
    sheet.write(0, 0, f"{ws.wager}{table}", fmt["bold"])
    sheet.write(
        1,
        0,
        f"house edge {float(ws.house_edge):.6%} ({exact(ws.house_edge)}); element of risk "
        f"{float(ws.element_of_risk):.6%}; hit frequency {float(ws.hit_frequency):.6%}; "
        f"std dev {ws.std_dev:.4f}; {ws.total:,} combinations ({ws.method})",
    )
    sheet.write_row(3, 0, OUTCOME_HEADER, fmt["head"])
    rows = outcome_rows(ws)
    for i, (name, pays, net, weight, prob, ret) in enumerate(rows, 4):
        sheet.write(i, 0, name)
        sheet.write(i, 1, pays)
        sheet.write_number(i, 2, float(net), fmt["num"])
        sheet.write_number(i, 3, weight, fmt["int"])
        sheet.write_number(i, 4, float(prob), fmt["prob"])
        sheet.write_number(i, 5, float(ret), fmt["num"])
    end = 4 + len(rows)
    sheet.write(end, 0, "total", fmt["bold"])
    sheet.write_number(end, 3, ws.total, fmt["int"])
    sheet.write_number(end, 5, float(ws.expected), fmt["num"])
    for i, note in enumerate(ws.notes, end + 2):
        sheet.write(i, 0, f"note: {note}")
    sheet.set_column(0, 0, 48)
    sheet.set_column(1, 5, 16)


# ---------------------------------------------------------------------------------------------
# PDF

_FONTS = Path("/usr/share/fonts/truetype/dejavu")


def _pdf() -> tuple[Any, str]:
    from fpdf import FPDF

    pdf = FPDF(orientation="landscape", format="A4")
    pdf.set_auto_page_break(auto=True, margin=12)
    regular, bold = _FONTS / "DejaVuSans.ttf", _FONTS / "DejaVuSans-Bold.ttf"
    if regular.exists() and bold.exists():
        pdf.add_font("DejaVu", "", str(regular))
        pdf.add_font("DejaVu", "B", str(bold))
        return pdf, "DejaVu"
    return pdf, "Helvetica"  # pragma: no cover - a machine without DejaVu


def _text(font: str, text: str) -> str:
    if font == "DejaVu":
        return text
    return text.encode("latin-1", "replace").decode("latin-1")  # pragma: no cover


def write_pdf(book: ParBook, path: str | Path) -> Path:
    """Write ``book`` as a PDF: heading and summary, then a page per wager, the pay tables,
    the strategy and the rules in force."""
    pdf, font = _pdf()
    pdf.add_page()
    pdf.set_font(font, "B", 14)
    pdf.multi_cell(0, 8, _text(font, book.heading[0]), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(font, "", 8)
    for line in book.heading[1:]:
        pdf.multi_cell(0, 4.5, _text(font, line), new_x="LMARGIN", new_y="NEXT")
    _pdf_title(pdf, font, "Summary")
    _pdf_table(pdf, font, SUMMARY_HEADER, summary_rows(book))
    for note in book.sheet.notes:
        pdf.multi_cell(0, 4, _text(font, f"note: {note}"), new_x="LMARGIN", new_y="NEXT")
    for ws in book.wagers:
        pdf.add_page()
        table = f", pay table {ws.paytable}" if ws.paytable else ""
        _pdf_title(pdf, font, f"{ws.wager}{table}")
        pdf.multi_cell(
            0,
            4.5,
            _text(
                font,
                f"house edge {float(ws.house_edge):.6%} ({exact(ws.house_edge)}); element of risk "
                f"{float(ws.element_of_risk):.6%}; hit frequency {float(ws.hit_frequency):.6%}; "
                f"std dev {ws.std_dev:.4f}; {ws.total:,} combinations ({ws.method})",
            ),
            new_x="LMARGIN",
            new_y="NEXT",
        )
        rows = [
            (name, pays, f"{float(net):.4f}", f"{w:,}", f"{float(p):.10f}", f"{float(r):.6f}")
            for name, pays, net, w, p, r in outcome_rows(ws)
        ]
        rows.append(("total", "", "", f"{ws.total:,}", "1", f"{float(ws.expected):.6f}"))
        _pdf_table(pdf, font, OUTCOME_HEADER, rows)
        for note in ws.notes:
            pdf.multi_cell(0, 4, _text(font, f"note: {note}"), new_x="LMARGIN", new_y="NEXT")
    pdf.add_page()
    _pdf_title(pdf, font, "Pay tables: every letter with its pay lines")
    _pdf_table(
        pdf,
        font,
        LETTER_HEADER,
        [_letter_row(lp) for lp in book.letters],
        widths=(22, 30, 20, 10, 22, 26, 120),
    )
    pdf.add_page()
    _pdf_title(pdf, font, "Optimal strategy")
    _pdf_lines(pdf, font, book.strategy)
    _pdf_title(pdf, font, "Rules Submission in force (defaults resolved)")
    _pdf_lines(pdf, font, book.rules_text.splitlines())
    return save_file(path, bytes(pdf.output()))


def _pdf_title(pdf: Any, font: str, text: str) -> None:
    pdf.ln(2)
    pdf.set_font(font, "B", 11)
    pdf.multi_cell(0, 6, _text(font, text), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(font, "", 8)


def _pdf_lines(pdf: Any, font: str, lines: Sequence[str]) -> None:
    pdf.set_font(font, "", 7.5)
    for line in lines:
        pdf.multi_cell(0, 3.8, _text(font, line or " "), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(font, "", 8)


def _pdf_table(
    pdf: Any,
    font: str,
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    widths: Sequence[int] | None = None,
) -> None:
    pdf.set_font(font, "", 7)
    with pdf.table(
        headings_style=_heading_style(font),
        line_height=3.8,
        text_align="LEFT",
        padding=0.8,
        col_widths=tuple(widths) if widths else None,
    ) as table:
        table.row([_text(font, h) for h in header])
        for values in rows:
            table.row([_text(font, str(v)) for v in values])
    pdf.set_font(font, "", 8)


def _heading_style(font: str) -> Any:
    from fpdf.fonts import FontFace

    return FontFace(family=font, emphasis="BOLD", fill_color=(240, 240, 240))
