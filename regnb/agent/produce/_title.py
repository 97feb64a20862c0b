"""Titles and file names for produced documents: the answer's topic, else its question with the
requests for files taken out ("Put the letters in a spreadsheet" -> "Letters")."""

from __future__ import annotations

import re
import unicodedata

from regnb.agent._vocab import FILE_WORDS
from regnb.agent.types import Answer

from ._common import shorten, split_sentences

FALLBACK_TITLE = "Research answer"
TITLE_CHARS = 100


def _wordset(words: str) -> frozenset[str]:
    return frozenset(words.split())


_NAME = r"(?:(?:ms|microsoft)\s+)?(?:word|excel|power\s*point|docx|xlsx|pptx|png|csv|markdown)"
_NOUN = (
    r"(?:reports?|tables?|spreadsheets?|sheets?|workbooks?|documents?|docs?|files?|decks?"
    r"|slide\s+decks?|slides?|presentations?|charts?|graphs?|plots?|summary|memo|list)"
)
_FILE_ONLY = (
    r"(?:spreadsheets?|workbooks?|slide\s+decks?|slides?|decks?|presentations?|charts?|graphs?"
    r"|plots?)"
)
_ADJECTIVES = r"(?:(?:short|brief|nice|separate|simple|small|single|new|bar|pie|line|written)\s+)*"
_ARTICLE = r"(?:(?:a|an|one|some|the|my|two|three)\s+)?"
_VERB = (
    r"(?:make|put|create|give|export|produce|generate|prepare|draw|build|write|send|save|compile"
    r"|draft|plot|chart|attach|add|include|output|provide|turn|convert|list|show|summari[sz]e)"
)
_POLITE = (
    r"(?:(?:please|also|then|and|now)\s+|(?:can|could|would|will)\s+you\s+"
    r"|i(?:'d|\s+would)\s+like\s+(?:you\s+to\s+)?|i\s+(?:want|need)\s+(?:you\s+to\s+)?)*"
)
# A file named, or a table or report asked for as such ("in a table", "as a report").
_FORMAT_PHRASE = re.compile(
    rf"(?:\b(?:in|into|as|to|on|onto|with|via|using)\s+)?(?:\b{_ARTICLE}{_ADJECTIVES}"
    rf"(?:\b{_NAME}(?:\s+{_NOUN})?|{_FILE_ONLY})\b"
    rf"|\b(?:in|into|as)\s+(?:a|an|one)\s+{_ADJECTIVES}(?:tables?|reports?)\b)",
    re.IGNORECASE,
)
# "word" is a file only when it names one: "a Word report", "in Word".
_FILE_SIGNAL = re.compile(
    rf"\bword\s+{_NOUN}\b|\b(?:in|into|as|to)\s+(?:ms\s+|microsoft\s+)?word\b"
    rf"|\b(?:excel|power\s*point|docx|xlsx|pptx|png|csv)\b|\b{_FILE_ONLY}\b"
    rf"|\b(?:in|into|as)\s+(?:a|an|one)\s+{_ADJECTIVES}(?:tables?|reports?)\b"
    rf"|^{_POLITE}{_VERB}\s+(?:me\s+|us\s+)?(?:a|an|one)\s+{_ADJECTIVES}{_NOUN}\b",
    re.IGNORECASE,
)
_REQUEST = re.compile(rf"^{_POLITE}{_VERB}\b(?:\s+(?:me|us)\b)?\s*", re.IGNORECASE)
_OBJECT = re.compile(
    rf"^(?:(?:a|an|one|some)\s+){_ADJECTIVES}(?:{_NAME}\s+)*{_NOUN}\b"
    r"(?:\s+(?:of|on|about|for|with|covering|listing|showing|summari[sz]ing|that\s+\w+))?\s*",
    re.IGNORECASE,
)
# A clause break before a request: "…, and put them in a spreadsheet".
_CLAUSE = re.compile(rf"\s*(?:[,;]\s*|\s+(?:and|then)\s+)(?={_POLITE}{_VERB}\b)", re.IGNORECASE)
_EDGE_WORDS = r"(?:and|or|then|also|too|please|of|on|about|for|with|the|all|as\s+well)"
_LEADING = re.compile(rf"^(?:{_EDGE_WORDS}\b[\s,]*)+", re.IGNORECASE)
_TRAILING = re.compile(rf"(?:[\s,;:]+(?:{_EDGE_WORDS})?)+$", re.IGNORECASE)
_PRONOUNS = _wordset("it them this that these those they everything results findings answer")
_KOREAN_FILES = ("엑셀", "워드", "슬라이드", "파워포인트", "차트", "그래프", "스프레드시트")
_SLUG_STOPWORDS = FILE_WORDS | _wordset(
    "a about after all an and any are as at be been before between by can could did do does "
    "during each find for from get gets give got had has have how i if in into is it its list "
    "me my no not of on or our please put show since so some tell than that the their them "
    "there these they this those to us was were what when where which who whom whose why "
    "will with would"
)


def answer_title(answer: Answer, limit: int = TITLE_CHARS) -> str:
    """The answer's topic when it has one, else its question without the requests for files."""
    topic = " ".join(answer.topic.split())
    return shorten(topic, limit) if topic else short_title(answer.question, limit)


def short_title(question: str, limit: int = TITLE_CHARS) -> str:
    """The question without its requests for files: sentences that only ask for a file go, and a
    sentence that asks for one keeps what it asks about ("Put X in a spreadsheet" -> "X")."""
    sentences = split_sentences(" ".join(question.split()))
    plain = [s for s in sentences if not is_file_request(s)]
    kept = plain or [r for r in (without_requests(s) for s in sentences) if r]
    return shorten(" ".join(kept), limit) or FALLBACK_TITLE


def is_file_request(sentence: str) -> bool:
    """Whether a sentence asks for a file (a Word report, a spreadsheet, slides, a chart)."""
    if any(word.startswith(_KOREAN_FILES) for word in _words(sentence)):
        return True
    return any(_FILE_SIGNAL.search(clause) for clause in _CLAUSE.split(sentence))


def without_requests(sentence: str) -> str:
    """What a sentence asks about, its clauses that ask for files reduced to their subject."""
    stop = sentence[-1] if sentence[-1:] in "?!" else ""
    clauses = [_clause_subject(c) for c in _CLAUSE.split(sentence.rstrip(".?! "))]
    kept = [c for c in clauses if c and c.lower() not in _PRONOUNS]
    if not kept:
        return ""
    text = ", ".join(kept)
    return text[0].upper() + text[1:] + stop


def _clause_subject(clause: str) -> str:
    """A clause without its request verb and the files it names; kept whole if it names none."""
    if not _FILE_SIGNAL.search(clause):
        return clause.strip()
    rest = _REQUEST.sub("", clause.strip(), count=1)
    rest = _OBJECT.sub("", rest, count=1)
    rest = " ".join(_FORMAT_PHRASE.sub(" ", rest).split())
    rest = _TRAILING.sub("", _LEADING.sub("", rest))
    return rest.strip(" ,;:-")


def slug(title: str, words: int = 6) -> str:
    """A short, ASCII, filesystem-safe file name from a title's content words."""
    folded = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    content = [w for w in _words(folded) if w not in _SLUG_STOPWORDS]
    return "-".join(content[:words])[:60].strip("-") or "research-answer"


def _words(text: str) -> list[str]:
    return re.findall(r"[^\W_]+", text.lower())
