"""Firm entities: the documents of a corpus grouped by the firm their catalog fields name, and a
name, FEI, application number or entity id resolved to candidate entities (pure functions of
plain values; `regnb.firms.lookup` reads them from an index).

A document names its firm in a catalog field (`company`, `recalling_firm`, `applicant`...). Each
name is reduced to its keys (`regnb.ids.firm_names`: the legal name's, then any "dba" name's);
address lines are not names. Names whose keys meet, and names tied to the same FEI number, are
one entity (union-find); other names stay apart, however alike. An FEI ties a document to its
firm when its catalog fields give it, or else when its first page names exactly one.

An entity's id is made from its main key (the key most of its documents give): the key's first
words and a short hash, so the same corpus gives the same ids however often it is indexed.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from regnb import ids

__all__ = [
    "MATCHES",
    "Entity",
    "Match",
    "Mention",
    "entity_id",
    "group",
    "identifier_label",
    "resolve",
]

SLUG_CHARS = 24
# How an entity matched a query, best first (`Match.quality` is the position from the end).
MATCHES = ("id", "identifier", "name", "prefix", "words")
_FIRM_IDENTIFIERS = ("fei", "application", "510k", "pma", "denovo", "nct")  # not product codes


@dataclass(frozen=True)
class Mention:
    """What one document says of its firm: the names its catalog fields give (as written), and
    its identifiers (`(kind, normal form, page)`, page 0 for a catalog field)."""

    doc_row: int
    names: tuple[str, ...]
    identifiers: tuple[tuple[str, str, int], ...] = ()

    def feis(self) -> list[str]:
        """The FEI numbers that tie the document to a site: its fields', else the one FEI its
        first page names."""
        fielded = [v for k, v, page in self.identifiers if k == "fei" and page == 0]
        if fielded:
            return list(dict.fromkeys(fielded))
        written = {v for k, v, page in self.identifiers if k == "fei" and page == 1}
        return list(written) if len(written) == 1 else []


@dataclass(frozen=True)
class Entity:
    """A firm: its id, display name, main key and every key, the names written for it (most
    frequent first), its identifiers (`FEI 3002806560`, `NDA 021164`), and its documents."""

    id: str
    name: str
    key: str
    keys: tuple[str, ...]
    variants: tuple[str, ...]
    identifiers: tuple[str, ...]
    doc_rows: tuple[int, ...]


@dataclass(frozen=True)
class Match:
    """An entity a query found, and how (one of `MATCHES`)."""

    entity: Entity
    how: str

    @property
    def quality(self) -> int:
        return len(MATCHES) - MATCHES.index(self.how)


def entity_id(key: str) -> str:
    """A short, URL-safe id made from a main key: `hospira` -> `hospira-3f9a1c`."""
    slug = re.sub(r"[^a-z0-9]+", "-", key.lower()).strip("-")[:SLUG_CHARS].rstrip("-")
    digest = hashlib.blake2b(key.encode("utf-8"), digest_size=3).hexdigest()
    return f"{slug or 'firm'}-{digest}"


def identifier_label(kind: str, value: str) -> str | None:
    """An identifier as a firm's entity lists it (`FEI 3002806560`, `NDA 021164`, `K123456`),
    supplements dropped; None for a kind that names no firm (a product code)."""
    if kind not in _FIRM_IDENTIFIERS:
        return None
    if kind == "fei":
        return f"FEI {value}"
    if kind == "application":
        value = value.split("/")[0]
        return value if " " in value else f"Application {value}"
    return value.split("/")[0]


class _Sets:
    """Union-find over string nodes."""

    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, node: str) -> str:
        root = self.parent.setdefault(node, node)
        while root != self.parent[root]:
            root = self.parent[root]
        while node != root:
            node, self.parent[node] = self.parent[node], root
        return root

    def union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


def _firms(mention: Mention) -> list[tuple[str, list[str]]]:
    """Each firm a document names: (the name as written, its keys), address lines left out."""
    out = []
    for name in mention.names:
        if not name.strip() or ids.looks_like_address(name):
            continue
        keys = ids.firm_names(name)
        if keys:
            out.append((name, keys))
    return out


def group(mentions: Iterable[Mention]) -> list[Entity]:
    """The entities of the documents' mentions, largest first (then by id)."""
    sets = _Sets()
    members: list[tuple[Mention, list[str], list[tuple[str, str]]]] = []
    for mention in mentions:
        firms = _firms(mention)
        feis = mention.feis()
        for _, keys in firms:
            for key in keys[1:]:
                sets.union(f"k:{keys[0]}", f"k:{key}")
        if len(firms) == 1:
            for fei in feis:
                sets.union(f"k:{firms[0][1][0]}", f"f:{fei}")
        nodes = [f"k:{keys[0]}" for _, keys in firms] or [f"f:{fei}" for fei in feis]
        if nodes:
            for node in nodes:
                sets.find(node)
            names = [(name, keys[0]) for name, keys in firms]
            members.append((mention, nodes, names))
    by_root: dict[str, list[tuple[Mention, list[tuple[str, str]], list[str]]]] = defaultdict(list)
    for mention, nodes, names in members:
        for root in dict.fromkeys(sets.find(n) for n in nodes):
            by_root[root].append((mention, names, nodes))
    keys_of: dict[str, set[str]] = defaultdict(set)
    for node in sets.parent:
        keys_of[sets.find(node)].add(node)
    entities = [_entity(rows, keys_of[root]) for root, rows in by_root.items()]
    return sorted(entities, key=lambda e: (-len(e.doc_rows), e.id))


