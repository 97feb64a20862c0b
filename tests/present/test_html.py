"""Notebook HTML: well-formed, escaped, no JavaScript; statuses, documents and best passages."""

from __future__ import annotations

from collections import Counter
from html.parser import HTMLParser
from typing import Any

import pytest

import regnb
from regnb.catalog import Catalog, Dataset
from regnb.present import html as display
from regnb.results import ContentsResult, DocumentRead, LegacySearchResult, SearchResult
from tests.conftest import doc

VOID = {"br", "hr", "img", "wbr", "col", "input", "meta", "link", "source"}
HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)>'


class Parsed(HTMLParser):
    """Parses HTML, failing on a misnested or unclosed tag; keeps tags, links, text, marks."""

    def __init__(self, markup: str) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.tags: Counter[str] = Counter()
        self.hrefs: list[str] = []
        self.attributes: list[str] = []
        self.text: list[str] = []
        self.marks: list[str] = []
        self.feed(markup)
        self.close()
        assert not self.stack, f"unclosed tags: {self.stack}"

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags[tag] += 1
        self.attributes += [name for name, _ in attrs]
        self.hrefs += [value or "" for name, value in attrs if name == "href"]
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes {self.stack[-1:]}"
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self.stack and self.stack[-1] == "mark":
            self.marks.append(data)

    @property
    def all_text(self) -> str:
        return "".join(self.text)


def document(n: int, *, dataset: str = "fda_483", **over: Any) -> dict[str, Any]:
    page = "Opening words of the page. " * 8 + f"Inspection {n} found sterility failures."
    return {
        "document_id": f"doc{n}",
        "dataset": dataset,
        "title": f"Record {n}",
        "date": "2020-03-04",
        "url": f"https://example.org/{n}",
        "fields": {"facility_name": f"Acme {n}", "fei_number": "3001234567"},
        "pages": [{"page_num": 2, "score": 0.5, "text": page}],
        "matched_pages": 1,
        **over,
    }


def envelope(results: list[dict[str, Any]], **over: Any) -> dict[str, Any]:
    return {
        "results": results,
        "datasets": {
            "fda_483": {"status": "ok", "matches": 12, "pages": 30},
            "fda_recalls": {"status": "ok", "matches": 0, "pages": 5, "loosened": True},
            "fda_drug": {"status": "no_match"},
            "fda_pma": {"status": "no_match"},
            "fda_guidance": {"status": "skipped", "reason": "no date field"},
            "fda_crl": {"status": "forbidden"},
        },
        "total": len(results),
        "next_offset": None,
        "ranking": "similarity",
        **over,
    }


def search_result(results: list[dict[str, Any]], **over: Any) -> SearchResult:
    return SearchResult.from_dict(envelope(results, **over), keywords=["inspections"])


def test_search_html_marks_the_matched_words_of_each_best_passage():
    parsed = Parsed(search_result([document(1), document(2)])._repr_html_())
    assert parsed.marks == ["Inspection", "Inspection"]
    assert "Inspection 1 found sterility failures." in parsed.all_text
    assert parsed.all_text.count("p. 2 … ") == 2  # a passage inside the page, not its opening
    assert parsed.all_text.count("Opening words") < 8


def test_search_html_shows_each_document():
    parsed = Parsed(search_result([document(1), document(2)])._repr_html_())
    text = parsed.all_text
    assert parsed.hrefs == ["https://example.org/1", "https://example.org/2"]
    for part in ("1.", "Record 1", "FDA Form 483 Inspection Observations", "2020-03-04"):
        assert part in text
    assert "score 0.500" in text and "1 matched page" in text and "p. 2" in text
    assert "facility_name: Acme 1" in text and "fei_number: 3001234567" in text


