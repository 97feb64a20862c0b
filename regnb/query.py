"""The query syntax of one keyword item, parsed into a small typed tree (a pure function).

    media fill                  plain words: every one on the page (loosened when nothing matches)
    "media fill"                a phrase: the words adjacent and in order (after normalisation)
    "media fill"~3              in order, at most 3 other kept words between consecutive words
    -aseptic  NOT aseptic       pages holding the word (or `-"a phrase"`) are excluded
    sterility (aseptic OR media)  OR binds tighter than the implicit AND: a AND (b OR c)
    title:word  title:"a b"     in the document's title
    company:hospira             a catalog field of the datasets searched
    cfr:211.113                 pages citing 21 CFR 211.113 (`cfr:211` the part)
    fei:3002806560  nda:021164  pages holding an identifier, or whose document's catalog fields
    app:021164  k:K123456       do (on its first page); also anda:, bla:, p:, den:, nct:,
                                procode: (`regnb.ids`; `app:` an application of any type)
    section:"boxed warning"     pages of a drug label's section (`regnb.documents.labels`)
    steril*                     any index term starting with `steril` (bounded)

An item of catalog fields alone (`company:"Hospira"`, `country:IN`) matches the first page of
every document whose fields hold the values (the index term `doc:first`); an item of
exclusions alone is an error.

Words are normalised as the index does (stop words dropped, stemmed), so lower-case `or`, `and`
and `not` stay ordinary (stop) words. Identifiers read as before: a hyphen inside a word
(`LA-EP2006`, `COVID-19`) and parentheses glued to a word (`510(k)`, `211.113(b)`) are not
operators; only a `-` that starts a whitespace-separated token and `(`/`)` at token boundaries
are. A malformed item raises `InvalidRequest` naming the item and the character (1-based).
"""

from __future__ import annotations

import re
import threading
import unicodedata
import warnings
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Union

from regnb import ids
from regnb.documents.cfr import query_term
from regnb.documents.labels import query_section
from regnb.errors import InvalidRequest
from regnb.text import fold

__all__ = [
    "CFR_FIELD",
    "FIRST_PAGE_TERM",
    "ID_FIELDS",
    "MAX_SLOP",
    "MIN_PREFIX",
    "SECTION_FIELD",
    "SYNTAXES",
    "TITLE_FIELD",
    "AllOf",
    "AnyOf",
    "Cfr",
    "Field",
    "Ident",
    "KeywordItem",
    "Node",
    "Not",
    "PageTerm",
    "Phrase",
    "Prefix",
    "QuerySyntaxWarning",
    "Words",
    "cfr_term",
    "escape_item",
    "parse_item",
    "plain_item",
    "read_as_words",
    "warn_plain",
]

SYNTAXES = ("query", "plain")
TITLE_FIELD = "title"
CFR_FIELD = "cfr"
SECTION_FIELD = "section"
FIRST_PAGE_TERM = "doc:first"
"""The index term of every document's first page (`regnb.index.page_terms`)."""
# The prefixes of identifiers in an item (`fei:3002806560`), each with its kind in `regnb.ids`.
ID_FIELDS = {
    "fei": "fei",
    "app": "application",
    "nda": "application",
    "anda": "application",
    "bla": "application",
    "k": "510k",
    "p": "pma",
    "den": "denovo",
    "nct": "nct",
    "procode": "product_code",
}
MIN_PREFIX = 3
MAX_SLOP = 50

Terms = Callable[[str], list[str]]


class QuerySyntaxWarning(UserWarning):
    """Quotes or operators in a keyword item read as plain words (`syntax="plain"`)."""


@dataclass(frozen=True)
class Words:
    """Words as written, and their terms: a page must hold every one."""

    text: str
    terms: tuple[str, ...]
    at: int = 0


@dataclass(frozen=True)
class Phrase:
    """Terms in order, with at most `slop` other kept words between consecutive ones."""

    text: str
    terms: tuple[str, ...]
    slop: int = 0
    at: int = 0


@dataclass(frozen=True)
class Prefix:
    """Any index term starting with `prefix` (lower case, accents folded; not stemmed)."""

    text: str
    prefix: str
    at: int = 0


@dataclass(frozen=True)
class Field:
    """`name:value`: the document's field `name` holds the value (`terms`: its words; a quoted
    value is a phrase of them)."""

    name: str
    value: str
    terms: tuple[str, ...]
    quoted: bool = False
    at: int = 0


