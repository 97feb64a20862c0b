"""An optional model writer: the prose of the answer from a chat model, given the chosen
passages with their markers. Three parts: `ChatModel`, the small protocol a model meets (any
OpenAI-compatible chat-completions endpoint is one, `OpenAIChat`: REGNB_LLM_BASE_URL,
REGNB_LLM_MODEL, REGNB_LLM_API_KEY); `WritingPolicy`, what the model is asked and which of its
sentences are kept (markers must be this answer's passages, words must come from them); and
`ModelWriter`, the two together, which falls back to the extractive answer (with a note) when
the model fails, is slow, or writes nothing that can be checked."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

import httpx

from regnb.agent._config import AgentConfig
from regnb.agent._stages import Draft
from regnb.agent._verify import marker_numbers, supported
from regnb.agent._writer import ExtractiveWriter, Writer
from regnb.agent.types import Answer, Finding, SourcedCitation, Theme
from regnb.documents.words import fold_spaces, sentence_spans
from regnb.present.markers import MARKER_RUN
from regnb.settings import LlmSettings

__all__ = [
    "ChatModel",
    "ModelSettings",
    "ModelWriter",
    "OpenAIChat",
    "WritingPolicy",
    "complete_unless_stopped",
    "default_writer",
    "parse_prose",
]

SYSTEM = (
    "You are a regulatory research assistant. Answer the question using only the numbered "
    "passages. Write markdown: first a line that starts with '**In short:**' followed by two to "
    "four sentences that answer the question itself (for 'which firms' questions, name the "
    "firms); then one or more sections, each a '### ' heading naming a theme and '- ' bullets "
    "with one finding each. End every sentence with the markers of the passages that support it, "
    "like [12][14]. State only what the passages say; quote or closely paraphrase them."
)


@dataclass(frozen=True)
class ModelSettings:
    """Where the model is and how long to wait for it."""

    base_url: str
    model: str
    api_key: str | None = None
    timeout_s: float = 20.0

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> ModelSettings | None:
        """The REGNB_LLM_* settings (`regnb.settings.LlmSettings`): REGNB_LLM_BASE_URL and
        REGNB_LLM_MODEL switch the model writer on. None when it is off."""
        found = LlmSettings.from_env(environ)
        if not found.enabled:
            return None
        return cls(found.base_url.rstrip("/"), found.model, found.api_key or None, found.timeout_s)


def default_writer(config: AgentConfig | None = None) -> Writer:
    """The model writer when the REGNB_LLM_* settings name an endpoint, else the extractive one."""
    settings = ModelSettings.from_env()
    extractive = ExtractiveWriter(config)
    return ModelWriter(settings, fallback=extractive) if settings is not None else extractive


def _finding(text: str) -> Finding | None:
    """A sentence or bullet and its markers; None when it carries no marker."""
    markers = marker_numbers(text)
    body = fold_spaces(MARKER_RUN.sub("", text))
    body = re.sub(r"\s+([.!?,;:])", r"\1", body).strip(" -*")
    return Finding(body, markers) if markers and body else None


def parse_prose(text: str) -> tuple[list[Finding], list[tuple[str, list[Finding]]]]:
    """The model's markdown as summary sentences and (theme label, bullets)."""
    head, *sections = re.split(r"^#{2,4}\s+", text.strip(), flags=re.MULTILINE)
    head = re.sub(r"\*\*\s*In short:?\s*\*\*:?", "", head, flags=re.IGNORECASE)
    folded = fold_spaces(head)
    summary = [_finding(folded[s:e]) for s, e in sentence_spans(folded)]
    themes = []
    for section in sections:
        label, _, body = section.partition("\n")
        items = re.split(r"^\s*[-*•]\s+", body, flags=re.MULTILINE)
        found = [_finding(item) for item in items if item.strip()]
        themes.append((fold_spaces(label).strip("# "), [f for f in found if f is not None]))
    return [f for f in summary if f is not None], themes


def _passage_lines(passages: Sequence[SourcedCitation]) -> str:
    return "\n\n".join(
        f"[{c.index}] ({c.name}; {c.dataset}; {c.date or 'no date'}): {fold_spaces(c.passage or '')}"
        for c in passages
    )


def _reason(exc: Exception) -> str:
    if isinstance(exc, httpx.TimeoutException):
        return "it did not answer in time"
    if isinstance(exc, httpx.HTTPStatusError):
        return f"it answered HTTP {exc.response.status_code}"
    if isinstance(exc, httpx.HTTPError):
        return "it could not be reached"
    return "its reply could not be read"


def _with_note(answer: Answer, note: str) -> Answer:
    """The answer with one more note."""
    return replace(answer, notes=[*answer.notes, note])


class ChatModel(Protocol):
    """A chat model: a system and a user message in, the reply's text out (errors raised)."""

    name: str

    def complete(self, system: str, user: str) -> str: ...


def _cancel(model: ChatModel) -> None:
    """Abort the model's request in flight, where the model can (`OpenAIChat.cancel`)."""
    cancel = getattr(model, "cancel", None)
    if callable(cancel):
        cancel()


CHECK_EVERY_S = 0.05  # how often a turn waiting on its model looks whether it was stopped