@pytest.mark.parametrize(
    ("texts", "line"),
    [
        (["no citation"], None),
        (
            ["Failed 21 CFR 211.113(b).", "See § 211.192 and 21 CFR 211.113."],
            "cites 21 CFR 211.113, 21 CFR 211.192",
        ),
        (
            [" ".join(f"21 CFR 820.{n}" for n in range(1, 10))],
            "cites 21 CFR 820.1, 21 CFR 820.2, 21 CFR 820.3, 21 CFR 820.4, 21 CFR 820.5, "
            "21 CFR 820.6 and 3 more",
        ),
    ],
)
def test_search_html_shows_the_cfr_sections_a_document_cites(texts, line):
    pages = [{"page_num": i, "score": 0.5, "text": t} for i, t in enumerate(texts, 1)]
    text = Parsed(search_result([document(1, pages=pages)])._repr_html_()).all_text
    if line is None:
        assert "cites" not in text
    else:
        assert line in text


def test_search_html_statuses_line():
    text = Parsed(search_result([document(1)])._repr_html_()).all_text
    assert "FDA Form 483 Inspection Observations (12 matches, 30 pages)" in text
    assert "FDA Recalls, Market Withdrawals and Safety Alerts (loosened, 5 pages)" in text
    assert "no_match 2: FDA Drug Approvals (Drugs@FDA), FDA Premarket Approvals (PMA)" in text
    assert "skipped 1: FDA Guidance Documents — no date field" in text
    assert "forbidden 1: FDA Complete Response Letters" in text


@pytest.mark.parametrize(
    ("returned", "total", "next_offset", "note", "ranks"),
    [
        (50, 57, None, "showing 20 of 57 documents; .documents has the 50 of this result", 8),
        (20, 57, 20, "showing 20 of 57 documents", 1),
        (5, 5, None, None, 1),
    ],
)
def test_long_results_are_truncated_with_a_note(returned, total, next_offset, note, ranks):
    res = search_result(
        [document(i) for i in range(returned)], total=total, next_offset=next_offset
    )
    parsed = Parsed(res._repr_html_())
    assert len(parsed.hrefs) == min(returned, display.SHOW_DOCUMENTS)
    assert (note in parsed.all_text) if note else ("showing" not in parsed.all_text[-200:])
    assert f"{ranks}." in parsed.all_text  # ranks count from the slice's offset + 1


def test_key_fields_leave_out_title_url_and_the_date():
    fields = {"title": "T", "url": "https://x.org", "record_date": "2020-03-04", "fei_number": "1"}
    text = Parsed(search_result([document(1, fields=fields)])._repr_html_()).all_text
    assert "fei_number: 1" in text
    assert "record_date" not in text and "title:" not in text


def hostile_objects() -> list[Any]:
    page = {"page_num": 1, "score": 1.0, "text": f"sterility {HOSTILE}"}
    bad = document(
        1,
        title=HOSTILE,
        url="javascript:alert(1)",
        fields={"facility_name": HOSTILE},
        pages=[page],
    )
    read = DocumentRead("d", "fda_483", HOSTILE, "javascript:alert(1)", 1, [page], None)
    legacy = LegacySearchResult(
        [
            {
                "name": HOSTILE,
                "url": "javascript:alert(1)",
                "dataset": "fda_483",
                "company": HOSTILE,
                "page_num": 0,
                "score": 1.0,
                "highlight": f"<b>sterility</b> {HOSTILE}",
            }
        ],
        1,
    )
    contents = ContentsResult(
        {"name": HOSTILE, "dataset": HOSTILE, "url": "javascript:x", "pages": [page]}
    )
    entry = Dataset(
        "fda_483",
        HOSTILE,
        HOSTILE,
        True,
        False,
        None,
        {"x": {"type": "string", "description": HOSTILE}},
        ["x"],
    )
    return [search_result([bad]), read, legacy, contents, Catalog([entry]), entry]


