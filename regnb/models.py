"""The spec's wire objects as frozen dataclasses, one per object: what a conversation endpoint
answers, and a dataset's status in a search.

Each has `from_dict` (the JSON the server sends) and `to_dict` (exactly that JSON again: same
keys, same order, an absent optional field left out). Field order is the wire's key order. The
service builds its answers with them, the HTTP routes send `to_dict()`, the clients rebuild them
with `from_dict`; DataFrame columns and the served OpenAPI schemas are derived from the fields.

    Step, Question, Citation            parts of a turn
    Turn                                one message and its answer
    ProducedDocumentEntry               a produced document as the conversation lists it
    ConversationRead                    GET /api/v3/conversations/{id}
    ConversationSummary, ConversationList   GET /api/v3/conversations
    ConversationAccepted                POST /api/v3/conversations (and .../messages)
    ConversationStopped                 POST /api/v3/conversations/{id}/stop
    ProducedDocument                    GET /api/v3/conversations/{id}/documents/{doc}
    DatasetStatus                       a value of a search response's `datasets`
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

__all__ = [
    "Citation",
    "ConversationAccepted",
    "ConversationList",
    "ConversationRead",
    "ConversationStopped",
    "ConversationSummary",
    "DatasetStatus",
    "ProducedDocument",
    "ProducedDocumentEntry",
    "Question",
    "Step",
    "Turn",
    "Wire",
]


def _plain(value: Any) -> Any:
    """A field's value as JSON: a model as its dict, a tuple as a list."""
    if isinstance(value, Wire):
        return value.to_dict()
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


class Wire:
    """What every wire model shares: `to_dict`, a flat `from_dict`, and its keys.

    `OPTIONAL` names the fields that the JSON leaves out when they are None (every other field is
    always sent, null or not)."""

    OPTIONAL: ClassVar[frozenset[str]] = frozenset()

    @classmethod
    def wire_keys(cls) -> list[str]:
        """Every key the object may have, in the wire's order (the dataclass's fields)."""
        return [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]

    @classmethod
    def required_keys(cls) -> list[str]:
        """The keys always present."""
        return [k for k in cls.wire_keys() if k not in cls.OPTIONAL]

    @classmethod
    def from_dict(cls, body: Mapping[str, Any]) -> Self:
        """The object `body` describes; KeyError when a required key is missing (keys the
        model does not know are ignored)."""
        return cls(**cls._values(body))

    @classmethod
    def _values(cls, body: Mapping[str, Any]) -> dict[str, Any]:
        required = set(cls.required_keys())
        return {k: body[k] if k in required else body.get(k) for k in cls.wire_keys()}

    def to_dict(self) -> dict[str, Any]:
        """The JSON object, as the server sends it."""
        out: dict[str, Any] = {}
        for key in self.wire_keys():
            value = getattr(self, key)
            if value is None and key in self.OPTIONAL:
                continue
            out[key] = _plain(value)
        return out


@dataclass(frozen=True)
class Step(Wire):
    """A progress item of a running turn: "Searching FDA Warning Letters", 12."""

    message: str
    count: int = 0


@dataclass(frozen=True)
class Question(Wire):
    """The clarifying question a `needs_input` turn asks, with suggested replies."""

    question: str
    options: tuple[str, ...]

    @classmethod
    def from_dict(cls, body: Mapping[str, Any]) -> Self:
        return cls(question=body["question"], options=tuple(body["options"]))


@dataclass(frozen=True)
class Citation(Wire):
    """A page citation, or a passage citation: `block_id` and the page's `parent_index`."""

    OPTIONAL = frozenset({"block_id", "parent_index"})

    index: int
    name: str
    dataset: str  # the dataset's display name
    date: str | None
    page_num: int | None
    url: str
    block_id: str | None = None
    parent_index: int | None = None

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        if self.block_id is not None:  # a passage citation names its page, null or not
            out["parent_index"] = self.parent_index
        return out


