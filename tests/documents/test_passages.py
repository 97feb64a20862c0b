"""Best passages: the sentences holding the matched words, found with the index's own word rules."""

from __future__ import annotations

import pytest

from regnb.documents.passages import MAX_CHARS, PagePassage, best_passage, passage_spans

FILLER = "The firm reviewed its records and its procedures at the site. " * 6


def marked(text: str, keywords: list[str] | str, query: str | None = None) -> str:
    return best_passage(text, keywords, query).terminal("brackets")


@pytest.mark.parametrize(
    ("text", "keywords", "expected"),
    [
        pytest.param(
            "Inspections found gaps. The inspection was closed and the firm was inspected again.",
            ["inspections"],
            "[Inspections] found gaps. The [inspection] was closed and the firm was [inspected] again.",
            id="stemming-inspections-highlights-inspection",
        ),
        pytest.param(
            "Sterility failures were seen in three lots.",
            ["sterility"],
            "[Sterility] failures were seen in three lots.",
            id="match-at-start-no-leading-ellipsis",
        ),
        pytest.param(
            "Three lots were released without a test for sterility",
            ["sterility"],
            "Three lots were released without a test for [sterility]",
            id="match-at-end-no-punctuation",
        ),
        pytest.param(
            "The procedure cites 21 CFR 211.113(b) for aseptic steps.",
            ["211.113"],
            "The procedure cites 21 CFR [211].[113](b) for aseptic steps.",
            id="citation-digits",
        ),
        pytest.param(
            "The sterility of the lot was not shown.",
            ["the sterility"],
            "The [sterility] of the lot was not shown.",
            id="stop-words-not-marked",
        ),
        pytest.param(
            "Contrôle de la stérilité du lot.",
            ["sterilite"],
            "Contrôle de la [stérilité] du lot.",
            id="accents-folded",
        ),
        pytest.param(
            "MEDIA FILLS failed twice.",
            ["media fill"],
            "[MEDIA] [FILLS] failed twice.",
            id="upper-case-and-plural",
        ),
    ],
)
def test_matched_words_are_marked(text, keywords, expected):
    assert marked(text, keywords) == expected


def test_window_with_most_distinct_terms_wins_over_repeated_term():
    text = (
        FILLER
        + "Media media media were stored in the warehouse for a long time before use. "
        + FILLER
        + "Smoke studies of the media fill line were not done under dynamic conditions. "
        + FILLER
    )
    passage = best_passage(text, ["media fill", "smoke study"])
    assert passage.terms == {"media", "fill", "smoke", "studi"}
    assert "[Smoke] [studies] of the [media] [fill] line" in passage.terminal("brackets")


def test_passage_is_around_the_match_not_the_opening():
    text = FILLER + "A sterility failure was found in lot 7. " + FILLER
    passage = best_passage(text, ["sterility"])
    assert passage.text.startswith("… ") and passage.text.endswith(" …")
    assert "[sterility] failure" in passage.terminal("brackets")
    assert passage.start > 0 and text[passage.start : passage.end].count("sterility") == 1


def test_text_without_sentence_punctuation_is_cut_into_short_pieces():
    words = " ".join(f"word{i}" for i in range(400))
    text = f"{words} sterility {words}"
    passage = best_passage(text, ["sterility"])
    assert "[sterility]" in passage.terminal("brackets")
    assert len(passage.text) <= MAX_CHARS + 4  # the pieces plus the two ellipses


def test_query_words_break_a_tie_between_keyword_sentences():
    first = "Sterility testing was performed on every batch of the product line. "
    second = "Sterility assurance failed because the media fill simulation was wrong. "
    text = first + FILLER + second + FILLER
    passage = best_passage(text, ["sterility"], query="media fill simulation failures")
    assert "assurance failed" in passage.text and "testing was" not in passage.text


def test_a_short_match_takes_in_its_neighbours():
    text = "First sentence here. Sterile. Third sentence follows it. " + FILLER
    passage = best_passage(text, ["sterile"])
    assert "[Sterile]. Third sentence follows it." in passage.terminal("brackets")
    assert len(passage.text) > len("Sterile.")


def test_no_match_gives_the_opening_without_marks():
    passage = best_passage(FILLER, ["sterility"])
    assert passage.spans == () and passage.terms == frozenset()
    assert passage.text.startswith("The firm reviewed")


def test_empty_text_gives_an_empty_passage():
    assert best_passage("", ["sterility"]) == PagePassage("")


def test_keywords_as_one_string_are_one_item():
    assert best_passage("media fill", "media fill").terms == {"media", "fill"}


def test_html_escapes_the_text_and_marks_the_words():
    passage = best_passage("<b>Sterility</b> & <script>x</script>", ["sterility"])
    assert passage.html() == (
        "&lt;b&gt;<mark>Sterility</mark>&lt;/b&gt; &amp; &lt;script&gt;x&lt;/script&gt;"
    )


@pytest.mark.parametrize(
    ("style", "expected"),
    [
        ("brackets", "A [sterility] failure."),
        ("upper", "A STERILITY failure."),
        ("ansi", "A \x1b[1msterility\x1b[0m failure."),
    ],
)
def test_terminal_styles(style, expected):
    assert best_passage("A sterility failure.", ["sterility"]).terminal(style) == expected


def test_terminal_uses_brackets_when_stdout_is_not_a_tty(capsys):
    assert best_passage("A sterility failure.", ["sterility"]).terminal() == (
        "A [sterility] failure."
    )


def test_terminal_refuses_an_unknown_style():
    with pytest.raises(ValueError, match="style"):
        best_passage("A sterility failure.", ["sterility"]).terminal("blink")


def test_white_space_is_collapsed_and_spans_follow():
    passage = best_passage("A\n\n   sterility\tfailure\nwas   seen.", ["sterility", "seen"])
    assert passage.text == "A sterility failure was seen."
    assert [passage.text[s:e] for s, e in passage.spans] == ["sterility", "seen"]


@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        ("One. Two. Three.", ["One.", "Two.", "Three."]),
        ("See e.g. the annex. Next one.", ["See e.g. the annex.", "Next one."]),
        ("Heading without stop\n\nBody text here", ["Heading without stop", "Body text here"]),
        ("Line one\nstill the same sentence.", ["Line one\nstill the same sentence."]),
        ('He said "stop." Then left.', ['He said "stop."', "Then left."]),
        ("  ", []),
    ],
)
def test_sentence_spans(text, sentences):
    assert [text[s:e] for s, e in passage_spans(text)] == sentences


def test_sentence_spans_cut_a_long_run_at_spaces():
    text = "word " * 200
    spans = passage_spans(text, max_chars=100)
    assert all(e - s <= 100 for s, e in spans)
    assert " ".join(text[s:e] for s, e in spans) == text.strip()