@pytest.mark.parametrize("obj", hostile_objects(), ids=lambda o: type(o).__name__)
def test_hostile_text_shows_as_text(obj):
    parsed = Parsed(obj._repr_html_())
    assert parsed.tags["script"] == 0 and parsed.tags["img"] == 0
    assert not [a for a in parsed.attributes if a.startswith("on")]
    assert not [h for h in parsed.hrefs if not h.startswith("http")]
    assert HOSTILE in parsed.all_text


def test_document_read_folds_a_long_page():
    long = "word " * 1000
    read = DocumentRead(
        "d",
        "fda_483",
        "Title",
        "https://x.org",
        9,
        [{"page_num": 3, "text": "short page"}, {"page_num": 4, "text": long}],
        5,
    )
    parsed = Parsed(read._repr_html_())
    assert parsed.tags["details"] == 1
    assert "pages 3–4 of 9" in parsed.all_text and "next_page_from 5" in parsed.all_text
    assert "short page" in parsed.all_text
    assert parsed.all_text.count("word") == 1000  # all of it, part folded


def test_legacy_html_keeps_the_servers_highlight_as_marks():
    legacy = LegacySearchResult(
        [
            {
                "name": "N",
                "dataset": "fda_483",
                "page_num": 3,
                "score": 2.0,
                "highlight": "a <b>sterility</b> &amp; b",
            }
        ],
        40,
    )
    parsed = Parsed(legacy._repr_html_())
    assert parsed.marks == ["sterility"]
    assert "a sterility & b" in parsed.all_text and "showing 1 of 40 pages" in parsed.all_text


@pytest.mark.parametrize(
    ("highlight", "expected"),
    [
        ("<b>x</b> y", "<mark>x</mark> y"),
        ("<B>X</B>", "<mark>X</mark>"),
        ("a &amp; b", "a &amp; b"),
        ("<script>x</script>", "&lt;script&gt;x&lt;/script&gt;"),
        ("&lt;script&gt;", "&lt;script&gt;"),
        ("<b>open", "<mark>open</mark>"),
        ("</b>close", "close"),
        ("<b><b>twice</b>", "<mark>twice</mark>"),
        ('<b onclick="x">y</b>', "&lt;b onclick=&quot;x&quot;&gt;y"),
    ],
)
def test_safe_highlight(highlight, expected):
    assert display.safe_highlight(highlight) == expected


@pytest.mark.parametrize(
    ("url", "linked"),
    [
        ("https://example.org/a?b=1&c=2", True),
        ("HTTP://example.org", True),
        ("javascript:alert(1)", False),
        (" JaVaScRiPt:alert(1)", False),
        ("data:text/html,x", False),
        ("/relative/path", False),
        (None, False),
        ("http://[bad", False),
    ],
)
def test_link_only_for_web_addresses(url, linked):
    parsed = Parsed(display.link("t", url))
    assert bool(parsed.hrefs) is linked and parsed.all_text == "t"


def test_catalog_html_lists_every_dataset():
    catalog = regnb.load_catalog()
    parsed = Parsed(catalog._repr_html_())
    assert parsed.tags["tr"] == len(catalog) + 1
    assert "33 datasets · 15 searchable" in parsed.all_text


def test_dataset_html_shows_its_filters():
    parsed = Parsed(regnb.load_catalog()["fda_483"]._repr_html_())
    assert "fei_number" in parsed.all_text and "exact" in parsed.all_text
    assert "record_date" in parsed.all_text


def test_real_search_shows_marked_passages(make_engine):
    eng = make_engine(
        {"fda_483": [doc("Acme", ["Opening. " * 30 + "The media fills failed twice."])]}
    )
    res = eng.search(["media fill"], datasets=["fda_483"])
    res.keywords = ["media fill"]  # what the engine sets once it passes the request's keywords
    parsed = Parsed(res._repr_html_())
    assert parsed.marks == ["media", "fills"]
    read = eng.read(res.documents.document_id[0])
    assert "The media fills failed twice." in Parsed(read._repr_html_()).all_text