@dataclass(frozen=True)
class Cfr:
    """`cfr:211.113`: the page cites the section (`term` is the index term, `cfr:211.113`)."""

    text: str
    term: str
    at: int = 0


@dataclass(frozen=True)
class Ident:
    """`fei:3002806560`: the page holds the identifier, or its document's catalog fields do
    (`term` is the index term, `regnb.ids`)."""

    text: str
    term: str
    at: int = 0


@dataclass(frozen=True)
class PageTerm:
    """The page holds an index term that no word makes: a label's section
    (`section:"boxed warning"` -> `section:boxed_warning`) or, in an item of fields alone,
    `doc:first` (its document's first page)."""

    text: str
    term: str
    at: int = 0


@dataclass(frozen=True)
class Not:
    node: Node
    at: int = 0


@dataclass(frozen=True)
class AnyOf:
    nodes: tuple[Node, ...]
    at: int = 0


@dataclass(frozen=True)
class AllOf:
    nodes: tuple[Node, ...]
    at: int = 0


Node = Union[Words, Phrase, Prefix, Field, Cfr, Ident, PageTerm, Not, AnyOf, AllOf]  # noqa: UP007


@dataclass(frozen=True)
class KeywordItem:
    """One keyword item, checked: the words as given, its plain words' distinct terms (what a
    page must hold to match fully; loosening counts these) and the conditions a page must also
    meet (phrases, OR-groups, exclusions, fields, prefixes, citations). Read as plain words
    (`syntax="plain"`), an item has no conditions."""

    text: str
    terms: tuple[str, ...]
    conditions: tuple[Node, ...] = ()
    notes: tuple[str, ...] = field(default=(), compare=False)

    @property
    def size(self) -> int:
        """How many distinct plain terms a page must hold to match the item fully."""
        return len(self.terms)

    @property
    def positive_terms(self) -> tuple[str, ...]:
        """The distinct terms that count towards BM25: plain words, OR members, phrase words,
        title words and CFR terms not under a NOT (prefix expansions are added at search time)."""
        found = list(self.terms)
        for node in self.conditions:
            found.extend(_terms_of(node, positive=True))
        return tuple(dict.fromkeys(found))

    @property
    def negative_terms(self) -> tuple[str, ...]:
        """Terms only needed to exclude pages (under a NOT)."""
        found = [t for node in self.conditions for t in _terms_of(node, positive=False)]
        return tuple(t for t in dict.fromkeys(found) if t not in self.positive_terms)

    def leaves(self) -> Iterator[tuple[Node, bool]]:
        """Every leaf of the conditions (phrases, prefixes, fields, ...), in order, each with
        whether a page must meet it (True) or is excluded by it (under a NOT)."""
        for node in self.conditions:
            yield from _leaves(node, True)

    @property
    def fields(self) -> tuple[Field, ...]:
        return tuple(n for n, _ in self.leaves() if isinstance(n, Field))

    @property
    def prefixes(self) -> tuple[tuple[Prefix, bool], ...]:
        """The prefixes, each with whether it is required (else excluded)."""
        return tuple((n, pos) for n, pos in self.leaves() if isinstance(n, Prefix))


def _leaves(node: Node, positive: bool) -> Iterator[tuple[Node, bool]]:
    if isinstance(node, Not):
        yield from _leaves(node.node, not positive)
    elif isinstance(node, AnyOf | AllOf):
        for child in node.nodes:
            yield from _leaves(child, positive)
    else:
        yield node, positive


def _terms_of(node: Node, *, positive: bool, negated: bool = False) -> list[str]:
    if isinstance(node, Not):
        return _terms_of(node.node, positive=positive, negated=not negated)
    if isinstance(node, AnyOf | AllOf):
        return [t for n in node.nodes for t in _terms_of(n, positive=positive, negated=negated)]
    if negated == positive:
        return []
    if isinstance(node, Words | Phrase):
        return list(node.terms)
    if isinstance(node, Cfr | Ident | PageTerm):
        return [node.term]
    if isinstance(node, Field) and node.name == TITLE_FIELD:
        return list(node.terms)
    return []


def plain_item(text: str, terms: Terms) -> KeywordItem:
    """The item read as plain words (the spec's meaning): every word on the page."""
    return KeywordItem(text, tuple(dict.fromkeys(terms(text))))


