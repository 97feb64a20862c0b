"""An answer's markdown as safe HTML with its citation markers."""

from __future__ import annotations

import pytest

pytest.importorskip("ipywidgets", reason="pip install 'regnb[notebook]' for the widget tests")

from regnb.present.markdown import answer_html, markers


@pytest.mark.parametrize(
    ("markdown", "present", "absent"),
    [
        ("**In short:** yes.", "<strong>In short:</strong>", "**"),
        ("a <script>alert(1)</script> b", "&lt;script&gt;", "<script>"),
        ("<img src=x onerror=alert(1)>", "&lt;img", "<img"),
        ("[x](javascript:alert(1))", "[x](javascript:alert(1))", 'href="javascript'),
        ("| a | b |\n|---|---|\n| 1 | 2 |", "<table>", "|---|"),
        ("see [link](https://example.test/a)", 'href="https://example.test/a"', "[link]"),
    ],
)
def test_markdown_is_rendered_and_raw_html_escaped(
    markdown: str, present: str, absent: str
) -> None:
    out = answer_html(markdown)
    assert present in out and absent not in out


def test_markers_become_superscripts_linked_to_http_sources_only() -> None:
    urls = {1: "https://example.test/doc#page=2", 2: "/api/v3/documents/abc?page_from=1"}
    out = answer_html("Failed [1][2]; see [3].", urls)
    assert '<sup><a style="' in out and 'href="https://example.test/doc#page=2"' in out
    assert "[2]</sup>" in out and "/api/v3/documents" not in out  # not an http(s) address
    assert "[3]</sup>" in out


def test_markers_lists_citation_numbers_in_order_of_first_use() -> None:
    assert markers("a [2] b [1][2] c [10] [x](y)") == [2, 1, 10]
