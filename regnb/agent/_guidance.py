"""Which of a guidance's recommendations answer a question. A guidance is about its title's
subject, so every unit of it holds the title's words: what tells its units apart is the part of
the question the title does not say (the SBOM of a cybersecurity guidance, the enforcement
discretion of Part 11). Those units come first; the rest of the list follows the guidance's own
sections, one recommendation of each in turn, so a question about the whole guidance gets its
whole structure rather than ten paragraphs of its first section. Before them all comes the
guidance's own account of what it does, from its introduction (`own_account`)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from regnb.agent._rank import Term, keyword_score
from regnb.agent._stages import Passage
from regnb.agent._vocab import ACRONYMS
from regnb.agent._wants import holds_wanted
from regnb.documents.words import content_words, stem, word_set

__all__ = [
    "FRONT_MATTER",
    "about",
    "aspect_terms",
    "is_front_matter",
    "own_account",
    "pick_recommendations",
    "says_what_it_does",
]

# Sections of a guidance that describe it rather than recommend anything.
FRONT_MATTER = (
    "introduction",
    "scope",
    "background",
    "preface",
    "purpose",
    "sections",
    "glossary",
    "i. ",
)
# A guidance saying what it does, in its own words ("This guidance describes…"); not its notice
# that it "represents the current thinking" of FDA.
PURPOSE = re.compile(
    r"\b(?:this|the)\s+(?:draft\s+|final\s+|revised\s+)?guidance(?:\s+document)?\s+"
    r"(?:(?:is\s+intended\s+to|intends\s+to|will)\s+)?"
    r"(?:describes?|provides?|explains?|clarif(?:y|ies)|address(?:es)?|identif(?:y|ies)|sets?\s+forth|"
    r"outlines?|discuss(?:es)?|announces?|finalizes?|updates?|supersedes?|assists?|helps?|"
    r"recommends?|focuses|applies|covers)\b"
    r"|\bthe\s+purpose\s+of\s+this\s+(?:draft\s+)?guidance\b"
    r"|\b(?:fda|we)\s+(?:is|are)\s+issuing\s+this\b",
    re.IGNORECASE,
)
FOOTNOTE = re.compile(r"\d{1,3}\s+[A-Z]")  # a paragraph that opens with its note's number
AS_MUCH = 0.9  # a unit this near the best recommendation's score says as much of the question
WHOLE_RANKED = 0.25  # of the recommendations listed for a whole guidance, this share by topic
# What a guidance recommends or the policy it states.
STATES = re.compile(
    r"\b(?:recommends?|recommended|should|we encourage|fda expects|you must|is expected to|intends? to|"
    r"does not intend|enforcement discretion)\b",
    re.IGNORECASE,
)
# Words of a question about a guidance that ask rather than say what is asked.
ASKING = frozenset(
    stem(w)
    for w in word_set(
        "contain include apply require recommend recommendation address cover mean expect "
        "consider run running conduct conducting handle approach content contents "
        "element elements need needs guidance should"
    )
)


def aspect_terms(terms: Sequence[Term], title: str) -> list[Term]:
    """The question's terms that the guidance's title does not hold (a word spelled out in the
    title counts as its acronym), less the words that ask rather than say what: what of the
    guidance is asked."""
    known = {stem(w) for w in content_words(title)}
    # "Hand-Held" in the title is "handheld" in the question
    known |= {stem(a + b) for a, b in re.findall(r"\b(\w+)-(\w+)\b", title.lower())}
    # an acronym whose spelled-out words the title mostly holds ("BET" for "Pyrogen and
    # Endotoxins Testing") is the title's subject, as those words are
    known |= {stem(short) for short, long in ACRONYMS.items() if _mostly(long, known)}
    return [t for t in terms if not _mostly(t.text, known | ASKING)]


def _mostly(text: str, known: set[str]) -> bool:
    """Whether `known` holds every word of `text`, or two of its three."""
    stems = [stem(w) for w in content_words(text)]
    held = sum(1 for s in stems if s in known)
    return bool(stems) and (held == len(stems) or (len(stems) >= 3 and 3 * held >= 2 * len(stems)))


def is_front_matter(passage: Passage) -> bool:
    return passage.unit.heading.lower().startswith(FRONT_MATTER)


def says_what_it_does(passage: Passage) -> bool:
    """Whether a unit is the guidance's statement of its purpose ("This guidance describes…")."""
    return bool(PURPOSE.search(passage.unit.text))


