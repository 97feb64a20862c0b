"""A page splits into numbered blocks deterministically; a block id names the same text always."""

from __future__ import annotations

import pytest

from regnb.documents.blocks import block_text, parse_block_id, split_blocks
from regnb.documents.words import fold_spaces

LETTER = (
    "WARNING LETTER\n\nDear Sir:\n\nDuring our inspection, our investigator observed specific "
    "violations including, but not limited to, the following.\n\n"
    "1. Your firm failed to validate the aseptic process (21 CFR 211.113(b)).\n"
    "2. Your firm failed to investigate media fill failures.\n"
    "   The investigation was closed without a root cause.\n"
    "3. Your quality unit did not review batch records.\n\n"
    "In response to this letter, provide:\n"
    "- a remediation plan\n"
    "- a risk assessment"
)
TABLE = (
    "Table 1: Deficiencies\n\n"
    "Item | Finding | Section\n"
    "1 | Stability data incomplete | 3.2.P.8\n"
    "2 | Facility not ready | 3.2.A.1\n\n"
    "Product     Lot      Result\n"
    "Vial A      22       Fail\n"
    "Vial B      23       Pass"
)
RUN_ON = " ".join(
    f"SENTENCE {i} REPORTS THAT THE PUMP ALARMED AND THE PATIENT WAS TREATED." for i in range(1, 14)
)
CATALOG = (
    "21 CFR 211.22(d) | Cite Id 1 | Procedures not in writing | Frequency: 300\n"
    "The responsibilities and procedures applicable to the quality control unit are not in "
    "writing.\n\n"
    "21 CFR 211.192 | Cite Id 2 | Investigations | Frequency: 250\n"
    "There is a failure to thoroughly review any unexplained discrepancy."
)
PAGES = [LETTER, TABLE, RUN_ON, CATALOG, "", "   \n\n  ", "One line only."]


@pytest.mark.parametrize("page", PAGES)
def test_the_same_page_always_gives_the_same_blocks(page: str) -> None:
    assert split_blocks(page) == split_blocks(str(page))


@pytest.mark.parametrize("page", PAGES)
def test_blocks_are_numbered_from_one_and_are_slices_of_the_page(page: str) -> None:
    blocks = split_blocks(page)
    assert [b.number for b in blocks] == list(range(1, len(blocks) + 1))
    for b in blocks:
        assert b.text == page[b.start : b.end]
        assert fold_spaces(b.text) in fold_spaces(page)
        assert b.text == b.text.strip()


def test_paragraphs_split_at_blank_lines_and_list_items_stand_alone() -> None:
    texts = [b.text for b in split_blocks(LETTER)]
    assert texts[0] == "WARNING LETTER"
    assert texts[1] == "Dear Sir:"
    assert texts[3].startswith("1. Your firm failed to validate")
    assert texts[4] == (
        "2. Your firm failed to investigate media fill failures.\n"
        "   The investigation was closed without a root cause."
    )
    assert texts[-2:] == ["- a remediation plan", "- a risk assessment"]
    assert [b.kind for b in split_blocks(LETTER)][3:6] == ["item", "item", "item"]


def test_table_rows_are_blocks_of_their_own() -> None:
    blocks = split_blocks(TABLE)
    rows = [b.text for b in blocks if b.kind == "row"]
    assert rows == [
        "Item | Finding | Section",
        "1 | Stability data incomplete | 3.2.P.8",
        "2 | Facility not ready | 3.2.A.1",
        "Product     Lot      Result",
        "Vial A      22       Fail",
        "Vial B      23       Pass",
    ]


def test_a_row_with_its_wrapped_description_stays_one_block() -> None:
    blocks = split_blocks(CATALOG)
    assert len(blocks) == 2
    assert blocks[0].text.endswith("are not in writing.")


def test_a_page_without_structure_is_cut_into_windows_of_about_three_sentences() -> None:
    blocks = split_blocks(RUN_ON)
    assert len(blocks) == 5
    assert all(b.kind == "window" for b in blocks)
    assert [b.text.count("SENTENCE") for b in blocks] == [3, 3, 3, 3, 1]
    assert " ".join(b.text for b in blocks) == RUN_ON


def test_a_long_stretch_without_sentences_is_cut_by_words() -> None:
    page = " ".join(f"word{i}" for i in range(200))
    blocks = split_blocks(page)
    assert [len(b.text.split()) for b in blocks] == [80, 80, 40]


@pytest.mark.parametrize(
    ("block_id", "expected"),
    [
        ("¶1", "Item | Finding | Section"),
        ("¶2", "1 | Stability data incomplete | 3.2.P.8"),
        ("¶1-2", "Item | Finding | Section\n1 | Stability data incomplete | 3.2.P.8"),
        ("¶3-4", "2 | Facility not ready | 3.2.A.1\n\nProduct     Lot      Result"),
    ],
)
def test_block_text_slices_one_block_or_a_range(block_id: str, expected: str) -> None:
    page = TABLE.split("\n\n", 1)[1]
    assert block_text(page, block_id) == expected


@pytest.mark.parametrize("block_id", ["3", "¶0", "¶4-2", "¶a", "§1", "¶1-", ""])
def test_malformed_block_ids_are_refused(block_id: str) -> None:
    with pytest.raises(ValueError):
        parse_block_id(block_id)


def test_a_block_past_the_end_of_the_page_is_refused() -> None:
    with pytest.raises(ValueError, match="past the page"):
        block_text(LETTER, "¶99")