def complete_unless_stopped(
    model: ChatModel, system: str, user: str, check: Callable[[], None]
) -> str:
    """The model's reply, waited for on a worker thread while `check()` is called every
    `CHECK_EVERY_S`: when it raises (the user stopped the turn) the request is cancelled and the
    turn goes on at once, without waiting for the model's reply or its timeout."""
    done = threading.Event()
    outcome: dict[str, Any] = {}

    def call() -> None:
        try:
            outcome["reply"] = model.complete(system, user)
        except BaseException as exc:  # handed to the waiting thread
            outcome["error"] = exc
        finally:
            done.set()

    threading.Thread(target=call, name="regnb-model", daemon=True).start()
    while not done.wait(CHECK_EVERY_S):
        try:
            check()
        except BaseException:
            _cancel(model)
            raise
    if "error" in outcome:
        raise outcome["error"]
    return str(outcome["reply"])


class OpenAIChat:
    """Any OpenAI-compatible chat-completions endpoint, called with httpx."""

    def __init__(
        self, settings: ModelSettings, *, transport: httpx.BaseTransport | None = None
    ) -> None:
        self.settings = settings
        self.name = settings.model
        self.transport = transport
        self._clients: set[httpx.Client] = set()  # requests in flight, closed by `cancel`
        self._lock = threading.Lock()

    def cancel(self) -> None:
        """Close the connections of the requests in flight: each fails at once."""
        with self._lock:
            clients = list(self._clients)
        for client in clients:
            client.close()

    def complete(self, system: str, user: str) -> str:
        headers = {"Content-Type": "application/json"}
        if self.settings.api_key:
            headers["Authorization"] = f"Bearer {self.settings.api_key}"
        body = {
            "model": self.settings.model,
            "temperature": 0,
            "messages": [
                {"role": "system", "content": system},
                {"role": "user", "content": user},
            ],
        }
        with httpx.Client(timeout=self.settings.timeout_s, transport=self.transport) as client:
            with self._lock:
                self._clients.add(client)
            try:
                response = client.post(
                    f"{self.settings.base_url}/chat/completions", json=body, headers=headers
                )
                response.raise_for_status()
                content = response.json()["choices"][0]["message"]["content"]
            finally:
                with self._lock:
                    self._clients.discard(client)
        if not isinstance(content, str) or not content.strip():
            raise ValueError("empty reply")
        return content


@dataclass(frozen=True)
class WritingPolicy:
    """How the model writer uses a model: what it asks (the question and the passages the
    extractive answer cites, each with its marker, under the `system` prompt) and what it keeps
    of the reply (the sentences whose every marker is a passage given and whose words those
    passages hold). No model and no I/O here: the rules alone, tested alone."""

    system: str = SYSTEM

    def passages(self, answer: Answer) -> list[SourcedCitation]:
        """The passage citations of an answer: what the model is given to write from."""
        return [c for c in answer.citations if c.block_id is not None]

    def prompt(self, question: str, passages: Sequence[SourcedCitation]) -> str:
        """The user message: the question, then the numbered passages."""
        return f"Question: {question}\n\nPassages:\n\n{_passage_lines(passages)}"

    def accept(
        self, base: Answer, prose: str, passages: Sequence[SourcedCitation]
    ) -> Answer | None:
        """The base answer with the model's summary and themes instead of its own, each sentence
        kept only when the passages it cites back it (the base's themes stay when none of the
        model's does); None when no summary sentence is backed."""
        summary, sections = parse_prose(prose)
        by_index = {c.index: c for c in passages}
        firms = {d.document_id: d.firm_or_product or "" for d in base.documents}

        def backed(f: Finding) -> bool:
            cited = [by_index[m] for m in f.markers if m in by_index]
            return len(cited) == len(f.markers) and supported(f, cited, firms)

        summary = [f for f in summary if backed(f)]
        themes = [
            Theme(label or "Findings", kept)
            for label, found in sections
            if (kept := [f for f in found if backed(f)])
        ]
        if not summary:
            return None
        return replace(base, summary=summary, themes=themes or base.themes)


class ModelWriter(Writer):
    """A chat model under a writing policy: it rewrites the extractive answer's prose from the
    cited passages, keeps only sentences backed by them, and falls back to the extractive
    answer (saying so) when the model fails or nothing it wrote can be checked."""

    def __init__(
        self,
        model: ChatModel | ModelSettings,
        *,
        fallback: Writer | None = None,
        policy: WritingPolicy | None = None,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        if isinstance(model, ModelSettings):
            model = OpenAIChat(model, transport=transport)
        self.model = model
        self.fallback = fallback or ExtractiveWriter()
        self.policy = policy or WritingPolicy()

    def write(self, draft: Draft) -> Answer:
        base = self.fallback.write(draft)
        policy = self.policy
        passages = policy.passages(base)
        if not passages:
            return base
        try:
            prompt = policy.prompt(draft.question, passages)
            prose = complete_unless_stopped(self.model, policy.system, prompt, draft.check)
        except (httpx.HTTPError, ValueError, KeyError, IndexError, TypeError) as exc:
            return _with_note(
                base,
                f"The model writer was not used ({_reason(exc)}); this answer quotes the "
                "passages directly.",
            )
        written = policy.accept(base, prose, passages)
        if written is None:
            return _with_note(
                base,
                "The model's answer could not be checked against the passages; this answer "
                "quotes the passages directly.",
            )
        return _with_note(written, f"Written by {self.model.name} from the cited passages.")
