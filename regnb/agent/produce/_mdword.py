"""Markdown to Word for the subset that answers use: headings, paragraphs, bullet and numbered
lists, bold, italic, code, links, tables and quotes (markdown-it-py parses; python-docx writes)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ._docx_kit import add_hyperlink

if TYPE_CHECKING:
    from docx.document import Document
    from docx.text.paragraph import Paragraph
    from markdown_it.token import Token

CODE_FONT = "Courier New"


def add_markdown(document: Document, markdown: str) -> None:
    """Append `markdown` to `document` as Word headings, paragraphs, lists and tables."""
    from markdown_it import MarkdownIt

    tokens = MarkdownIt("commonmark").enable("table").parse(markdown)
    _Writer(document).write(tokens)


@dataclass
class _Writer:
    """Walks markdown-it's block tokens and keeps the list and quote nesting."""

    document: Document
    lists: list[str] = field(default_factory=list)  # "bullet" or "1", "2"... per open list
    quotes: int = 0

    def write(self, tokens: list[Token]) -> None:
        position = 0
        while position < len(tokens):
            position = self._block(tokens, position)

    def _block(self, tokens: list[Token], at: int) -> int:
        """Write the block that starts at `at`; the index of the next token."""
        token = tokens[at]
        kind = token.type
        if kind == "heading_open":
            heading = self.document.add_heading("", level=min(int(token.tag[1:]), 9))
            add_inline(heading, tokens[at + 1])
            return at + 3
        if kind == "paragraph_open":
            add_inline(self._paragraph(), tokens[at + 1])
            return at + 3
        if kind == "table_open":
            return self._table(tokens, at)
        if kind in ("fence", "code_block"):
            for line in token.content.rstrip("\n").split("\n"):
                self.document.add_paragraph().add_run(line).font.name = CODE_FONT
        elif kind == "html_block":
            self.document.add_paragraph(token.content.strip())
        else:
            self._nesting(token)
        return at + 1

    def _nesting(self, token: Token) -> None:
        kind = token.type
        if kind == "bullet_list_open":
            self.lists.append("bullet")
        elif kind == "ordered_list_open":
            self.lists.append(str(token.attrGet("start") or 1))
        elif kind in ("bullet_list_close", "ordered_list_close"):
            self.lists.pop()
        elif kind == "list_item_open" and self.lists and self.lists[-1] != "bullet":
            self.lists[-1] = token.info or self.lists[-1]
        elif kind == "blockquote_open":
            self.quotes += 1
        elif kind == "blockquote_close":
            self.quotes -= 1

    def _paragraph(self) -> Paragraph:
        if self.quotes:
            return self.document.add_paragraph(style="Quote")
        if not self.lists:
            return self.document.add_paragraph()
        depth = min(len(self.lists), 3)
        if self.lists[-1] == "bullet":
            return self.document.add_paragraph(
                style="List Bullet" + (f" {depth}" if depth > 1 else "")
            )
        # Word's own numbering runs on across lists; the number is written as the text shows it.
        paragraph = self.document.add_paragraph(style="List" + (f" {depth}" if depth > 1 else ""))
        paragraph.add_run(f"{self.lists[-1]}. ")
        return paragraph

    def _table(self, tokens: list[Token], at: int) -> int:
        rows: list[tuple[bool, list[Token]]] = []
        header = False
        while tokens[at].type != "table_close":
            kind = tokens[at].type
            if kind in ("thead_open", "thead_close"):
                header = kind == "thead_open"
            elif kind == "tr_open":
                rows.append((header, []))
            elif kind == "inline":
                rows[-1][1].append(tokens[at])
            at += 1
        width = max(len(cells) for _, cells in rows)
        table = self.document.add_table(rows=len(rows), cols=width)
        table.style = "Table Grid"
        for row, (is_header, cells) in zip(table.rows, rows, strict=True):
            for cell, inline in zip(row.cells, cells, strict=False):
                add_inline(cell.paragraphs[0], inline, bold=is_header)
        self.document.add_paragraph()  # Word sets the next block flush against a table
        return at + 1


def add_inline(paragraph: Paragraph, inline: Token, *, bold: bool = False) -> None:
    """Append an inline token's text as runs: bold, italic, code and hyperlinks kept."""
    strong, emphasis, link, link_text = int(bold), 0, None, ""
    for child in inline.children or []:
        kind = child.type
        if kind in ("strong_open", "strong_close"):
            strong += 1 if kind == "strong_open" else -1
        elif kind in ("em_open", "em_close"):
            emphasis += 1 if kind == "em_open" else -1
        elif kind == "link_open":
            link, link_text = str(child.attrGet("href") or ""), ""
        elif kind == "link_close":
            add_hyperlink(paragraph, link_text, link or "", bold=strong > 0)
            link = None
        elif link is not None:
            link_text += " " if kind == "softbreak" else child.content
        elif kind == "softbreak":
            paragraph.add_run(" ")
        elif kind == "hardbreak":
            paragraph.add_run().add_break()
        elif child.content:
            run = paragraph.add_run(child.content)
            run.bold, run.italic = strong > 0 or None, emphasis > 0 or None
            if kind == "code_inline":
                run.font.name = CODE_FONT