def own_account(units: Sequence[Passage], limit: int) -> list[Passage]:
    """At most `limit` units in which a guidance says what it does and for whom, from its
    introduction (or, where it has no headed one, the text before its first section): the
    one most about what is asked first, then its opening statement of purpose. An analyst's
    account of a guidance starts from the guidance's own (what the program allows, which fees
    it reduces), which sits in the introduction the recommendations' list leaves out."""
    opening: list[Passage] = []
    for p in units:
        if p.unit.kind == "recommendation" and not is_front_matter(p):
            break
        if p.unit.kind != "furniture":
            opening.append(p)
    stating = [p for p in opening if says_what_it_does(p)]
    ranked = sorted((p for p in opening if p.topic > 0), key=lambda p: (-p.topic, -p.keyword))
    chosen: list[Passage] = []
    for p in [*ranked[:1], *stating[:1], *ranked[1:2]]:
        if all(p is not c for c in chosen):
            chosen.append(p)
    return chosen[:limit]


def about(passage: Passage, aspect: Sequence[Term]) -> float:
    """How much of the asked aspect a unit holds, its section's heading and the headings of the
    sections around it included (a question about a guidance's section is answered by all of
    it)."""
    if not aspect:
        return 0.0
    unit = passage.unit
    return keyword_score("\n".join([*unit.outline, unit.heading, unit.text]), aspect)


def _sections(units: Sequence[Passage], in_order: bool = False) -> list[list[Passage]]:
    """The units grouped by section heading, each section's units most about the asked aspect
    first (then in the guidance's order), the sections most about it first; or, `in_order`,
    all in the guidance's order (a section opens with what it is about)."""
    out: dict[str, list[Passage]] = {}
    for p in units:
        out.setdefault(p.unit.heading, []).append(p)
    if in_order:  # a footnote ("58 See the guidance for industry…") after the text
        return [sorted(s, key=lambda p: bool(FOOTNOTE.match(p.unit.text))) for s in out.values()]
    sections = [sorted(s, key=lambda p: -p.topic) for s in out.values()]
    return sorted(sections, key=lambda s: -s[0].topic)


def _spread(units: Sequence[Passage], limit: int, in_order: bool = False) -> list[Passage]:
    """At most `limit` units, one of each section in turn."""
    sections = _sections(units, in_order)
    chosen: list[Passage] = []
    depth = 0
    while len(chosen) < limit and any(depth < len(s) for s in sections):
        chosen += [s[depth] for s in sections if depth < len(s)][: limit - len(chosen)]
        depth += 1
    return chosen


def _most_about(ranked: Sequence[Passage], units: Sequence[Passage], limit: int) -> list[Passage]:
    """The recommendations most about what is asked, and before them the units that say as
    much of it as any recommendation does: what a guidance says of a product like the one asked
    about is often an example or a definition, not a "should", and why it recommends what it
    does is in its background."""
    best = max((p.topic for p in ranked), default=0.0)
    beyond = [p for p in units if p.topic >= AS_MUCH * best > 0 and p not in ranked]
    beyond.sort(key=lambda p: (-p.topic, -p.keyword))
    return [*beyond[: limit // 2], *ranked][:limit]


def pick_recommendations(
    units: Sequence[Passage], limit: int, *, whole: bool = False, wants: Sequence[str] = ()
) -> list[Passage]:
    """At most `limit` units, in the guidance's order: those most about what is asked
    (`Passage.topic`), an introduction's only when it says as much as any; when nothing is
    about it, or the question is about the `whole` guidance, one recommendation of each section
    in turn. A unit that makes the kind of statement asked for (`wants`: an amount, a time, a
    condition…) counts as one that states policy."""
    stated = [
        p for p in units if STATES.search(p.unit.text) or holds_wanted(p.unit.text, wants) > 0
    ]
    # why a guidance recommends what it does is in its background
    why = "reason" in wants
    body = [
        p
        for p in stated
        if (p.unit.kind == "recommendation" or why) and (why or not is_front_matter(p))
    ]
    best = max((p.topic for p in body), default=0.0)
    pool = [p for p in stated if p in body or (p.topic > 0 and p.topic >= best)]
    ranked = sorted(pool, key=lambda p: (-p.topic, -p.keyword))
    if whole and body:
        chosen = ranked[: int(limit * WHOLE_RANKED)]
        covered = {p.unit.heading for p in chosen}
        rest = [p for p in body if p not in chosen]
        chosen += _spread(
            [p for p in rest if p.unit.heading not in covered], limit - len(chosen), in_order=True
        )
        chosen += _spread([p for p in rest if p not in chosen], limit - len(chosen), in_order=True)
    elif max((p.topic for p in units), default=0.0) > 0:
        chosen = _most_about(ranked, units, limit)
    else:
        chosen = _spread(body, limit)
    order = {id(p): i for i, p in enumerate(units)}
    return sorted(chosen, key=lambda p: order[id(p)])