def cfr_term(text: str) -> str:
    """The index term of a CFR reference (`regnb.documents.cfr.query_term`): `211.113(b)`,
    `21 CFR 211.113` -> `cfr:211.113`, `part 211` -> `cfr:211`. ValueError when it is not one."""
    return query_term(text)


_FIELD = re.compile(r"([A-Za-z_][A-Za-z0-9_]*):(?=\S)")
_SLOP = re.compile(r"~(\d+)")
OPERATORS = ("OR", "AND", "NOT")
_MAYBE_OPERATOR = re.compile(r'["()*:~]|(?:^|\s)-|\b(?:OR|AND|NOT)\b')


@dataclass(frozen=True)
class _Tok:
    kind: str  # "(", ")", "-", "OR", "AND", "NOT", "word", "phrase", "prefix", "field"
    at: int
    text: str = ""
    slop: int = 0
    name: str = ""
    quoted: bool = False


class _Syntax:
    """Raises the item's `InvalidRequest` at a character."""

    def __init__(self, where: str) -> None:
        self.where = where

    def error(self, problem: str, at: int) -> InvalidRequest:
        return InvalidRequest(f"{self.where}: {problem} at character {at + 1}", field=self.where)


def _word_end(s: str, i: int) -> int:
    """Where the word starting at `i` ends: at whitespace, or at a `)` the word did not open."""
    depth = 0
    while i < len(s) and not s[i].isspace():
        if s[i] == "(":
            depth += 1
        elif s[i] == ")":
            if depth == 0:
                break
            depth -= 1
        i += 1
    return i


def _quoted(s: str, i: int, syntax: _Syntax) -> tuple[str, int, int]:
    """The phrase opened by the quote at `i`: its text, slop, and where it ends."""
    close = s.find('"', i + 1)
    if close < 0:
        raise syntax.error("unclosed quote", i)
    end, slop = close + 1, 0
    if s.startswith("~", end):
        found = _SLOP.match(s, end)
        if not found:
            raise syntax.error("a number must follow ~", end)
        slop = int(found.group(1))
        if slop > MAX_SLOP:
            raise syntax.error(f"~{slop} is more than {MAX_SLOP} words", end)
        end = found.end()
    return s[i + 1 : close], slop, end


def _tokens(s: str, syntax: _Syntax) -> list[_Tok]:
    out: list[_Tok] = []
    i = 0
    while i < len(s):
        c = s[i]
        if c.isspace():
            i += 1
        elif c in "()":
            out.append(_Tok(c, i))
            i += 1
        elif c == "-":
            if i + 1 < len(s) and not s[i + 1].isspace():
                out.append(_Tok("-", i))
            i += 1  # a lone "-" is punctuation
        elif c == '"':
            text, slop, end = _quoted(s, i, syntax)
            out.append(_Tok("phrase", i, text, slop))
            i = end
        elif found := _FIELD.match(s, i):
            start = found.end()
            if s[start] == '"':
                text, _, end = _quoted(s, start, syntax)
                out.append(_Tok("field", i, text, name=found.group(1).lower(), quoted=True))
            else:
                end = _word_end(s, start)
                out.append(_Tok("field", i, s[start:end], name=found.group(1).lower()))
            i = end
        else:
            end = _word_end(s, i)
            word = s[i:end]
            if word in OPERATORS:
                out.append(_Tok(word, i))
            elif word.endswith("*") and word.strip("*"):
                out.append(_Tok("prefix", i, word.rstrip("*")))
            elif word.strip("*"):
                out.append(_Tok("word", i, word))
            i = end
    return out


