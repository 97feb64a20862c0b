"""The research agent's tuning constants in one place. Every limit counts work (documents,
pages, passages, vectors), never seconds: the same question over the same corpus gives the same
answer on a busy machine."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["AgentConfig"]


@dataclass(frozen=True)
class AgentConfig:
    """How much the agent reads, embeds and shows per turn."""

    read_documents: int = 12  # documents read per turn (besides the ones a question names)
    page_budget: int = 36  # pages read per turn, shared by the documents read
    pages_per_document: int = 8  # at most, for a document found by its words
    subject_pages: int = 15  # at most, for a document the question names (read from page 1)
    subjects_shown: int = 3  # documents a question names whose findings are listed
    findings_documents: int = 5  # a "what was found" question that this few documents match…
    findings_each: int = 4  # …is answered with this many findings of each
    see_also: int = 2  # other documents shown beside the ones a question names
    embed_budget: int = 128  # passages embedded per turn
    passages: int = 12  # passages chosen for the themes
    spare_passages: int = 4  # chosen beyond `passages`, to stand in for boilerplate dropped later
    relative_floor: float = 0.55  # a passage under this share of the best one's score is padding
    findings_per_document: int = 12  # units listed for a document a question names
    which_documents: int = 60  # documents counted for a "which…" question, per dataset
    which_shown: int = 15  # firms or documents quoted for a "which…" question
    term_examples: int = 2  # documents read for each term a count question counts
    which_listed: int = 50  # matching documents listed (as data) for a "which…" question
    furniture_share: float = 0.5  # a unit with this share of a dataset's standard sentences
    quote_words: int = 45  # words of a quoted finding
    subject_quote_words: int = 70  # of a finding of a document the question names (its list)
    short_words: int = 18  # words of a one-line statement (slides, tables, "In short")