@dataclass(frozen=True)
class Turn(Wire):
    """A message and its answer; `steps` only while it runs."""

    OPTIONAL = frozenset({"steps"})

    turn_index: int
    message: str
    status: str
    answer: str | None
    citations: tuple[Citation, ...]
    question: Question | None
    submitted_at: str | None
    steps: tuple[Step, ...] | None = None

    @classmethod
    def from_dict(cls, body: Mapping[str, Any]) -> Self:
        values = cls._values(body)
        values["citations"] = tuple(Citation.from_dict(c) for c in body["citations"])
        if body["question"] is not None:
            values["question"] = Question.from_dict(body["question"])
        if body.get("steps") is not None:
            values["steps"] = tuple(Step.from_dict(s) for s in body["steps"])
        return cls(**values)


@dataclass(frozen=True)
class ProducedDocumentEntry(Wire):
    """A produced document as the conversation lists it. `available` is regnb's extension of
    the spec's fields: present, and false, only when the file was deleted from disk."""

    OPTIONAL = frozenset({"available"})

    id: str
    title: str
    type: str  # text, file or image
    created_at: str | None
    available: bool | None = None


@dataclass(frozen=True)
class ConversationRead(Wire):
    """The conversation with every turn, oldest first, and what the agent produced."""

    conversation_id: str
    status: str
    url: str
    turns: tuple[Turn, ...]
    documents: tuple[ProducedDocumentEntry, ...]
    error: str | None

    @classmethod
    def from_dict(cls, body: Mapping[str, Any]) -> Self:
        values = cls._values(body)
        values["turns"] = tuple(Turn.from_dict(t) for t in body["turns"])
        values["documents"] = tuple(ProducedDocumentEntry.from_dict(d) for d in body["documents"])
        return cls(**values)

    @property
    def citations(self) -> tuple[Citation, ...]:
        """Every turn's citations, in order (numbers continue across turns)."""
        return tuple(c for t in self.turns for c in t.citations)


@dataclass(frozen=True)
class ConversationSummary(Wire):
    """A conversation in the list."""

    conversation_id: str
    title: str | None
    status: str
    created_at: str
    last_activity_at: str
    turn_count: int
    url: str


@dataclass(frozen=True)
class ConversationList(Wire):
    """A slice of the account's conversations, most recent activity first."""

    conversations: tuple[ConversationSummary, ...]
    total: int
    limit: int
    offset: int

    @classmethod
    def from_dict(cls, body: Mapping[str, Any]) -> Self:
        values = cls._values(body)
        values["conversations"] = tuple(
            ConversationSummary.from_dict(c) for c in body["conversations"]
        )
        return cls(**values)


@dataclass(frozen=True)
class ConversationAccepted(Wire):
    """The answer to a start or a follow-up: the turn it started (or a retry found)."""

    conversation_id: str
    turn_index: int
    status: str
    url: str


@dataclass(frozen=True)
class ConversationStopped(Wire):
    """The answer to a stop: `stopped` is False when nothing was running."""

    conversation_id: str
    stopped: bool


@dataclass(frozen=True)
class ProducedDocument(Wire):
    """A produced document read alone: a text document's `content`, or a file's or image's
    signed `url` with `filename` and `expires_in` (seconds)."""

    OPTIONAL = frozenset({"available", "content", "url", "filename", "expires_in"})

    id: str
    title: str
    type: str
    created_at: str | None
    available: bool | None = None
    content: str | None = None
    url: str | None = None
    filename: str | None = None
    expires_in: int | None = None


@dataclass(frozen=True)
class DatasetStatus(Wire):
    """A dataset's status in a search: `matches` and `pages` only for `ok`, `loosened` only when
    true, `reason` why it was not searched (for example `no date field`)."""

    OPTIONAL = frozenset({"matches", "pages", "loosened", "reason"})

    status: str
    matches: int | None = None
    pages: int | None = None
    loosened: bool | None = None
    reason: str | None = None