class _Parser:
    """Recursive descent: item := and; and := or ((AND)? or)*; or := unary (OR unary)*;
    unary := (- | NOT) unary | ( and ) | leaf."""

    def __init__(self, tokens: list[_Tok], terms: Terms, syntax: _Syntax) -> None:
        self.toks, self.pos, self.terms, self.syntax = tokens, 0, terms, syntax
        self.notes: list[str] = []

    def peek(self) -> _Tok | None:
        return self.toks[self.pos] if self.pos < len(self.toks) else None

    def take(self) -> _Tok:
        tok = self.toks[self.pos]
        self.pos += 1
        return tok

    def operand_follows(self) -> bool:
        tok = self.peek()
        return tok is not None and tok.kind not in (")", "OR", "AND")

    def item(self) -> AllOf:
        node = self.conjunction(0)
        tok = self.peek()
        if tok is not None:  # only a ")" stops a conjunction at the top
            raise self.syntax.error("unmatched closing parenthesis", tok.at)
        return node

    def conjunction(self, at: int) -> AllOf:
        nodes: list[Node] = []
        while (tok := self.peek()) is not None and tok.kind != ")":
            if tok.kind == "AND":
                self.take()
                if not nodes:
                    raise self.syntax.error("AND with nothing on its left", tok.at)
                if not self.operand_follows():
                    raise self.syntax.error("AND with nothing on its right", tok.at)
                continue
            if tok.kind == "OR":
                raise self.syntax.error("OR with nothing on its left", tok.at)
            nodes.append(self.disjunction())
        return AllOf(tuple(nodes), at)

    def disjunction(self) -> Node:
        first = self.unary()
        nodes = [first]
        while (tok := self.peek()) is not None and tok.kind == "OR":
            self.take()
            if not self.operand_follows():
                raise self.syntax.error("OR with nothing on its right", tok.at)
            nodes.append(self.unary())
        return first if len(nodes) == 1 else AnyOf(tuple(nodes), nodes[0].at)

    def unary(self) -> Node:
        tok = self.take()
        if tok.kind in ("-", "NOT"):
            if not self.operand_follows():
                raise self.syntax.error(f"{tok.kind} with nothing to exclude", tok.at)
            return Not(self.unary(), tok.at)
        if tok.kind == "(":
            inner = self.conjunction(tok.at)
            close = self.peek()
            if close is None:
                raise self.syntax.error("unclosed parenthesis", tok.at)
            self.take()
            if not inner.nodes:
                raise self.syntax.error("empty parentheses", tok.at)
            return inner
        return self.leaf(tok)

    def leaf(self, tok: _Tok) -> Node:
        if tok.kind == "phrase":
            found = tuple(self.terms(tok.text))
            if not found:
                self.notes.append(f'"{tok.text}" has no searchable word; it was ignored')
            return Phrase(tok.text, found, tok.slop, tok.at)
        if tok.kind == "prefix":
            return Prefix(tok.text, self.prefix(tok), tok.at)
        if tok.kind == "field":
            return self.field(tok)
        return Words(tok.text, tuple(self.terms(tok.text)), tok.at)

    def prefix(self, tok: _Tok) -> str:
        folded = unicodedata.normalize("NFKD", fold(tok.text).lower())
        stem = "".join(c for c in folded if not unicodedata.combining(c))
        if not re.fullmatch(r"[^\W_]+", stem):
            raise self.syntax.error(
                f"a prefix must be one word of letters or digits: {tok.text}*", tok.at
            )
        if len(stem) < MIN_PREFIX:
            raise self.syntax.error(
                f"a prefix needs at least {MIN_PREFIX} letters or digits: {tok.text}*", tok.at
            )
        return stem

    def field(self, tok: _Tok) -> Node:
        if tok.name == CFR_FIELD:
            try:
                return Cfr(tok.text, cfr_term(tok.text), tok.at)
            except ValueError as exc:
                raise self.syntax.error(str(exc), tok.at) from None
        if tok.name == SECTION_FIELD:
            try:
                return PageTerm(tok.text, query_section(tok.text), tok.at)
            except ValueError as exc:
                raise self.syntax.error(str(exc), tok.at) from None
        if tok.name in ID_FIELDS:
            try:
                return Ident(
                    tok.text, ids.query_term(ID_FIELDS[tok.name], f"{tok.name}:{tok.text}")
                )
            except ValueError as exc:
                raise self.syntax.error(str(exc), tok.at) from None
        found = tuple(self.terms(tok.text))
        if not found and not re.search(r"[^\W_]", tok.text):
            raise self.syntax.error(f"{tok.name}: has no value to match", tok.at)
        return Field(tok.name, tok.text, found, tok.quoted, tok.at)


def _simplify(node: Node) -> Node | None:
    """The node without what holds no term (stop words, empty phrases), or None."""
    if isinstance(node, Words | Phrase):
        return node if node.terms else None
    if isinstance(node, Not):
        inner = _simplify(node.node)
        return Not(inner, node.at) if inner is not None else None
    if isinstance(node, AnyOf | AllOf):
        kept = [n for n in (_simplify(c) for c in node.nodes) if n is not None]
        if not kept:
            return None
        if len(kept) == 1:
            return kept[0]
        return type(node)(tuple(kept), node.at)
    return node


