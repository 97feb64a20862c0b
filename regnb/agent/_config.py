"""The research agent's tuning constants in one place. Every limit counts work (documents,
pages, passages, vectors), never seconds: the same question over the same corpus gives the same
answer on a busy machine.

What is here tunes the pipeline (how much is searched, read, embedded, counted and shown, and
the thresholds that choose what is shown); it is measured with `benchmarks/bench_research.py`.
What defines a rule stays beside it as a module constant: how a message is read (`_plan`,
`_followup`, `_focus`), the form of a clarifying question (`_clarify`), the ranking formula
(`_rank`), and how pages are parsed into blocks and units and what is furniture (`_blocks`,
`_structure`, `_furniture`, `_quotes`): block ids and units must not change with a setting."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["AgentConfig"]


@dataclass(frozen=True)
class AgentConfig:
    """How much the agent searches, reads, embeds, counts and shows per turn."""

    # Searching
    probe_documents: int = 50  # documents of the first, broad search (clarifying, names)
    search_documents: int = 20  # documents of one dataset's search (one page of results)
    min_strong: int = 3  # fewer documents matching every word: search again with fewer words
    mention_searches: int = 4  # pages of results looked through for a follow-up's required words
    which_documents: int = 60  # documents counted for a "which…" question, per dataset
    which_listed: int = 15  # matching documents listed (as data) for a "which…" question
    count_terms: int = 4  # terms of a count question counted one by one
    cfr_counted: int = 10  # CFR sections counted (most cited first)
    # Reading
    read_documents: int = 12  # documents read per turn (besides the ones a question names)
    page_budget: int = 36  # pages read per turn, shared by the documents read
    pages_per_document: int = 8  # at most, for a document found by its words
    subject_pages: int = 15  # at most, for a document the question names (read from page 1)
    contents_pages: int = 12  # a guidance's first pages, read for its table of contents
    guidance_pages: int = 24  # at most, for a guidance asked about as a whole (a page a section)
    guidance_sections: int = 24  # at most, recommendations listed for a guidance as a whole
    term_examples: int = 2  # documents read for each term a count question counts
    title_share: float = 0.4  # of a document's weight: how much of the question its title holds
    # Ranking
    embed_budget: int = 128  # passages embedded per turn
    embed_words: int = 60  # words of a passage embedded
    passages: int = 12  # passages chosen for the themes
    spare_passages: int = 4  # chosen beyond `passages`, to stand in for boilerplate dropped later
    relative_floor: float = 0.55  # a passage under this share of the best one's score is padding
    copies: int = 4  # passages of other documents, word for word the same, cited with one
    form_documents: int = 3  # documents that open a paragraph the same way: a form's paragraph…
    boilerplate_topic: float = 0.34  # …unless it holds this share of the question's term weight
    furniture_share: float = 0.5  # a unit with this share of a dataset's standard sentences
    themes: int = 4  # themes at most (the last one "Other findings")
    # Composing
    subjects_shown: int = 3  # documents a question names whose findings are listed
    findings_per_document: int = 12  # units listed for a document a question names
    guidance_account: int = 2  # a guidance's own account of what it does, listed first
    guidance_extra: int = 4  # a guidance asked about lists this many more recommendations
    findings_documents: int = 5  # a "what was found" question that this few documents match…
    findings_each: int = 4  # …is answered with this many findings of each
    history_documents: int = 6  # a firm's documents listed for its history, in date order…
    history_findings: int = 4  # …with this many findings of each
    summary_quotes: int = 2  # quotes in a sentence of "In short" about one document or period
    which_shown: int = 12  # firms or documents quoted for a "which…" question
    which_topic: float = 0.4  # a firm is listed when its passage holds this share of the best's
    term_quotes: int = 2  # units quoted for each term a count question counts
    see_also: int = 2  # other documents shown beside the ones a question names
    see_also_documents: int = 3  # at most, other documents quoted for a question about one
    quote_words: int = 32  # words of a quoted finding
    subject_quote_words: int = 32  # of a finding of a document the question names (its list)
    short_words: int = 18  # words of a one-line statement (slides, tables, "In short")
    # Writing
    key_documents: int = 8  # rows of the key documents table (5 more for a "which…" question)
    key_findings: int = 8  # a document's findings listed beside it (Excel, Word)
    cited_for_words: int = 10  # words of what a document is cited for, when it cites no section
    cfr_rows: int = 5  # CFR sections in a count's table
    # Clarifying
    broad_documents: int = 25  # a request matching more documents than this may be too broad
    spread_top: int = 30  # best documents of the first search whose datasets are looked at
    spread_datasets: int = 3  # that many datasets, each with…
    spread_share: float = 0.15  # …this share of them: a request spread over unrelated datasets