def _entity(
    rows: Sequence[tuple[Mention, list[tuple[str, str]], list[str]]], nodes: set[str]
) -> Entity:
    keys = sorted(n[2:] for n in nodes if n.startswith("k:"))
    given: Counter[str] = Counter()
    written: Counter[str] = Counter()
    labels: Counter[str] = Counter()
    for mention, names, _ in rows:
        given.update({key for _, key in names if key in keys})
        written.update({ids.firm_display(name) for name, key in names if key in keys})
        labels.update(
            {
                label
                for kind, value, page in mention.identifiers
                if page <= 1 and (label := identifier_label(kind, value))
            }
        )
    if keys:
        key = min(keys, key=lambda k: (-given[k], len(k), k))
        main = [n for n, c in written.items() if ids.firm_key(n) == key] or list(written)
        name = min(main, key=lambda n: (-written[n], len(n), n))
    else:
        fei = min(n[2:] for n in nodes)
        key, name = f"fei {fei}", f"FEI {fei}"
    typed = {label.split()[-1] for label in labels if not label.startswith(("Application", "FEI"))}
    found = [
        label
        for label in labels
        if not (label.startswith("Application ") and label.split()[-1] in typed)
    ]
    fei_labels = {f"FEI {n[2:]}" for n in nodes if n.startswith("f:")}
    return Entity(
        id=entity_id(key),
        name=name,
        key=key,
        keys=tuple(keys),
        variants=tuple(sorted(written, key=lambda n: (-written[n], n))),
        identifiers=tuple(sorted(set(found) | fei_labels, key=_identifier_order)),
        doc_rows=tuple(sorted({m.doc_row for m, _, _ in rows})),
    )


def _identifier_order(label: str) -> tuple[int, str]:
    order = ("FEI", "NDA", "ANDA", "BLA", "Application", "K", "P", "DEN", "NCT")
    first = label.split()[0] if " " in label else re.sub(r"\d.*", "", label)
    return (order.index(first) if first in order else len(order), label)


def _query_identifiers(text: str) -> list[str]:
    """The identifier labels a query names: written forms (`FEI 3002806560`, `NDA 021164`,
    `K123456`), or a bare number (7 or 10 digits an FEI, 6 an application)."""
    found = [identifier_label(i.kind, i.value) for i in ids.identifiers(text)]
    labels = [label for label in found if label]
    bare = text.strip()
    if not labels and re.fullmatch(r"\d{7}|\d{10}", bare):
        labels = [f"FEI {bare}"]
    elif not labels and re.fullmatch(r"\d{6}|\d{2,3}-\d{3}", bare):
        labels = [f"Application {bare.replace('-', '').zfill(6)}"]
    return labels


def _same_identifier(wanted: str, held: str) -> bool:
    """Whether an entity's identifier is the one asked for; an application's type counts only
    where both name one (`Application 021164` is `NDA 021164`)."""
    if wanted == held:
        return True
    untyped = wanted.startswith("Application ") or held.startswith("Application ")
    return untyped and " " in held and held.split()[-1] == wanted.split()[-1]


def _name_match(query_key: str, keys: Sequence[str]) -> str | None:
    if not query_key:
        return None
    if query_key in keys:
        return "name"
    if any(k.startswith(query_key) for k in keys):
        return "prefix"
    words = query_key.split()
    for key in keys:
        held = key.split()
        if all(any(h.startswith(w) for h in held) for w in words):
            return "words"
    return None


def resolve(entities: Iterable[Entity], query: str) -> list[Match]:
    """The entities `query` may mean, each with how it matched: its id; an identifier it holds;
    else its name by key (`regnb.ids.firm_key`: equal, a prefix of a key, or every word the
    start of a word of a key). Unordered."""
    wanted = _query_identifiers(query)
    query_key = ids.firm_key(query)
    out = []
    for entity in entities:
        if entity.id == query.strip():
            out.append(Match(entity, "id"))
        elif wanted and any(_same_identifier(w, h) for w in wanted for h in entity.identifiers):
            out.append(Match(entity, "identifier"))
        elif not wanted and (how := _name_match(query_key, entity.keys)):
            out.append(Match(entity, how))
    return out