def _requires_term(node: Node) -> bool:
    """Whether every page meeting the node holds one of its terms (so it is a candidate)."""
    if isinstance(node, Words | Phrase | Prefix | Cfr | Ident | PageTerm):
        return True
    if isinstance(node, Field):
        return node.name == TITLE_FIELD and bool(node.terms)
    if isinstance(node, AnyOf):
        return all(_requires_term(n) for n in node.nodes)
    if isinstance(node, AllOf):
        return any(_requires_term(n) for n in node.nodes)
    return False


def _selects(node: Node) -> bool:
    """Whether the node picks documents by their fields or requires a term (so an item of it
    and exclusions has something to find): a field not under a NOT, all of an OR, any of an AND."""
    if isinstance(node, Field):
        return True
    if isinstance(node, AnyOf):
        return all(_selects(n) for n in node.nodes)
    if isinstance(node, AllOf):
        return any(_selects(n) for n in node.nodes)
    return _requires_term(node)


def _top_level(root: AllOf) -> Iterator[Node]:
    """The conjuncts of the item, parenthesised AND-groups flattened into it."""
    for node in root.nodes:
        if isinstance(node, AllOf):
            yield from _top_level(node)
        else:
            yield node


def parse_item(text: str, terms: Terms, *, where: str = "keywords[0]") -> KeywordItem:
    """One keyword item in the query syntax; `terms` normalises words as the index does.
    Raises `InvalidRequest` (field `where`) for a malformed item."""
    syntax = _Syntax(where)
    tokens = _tokens(text, syntax)
    if all(tok.kind == "word" for tok in tokens):  # no operator: the words at once, as plain
        conjuncts: list[Node] = [Words(text, tuple(terms(text)))] if tokens else []
        parser = None
    else:
        parser = _Parser(tokens, terms, syntax)
        simple = _simplify(parser.item())
        found = list(_top_level(simple)) if isinstance(simple, AllOf) else [simple]
        conjuncts = [n for n in found if n is not None]
    conjuncts = [n for n in conjuncts if not isinstance(n, Words) or n.terms]
    if not conjuncts:
        raise InvalidRequest(
            f"{where} {text!r} has no searchable word (only stop words or punctuation)",
            field=where,
        )
    if not any(_requires_term(n) for n in conjuncts):
        if not any(_selects(n) for n in conjuncts):
            raise InvalidRequest(
                f"{where}: {text!r} has nothing to search for: every match must hold a word, "
                "phrase, prefix, section, cfr: citation, identifier or field value "
                "(exclusions only narrow)",
                field=where,
            )
        conjuncts.append(PageTerm("", FIRST_PAGE_TERM))  # fields alone: documents' first pages
    plain = [t for n in conjuncts if isinstance(n, Words) for t in n.terms]
    conditions = tuple(n for n in conjuncts if not isinstance(n, Words))
    notes = tuple(parser.notes) if parser else ()
    return KeywordItem(text, tuple(dict.fromkeys(plain)), conditions, notes)


def read_as_words(text: str, terms: Terms) -> bool:
    """Whether the query syntax reads `text` exactly as plain words (no operator in it)."""
    if not _MAYBE_OPERATOR.search(text):
        return True
    try:
        parsed = parse_item(text, terms)
    except InvalidRequest:
        return False
    return not parsed.conditions and parsed.terms == plain_item(text, terms).terms


_warned = threading.Event()


def warn_plain(keywords: Iterable[object], terms: Terms, *, stacklevel: int = 2) -> None:
    """Warn (`QuerySyntaxWarning`, once per process) when an item read as plain words holds
    quotes or operators that the query syntax would have read."""
    if _warned.is_set():
        return
    for item in keywords:
        if isinstance(item, str) and not read_as_words(item, terms):
            _warned.set()
            warnings.warn(
                f"{item!r} was read as plain words (syntax='plain'): its quotes and operators "
                "are ignored; leave syntax= out to read them as query syntax",
                QuerySyntaxWarning,
                stacklevel=stacklevel + 1,
            )
            return


def escape_item(text: str, terms: Terms) -> str:
    """`text` as it is where the query syntax reads it as plain words; else its runs of letters
    and digits joined by spaces, `OR`/`AND`/`NOT` lower-cased: the same plain terms, no
    operator (for items written by a program from free text, such as the agent's)."""
    if read_as_words(text, terms):
        return text
    runs = re.findall(r"[^\W_]+", text)
    return " ".join(w.lower() if w in OPERATORS else w for w in runs)
