"""The conversation service against the spec's turn state table: start, follow-up, stop, runs
that end, fail or ask; idempotency keys (retries, reuse, races); the concurrency limit and the
free plan's monthly questions; the list; and reads that wait. Each over the SQLite store and over
the PostgreSQL one (REGNB_DATABASE_URL)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread
import pytest

from regnb.agent.types import SourcedCitation, Step, Stopped, TurnRequest, TurnResult
from regnb.conversations.service import ConversationService, _fingerprint
from regnb.conversations.testing import FakeAgent, open_service, wait_until
from regnb.errors import (
    ConcurrentConversations,
    IdempotencyKeyInUse,
    IdempotencyKeyReused,
    InvalidRequest,
    NotFound,
    QuotaExhausted,
    TurnInFlight,
)
from regnb.models import ConversationRead
from regnb.server.testing import FakeClock

ACME, BETA = "acme", "beta"
WAIT = 30.0  # an upper bound for waits that end early when all is well
NOVEMBER = 1_700_000_000.0  # 2023-11-14


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(NOVEMBER)


@pytest.fixture
def gate() -> Iterator[threading.Event]:
    """Holds gated runs after their first step; opened at the end of every test."""
    event = threading.Event()
    yield event
    event.set()


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest) -> dict[str, str]:
    """The store's settings: the SQLite file under the home, or a PostgreSQL database."""
    if request.param == "sqlite":
        return {}
    return {"database_url": request.getfixturevalue("postgres_url")}


@pytest.fixture
def make(
    tmp_path: Path, clock: FakeClock, backend: dict[str, str]
) -> Iterator[Callable[..., ConversationService]]:
    services: list[ConversationService] = []

    def make(agent: Any = None, home: Path | None = None, **settings: Any) -> ConversationService:
        home = home or tmp_path / "home"
        service = open_service(home, agent, clock=clock, **backend, **settings)
        services.append(service)
        return service

    yield make
    for service in services:
        service.close()


def finished(service: ConversationService, cid: str, account: str = ACME) -> dict[str, Any]:
    body = service.read(account, cid, wait=WAIT).to_dict()
    assert body["status"] != "running"
    return body


def started_run(service: ConversationService, agent: FakeAgent, message: str = "q") -> str:
    """A conversation whose run is inside the (gated) agent."""
    runs = len(agent.requests)
    cid = service.start(ACME, "enterprise", message).body.conversation_id
    wait_until(lambda: len(agent.requests) > runs)
    return cid


# --- the state table ------------------------------------------------------------------------


def test_start_returns_at_once_with_turn_0_running_and_its_steps(make, gate) -> None:
    agent = FakeAgent(gate=gate)
    service = make(agent)
    accepted = service.start(ACME, "enterprise", "Which firms were warned?")
    cid = accepted.body.conversation_id
    assert accepted.started
    assert accepted.body.to_dict() == {
        "conversation_id": cid,
        "turn_index": 0,
        "status": "running",
        "url": f"http://localhost:8000/api/v3/conversations/{cid}",
    }
    assert cid.startswith("conv_") and len(cid) == 29
    wait_until(agent.started.is_set)
    body = service.read(ACME, cid).to_dict()
    assert body["status"] == "running"
    assert body["error"] is None and body["documents"] == []
    (turn,) = body["turns"]
    assert turn == {
        "turn_index": 0,
        "message": "Which firms were warned?",
        "status": "running",
        "answer": None,
        "citations": [],
        "question": None,
        "submitted_at": "2023-11-14T22:13:20+00:00",
        "steps": [{"message": "Searching the fake corpus", "count": 3}],
    }


def test_run_that_ends_normally_fills_answer_and_citations(make) -> None:
    service = make()
    cid = service.start(ACME, "enterprise", "q").body.conversation_id
    body = finished(service, cid)
    assert body["status"] == "completed"
    (turn,) = body["turns"]
    assert "steps" not in turn and turn["status"] == "completed"
    assert turn["answer"].startswith("**In short:**") and "[2]" in turn["answer"]
    page, passage = turn["citations"]
    assert page == {
        "index": 1,
        "name": "A fake inspection record, page 1",
        "dataset": "FDA Form 483",
        "date": "2021-01-15",
        "page_num": 1,
        "url": "https://example.test/fake",
    }
    assert passage == {**page, "index": 2, "block_id": "¶1", "parent_index": 1}


def test_clarifying_question_ends_needs_input_and_the_reply_goes_on_with_both(make) -> None:
    agent = FakeAgent()
    service = make(agent)
    cid = service.start(ACME, "enterprise", "tell me about it [clarify]").body.conversation_id
    body = finished(service, cid)
    assert body["status"] == "needs_input"
    assert body["turns"][0]["question"] == {
        "question": "Which dataset do you mean?",
        "options": ["Form 483", "Recalls"],
    }
    assert body["turns"][0]["citations"] == []
    reply = service.send(ACME, "enterprise", cid, "Form 483")
    assert reply.started and reply.body.turn_index == 1
    assert finished(service, cid)["status"] == "completed"
    (prior,) = agent.requests[1].history
    assert prior.status == "needs_input" and prior.question is not None
    assert prior.message == "tell me about it [clarify]"


def test_follow_up_sees_every_earlier_turn_and_citation_numbers_continue(make) -> None:
    agent = FakeAgent()
    service = make(agent)
    cid = service.start(ACME, "enterprise", "first").body.conversation_id
    finished(service, cid)
    service.send(ACME, "enterprise", cid, "second")
    body = finished(service, cid)
    request = agent.requests[1]
    assert request.first_citation == 3 and request.plan == "enterprise"
    assert request.today.isoformat() == "2023-11-14"
    (prior,) = request.history
    assert [c.index for c in prior.citations] == [1, 2]
    assert prior.citations[1].passage == "Sterility assurance failed"
    assert prior.state == {"turn": 0, "message": "first"}
    assert [c["index"] for c in body["turns"][1]["citations"]] == [3, 4]
    assert body["turns"][1]["citations"][1]["parent_index"] == 3


def test_message_while_running_is_turn_in_flight(make, gate) -> None:
    agent = FakeAgent(gate=gate)
    service = make(agent)
    cid = started_run(service, agent)
    with pytest.raises(TurnInFlight):
        service.send(ACME, "enterprise", cid, "another")
    gate.set()
    assert [t["message"] for t in finished(service, cid)["turns"]] == ["q"]


def test_stopped_first_message_leaves_a_conversation_without_turns(make, gate) -> None:
    agent = FakeAgent(gate=gate)
    service = make(agent)
    cid = started_run(service, agent)
    assert service.stop(ACME, cid).to_dict() == {"conversation_id": cid, "stopped": True}
    body = service.read(ACME, cid).to_dict()
    assert (body["status"], body["turns"], body["documents"]) == ("stopped", [], [])
    assert service.stop(ACME, cid).to_dict() == {"conversation_id": cid, "stopped": False}
    wait_until(lambda: not service.runner.live())  # the run saw the stop and let go
    assert service.read(ACME, cid).status == "stopped"
    (summary,) = service.list_conversations(ACME).to_dict()["conversations"]
    assert (summary["status"], summary["turn_count"]) == ("stopped", 0)


def test_stopped_follow_up_removes_it_and_its_files_and_keeps_the_previous_answer(
    make, gate
) -> None:
    agent = FakeAgent(gate=gate)
    service = make(agent)
    gate.set()
    cid = service.start(ACME, "enterprise", "first [text]").body.conversation_id
    before = finished(service, cid)
    gate.clear()
    service.send(ACME, "enterprise", cid, "second [file] [image]")
    wait_until(lambda: len(agent.requests) == 2)
    assert service.stop(ACME, cid).stopped
    body = service.read(ACME, cid).to_dict()
    assert body["status"] == "stopped"
    assert body["turns"] == before["turns"]
    assert body["documents"] == before["documents"]
    gate.set()
    wait_until(lambda: not service.runner.live())
    assert [p.name for p in service.store.files.iterdir()] == []  # nothing produced survives
    assert service.read(ACME, cid).to_dict() == body


def test_stop_with_nothing_running_answers_false_and_the_answer_stands(make) -> None:
    service = make()
    cid = service.start(ACME, "enterprise", "q").body.conversation_id
    before = finished(service, cid)
    assert service.stop(ACME, cid).to_dict() == {"conversation_id": cid, "stopped": False}
    assert service.read(ACME, cid).to_dict() == before


@pytest.mark.parametrize("first", ["[fail]", "stopped"])
def test_a_message_after_an_error_or_a_stop_takes_the_next_free_turn_index(
    make, gate, first: str
) -> None:
    agent = FakeAgent(gate=gate)
    service = make(agent)
    cid = started_run(service, agent, "q [fail]")
    if first == "stopped":
        service.stop(ACME, cid)
    gate.set()
    assert finished(service, cid)["status"] in ("error", "stopped")
    accepted = service.send(ACME, "enterprise", cid, "again")
    assert accepted.body.turn_index == (1 if first == "[fail]" else 0)
    assert finished(service, cid)["status"] == "completed"


def test_agent_failure_reads_error_with_a_plain_explanation(make) -> None:
    service = make()
    cid = service.start(ACME, "enterprise", "q [fail]").body.conversation_id
    body = finished(service, cid)
    assert body["status"] == "error" and body["turns"][0]["status"] == "error"
    assert body["error"] == "the research could not finish: an unexpected RuntimeError in the agent"
    assert body["turns"][0]["answer"] is None


class OddAgent:
    """Returns what it is given to return, or raises it."""

    def __init__(self, outcome: Any) -> None:
        self.outcome = outcome

    def __call__(self) -> OddAgent:
        return self

    def run(self, request: TurnRequest, report: Any, stopped: Any) -> TurnResult:
        report([Step("Working", 1)])
        if isinstance(self.outcome, BaseException):
            raise self.outcome
        return self.outcome


CITE = SourcedCitation(
    index=1,
    name="Doc, page 1",
    dataset="FDA Form 483",
    date=None,
    page_num=1,
    url="u",
    document_id="d",
    dataset_id="fda_483",
)


@pytest.mark.parametrize(
    ("outcome", "error"),
    [
        (Stopped(), "the run was stopped before it finished"),
        (NotFound("no document 'x'"), "the research could not finish: no document 'x'"),
        (TurnResult("running", None), "the agent ended with status 'running'"),  # type: ignore[arg-type]
        (TurnResult("completed", "a", citations=[CITE, CITE]), "numbered its citations wrongly"),
        (TurnResult("needs_input", "?"), "asked for input without a question"),
    ],
)
def test_what_the_agent_gets_wrong_reads_error(make, outcome: Any, error: str) -> None:
    service = make(OddAgent(outcome))
    cid = service.start(ACME, "enterprise", "q").body.conversation_id
    body = finished(service, cid)
    assert body["status"] == "error" and error in body["error"]


def test_another_accounts_conversation_is_not_found(make) -> None:
    service = make()
    cid = service.start(ACME, "enterprise", "q [text]").body.conversation_id
    doc = finished(service, cid)["documents"][0]["id"]
    calls = [
        lambda: service.read(BETA, cid),
        lambda: service.send(BETA, "enterprise", cid, "x"),
        lambda: service.stop(BETA, cid),
        lambda: service.document(BETA, "enterprise", cid, doc),
        lambda: service.citation_rows(BETA, cid),
        lambda: service.read(ACME, "conv_nope"),
    ]
    for call in calls:
        with pytest.raises(NotFound):
            call()
    assert service.list_conversations(BETA).total == 0


@pytest.mark.parametrize(
    ("message", "key", "field"),
    [
        (None, None, "message"),
        ("  ", None, "message"),
        (3, None, "message"),
        ("q", "a b", "Idempotency-Key"),
    ],
)
def test_invalid_start_is_refused_before_anything_is_written(
    make, message: Any, key: Any, field: str
) -> None:
    service = make()
    with pytest.raises(InvalidRequest) as err:
        service.start(ACME, "enterprise", message, key)
    assert err.value.field == field
    assert service.list_conversations(ACME).total == 0


def test_title_is_the_first_message_on_one_line_and_shortened(make) -> None:
    service = make()
    service.start(ACME, "enterprise", "Which\nfirms   were warned? " + "x" * 200)
    (summary,) = service.list_conversations(ACME).to_dict()["conversations"]
    assert summary["title"].startswith("Which firms were warned? xxx")
    assert len(summary["title"]) == 100 and summary["title"].endswith("…")


# --- idempotency keys -----------------------------------------------------------------------


def test_retry_with_a_used_key_returns_the_turn_and_starts_nothing(make) -> None:
    agent = FakeAgent()
    service = make(agent)
    first = service.start(ACME, "enterprise", "q", "key-1")
    cid = first.body.conversation_id
    finished(service, cid)
    retry = service.start(ACME, "enterprise", "q", "key-1")
    assert not retry.started
    assert retry.body.to_dict() == {**first.body.to_dict(), "status": "completed"}
    follow = service.send(ACME, "enterprise", cid, "more", "key-2")
    finished(service, cid)
    again = service.send(ACME, "enterprise", cid, "more", "key-2")
    assert (again.started, again.body.turn_index, again.body.status) == (
        False,
        1,
        "completed",
    )
    assert follow.body.turn_index == 1
    assert len(agent.requests) == 2
    assert service.list_conversations(ACME).total == 1


def test_retry_of_a_stopped_message_reads_stopped_even_after_its_index_is_reused(
    make, gate
) -> None:
    agent = FakeAgent(gate=gate)
    service = make(agent)
    cid = service.start(ACME, "enterprise", "q", "first").body.conversation_id
    wait_until(agent.started.is_set)
    service.stop(ACME, cid)
    gate.set()
    service.send(ACME, "enterprise", cid, "new", "second")  # takes turn_index 0 again
    finished(service, cid)
    retry = service.start(ACME, "enterprise", "q", "first")
    assert (retry.started, retry.body.turn_index, retry.body.status) == (False, 0, "stopped")


def test_running_turn_retried_reads_running(make, gate) -> None:
    agent = FakeAgent(gate=gate)
    service = make(agent)
    service.start(ACME, "enterprise", "q", "k")
    assert service.start(ACME, "enterprise", "q", "k").body.status == "running"
    assert len(agent.requests) <= 1


@pytest.mark.parametrize(
    "second",
    [
        lambda s, cid: s.start(ACME, "enterprise", "another message", "k"),
        lambda s, cid: s.send(ACME, "enterprise", cid, "q", "k"),  # same text, other target
    ],
)
def test_a_key_used_for_another_message_is_reused(make, second) -> None:
    service = make()
    cid = service.start(ACME, "enterprise", "q", "k").body.conversation_id
    finished(service, cid)
    with pytest.raises(IdempotencyKeyReused) as err:
        second(service, cid)
    assert err.value.field == "Idempotency-Key"


def test_keys_belong_to_one_account(make) -> None:
    service = make()
    a = service.start(ACME, "enterprise", "q", "k")
    b = service.start(BETA, "enterprise", "q", "k")
    assert a.started and b.started
    assert a.body.conversation_id != b.body.conversation_id


def test_a_key_whose_first_request_is_being_processed_is_in_use(make) -> None:
    service = make()
    with service.store.write() as tx:
        tx.claim_key(ACME, "k", _fingerprint(None, "q"), service.store.owner, "now")
    with pytest.raises(IdempotencyKeyInUse) as err:
        service.start(ACME, "enterprise", "q", "k")
    assert err.value.retry_after == 1
    with pytest.raises(IdempotencyKeyReused):  # another message is refused as such
        service.start(ACME, "enterprise", "other", "k")


def test_a_key_claimed_by_a_process_that_is_gone_is_taken_over(make) -> None:
    service = make()
    with service.store.write() as tx:
        tx.claim_key(ACME, "k", _fingerprint(None, "q"), "own_gone", "now")
    assert service.start(ACME, "enterprise", "q", "k").started


def test_a_refused_request_frees_its_key(make, gate) -> None:
    agent = FakeAgent(gate=gate)
    service = make(agent, concurrent_conversations=1)
    cid = started_run(service, agent)
    with pytest.raises(ConcurrentConversations):
        service.start(ACME, "enterprise", "q2", "k")
    service.stop(ACME, cid)
    assert service.start(ACME, "enterprise", "q2", "k").started


def race(service: ConversationService, key: str, callers: int) -> list[Any]:
    """`callers` threads start the same message with the same key at the same moment."""
    barrier = threading.Barrier(callers)
    outcomes: list[Any] = []

    def call() -> None:
        barrier.wait()
        try:
            outcomes.append(service.start(ACME, "enterprise", "same question", key))
        except IdempotencyKeyInUse as exc:
            outcomes.append(exc)

    threads = [threading.Thread(target=call) for _ in range(callers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return outcomes


@pytest.mark.parametrize("callers", [2, 6])
def test_concurrent_starts_with_one_key_start_exactly_one_run(make, callers: int) -> None:
    agent = FakeAgent()
    service = make(agent, concurrent_conversations=0)
    for attempt in range(5):
        outcomes = race(service, f"race-{attempt}", callers)
        assert len(outcomes) == callers
        started = [o for o in outcomes if not isinstance(o, Exception) and o.started]
        assert len(started) == 1
        cid = started[0].body.conversation_id
        for o in outcomes:
            if not isinstance(o, Exception) and not o.started:
                assert (o.body.conversation_id, o.body.turn_index) == (cid, 0)
        finished(service, cid)
    assert len(agent.requests) == 5
    assert service.list_conversations(ACME).total == 5


# --- limits ---------------------------------------------------------------------------------


def test_an_account_runs_at_most_3_conversations(make, gate) -> None:
    agent = FakeAgent(gate=gate)
    service = make(agent)
    gate.set()
    done = service.start(ACME, "enterprise", "done").body.conversation_id
    finished(service, done)
    gate.clear()
    running = [service.start(ACME, "enterprise", f"q{i}").body.conversation_id for i in range(3)]
    with pytest.raises(ConcurrentConversations) as err:
        service.start(ACME, "enterprise", "fourth")
    assert err.value.retry_after is not None and err.value.retry_after >= 1
    with pytest.raises(ConcurrentConversations):
        service.send(ACME, "enterprise", done, "a follow-up counts too")
    assert service.start(BETA, "enterprise", "another account").started
    service.stop(ACME, running[0])
    assert service.start(ACME, "enterprise", "fourth").started


def test_concurrency_limit_0_turns_it_off(make, gate) -> None:
    service = make(FakeAgent(gate=gate), concurrent_conversations=0)
    assert all(service.start(ACME, "enterprise", f"q{i}").started for i in range(5))


def test_free_plan_has_monthly_questions_and_a_stop_is_not_counted(make, clock, gate) -> None:
    agent = FakeAgent(gate=gate)
    service = make(agent, free_monthly_questions=2)
    gate.set()
    cid = service.start(ACME, "free", "one").body.conversation_id
    finished(service, cid)
    gate.clear()
    service.send(ACME, "free", cid, "stopped, so not counted")
    service.stop(ACME, cid)
    gate.set()
    service.send(ACME, "free", cid, "two")
    finished(service, cid)
    with pytest.raises(QuotaExhausted):
        service.start(ACME, "free", "three")
    with pytest.raises(QuotaExhausted):
        service.send(ACME, "free", cid, "three")
    assert service.start(ACME, "paid", "a paid plan has no monthly limit").started
    assert service.start(BETA, "free", "another account").started
    clock.advance(31 * 86400)  # December
    assert service.start(ACME, "free", "next month").started


def test_runs_wait_for_one_of_the_agent_workers(make, gate) -> None:
    agent = FakeAgent(gate=gate)
    service = make(agent, agent_workers=2)
    cids = [service.start(ACME, "enterprise", f"q{i}").body.conversation_id for i in range(3)]
    wait_until(lambda: len(agent.requests) == 2)
    assert all(service.read(ACME, c).status == "running" for c in cids)
    time.sleep(0.2)  # room for a third worker, if there were one
    gate.set()
    for cid in cids:
        assert finished(service, cid)["status"] == "completed"
    assert agent.most_active == 2


def test_pace_holds_a_run_before_the_agent_and_a_stop_cuts_it_short(make) -> None:
    agent = FakeAgent()
    service = make(agent, agent_pace_s=60)
    cid = service.start(ACME, "enterprise", "q").body.conversation_id
    assert service.read(ACME, cid, wait=0.05).status == "running"
    assert service.stop(ACME, cid).stopped
    wait_until(lambda: not service.runner.live())
    assert agent.requests == []


# --- list -----------------------------------------------------------------------------------


def test_list_is_most_recent_activity_first_in_pages(make, clock) -> None:
    service = make()
    cids = []
    for i in range(5):
        cids.append(service.start(ACME, "enterprise", f"q{i}").body.conversation_id)
        finished(service, cids[-1])
        clock.advance(60)
    service.send(ACME, "enterprise", cids[1], "a follow-up makes it the latest")
    finished(service, cids[1])
    expected = [cids[1], cids[4], cids[3], cids[2], cids[0]]
    pages = [
        service.list_conversations(ACME, "all", 2, offset).to_dict() for offset in (0, 2, 4, 6)
    ]
    assert [c["conversation_id"] for p in pages for c in p["conversations"]] == expected
    assert [(p["total"], p["limit"], p["offset"]) for p in pages] == [
        (5, 2, 0),
        (5, 2, 2),
        (5, 2, 4),
        (5, 2, 6),
    ]
    first = pages[0]["conversations"][0]
    assert first["turn_count"] == 2 and first["title"] == "q1"
    assert first["last_activity_at"] > first["created_at"]


def test_list_of_running_conversations(make, gate) -> None:
    agent = FakeAgent(gate=gate)
    service = make(agent)
    gate.set()
    done = service.start(ACME, "enterprise", "done").body.conversation_id
    finished(service, done)
    gate.clear()
    cid = service.start(ACME, "enterprise", "runs").body.conversation_id
    running = service.list_conversations(ACME, "running").to_dict()
    assert running["total"] == 1
    assert [c["conversation_id"] for c in running["conversations"]] == [cid]
    assert service.list_conversations(ACME, "all").total == 2


@pytest.mark.parametrize(
    ("args", "field"),
    [(("x", 20, 0), "status"), (("all", 0, 0), "limit"), (("all", 5, -1), "offset")],
)
def test_list_parameters_out_of_range_are_invalid(make, args: tuple, field: str) -> None:
    with pytest.raises(InvalidRequest) as err:
        make().list_conversations(ACME, *args)
    assert err.value.field == field


# --- reads that wait ------------------------------------------------------------------------


def test_read_returns_as_soon_as_the_run_ends(make, gate) -> None:
    agent = FakeAgent(gate=gate)
    service = make(agent)
    cid = started_run(service, agent)
    opener = threading.Timer(0.1, gate.set)
    opener.start()
    began = time.monotonic()
    body = service.read(ACME, cid, wait=WAIT).to_dict()
    assert body["status"] == "completed"
    assert time.monotonic() - began < WAIT
    opener.join()


def test_read_answers_running_when_its_wait_is_up(make, gate) -> None:
    agent = FakeAgent(gate=gate)
    service = make(agent)
    cid = started_run(service, agent)
    assert service.read(ACME, cid, wait=0.05).status == "running"
    with pytest.raises(InvalidRequest):
        service.read(ACME, cid, wait=46)


def test_read_through_another_handle_sees_the_run_end(make, gate, tmp_path: Path) -> None:
    agent = FakeAgent(gate=gate)
    runner = make(agent)
    reader = make()
    cid = started_run(runner, agent)
    threading.Timer(0.1, gate.set).start()
    assert reader.read(ACME, cid, wait=WAIT).status == "completed"


@pytest.mark.anyio
async def test_async_reads_wait_without_holding_threads(make, gate) -> None:
    """Five reads wait at once on a thread limiter of two: the runs end only once all five
    have read, so reads that held a thread while waiting would never end."""
    agent = FakeAgent(gate=gate)
    service = make(agent, concurrent_conversations=0, agent_workers=5)
    cids = [service.start(ACME, "enterprise", f"q{i}").body.conversation_id for i in range(5)]
    seen: set[str] = set()
    view = service.view

    def counting_view(account: str, cid: str) -> dict[str, Any]:
        seen.add(cid)
        if seen == set(cids):
            gate.set()
        return view(account, cid)

    service.view = counting_view  # type: ignore[method-assign]
    limiter = anyio.to_thread.current_default_thread_limiter()
    total, limiter.total_tokens = limiter.total_tokens, 2
    results: list[ConversationRead] = []
    try:
        with anyio.fail_after(WAIT):
            async with anyio.create_task_group() as tg:
                for cid in cids:

                    async def read(cid: str = cid) -> None:
                        results.append(await service.read_async(ACME, cid, wait=WAIT))

                    tg.start_soon(read)
    finally:
        limiter.total_tokens = total
    assert sorted(r.status for r in results) == ["completed"] * 5


def test_a_file_made_by_one_process_downloads_through_another(
    make: Callable[..., ConversationService],
    tmp_path: Path,
    backend: dict[str, str],
) -> None:
    maker = make()
    # another handle on the store: a replica with a home of its own when the store is shared
    home = tmp_path / ("elsewhere" if backend else "home")
    other = make(home=home, files_dir=str(maker.store.files))
    cid = maker.start(ACME, "enterprise", "a table [file]").body.conversation_id
    body = finished(maker, cid)
    (entry,) = body["documents"]
    link = maker.document(ACME, "enterprise", cid, entry["id"]).url
    assert link is not None
    data = other.download(ACME, link.rsplit("/", 1)[1])
    assert (data.filename, data.data) == ("letters.xlsx", b"PK fake")
    assert other.download(None, link.rsplit("/", 1)[1]).data == b"PK fake"  # the link alone
    assert other.file(ACME, "enterprise", cid, entry["id"]).data == b"PK fake"
    with pytest.raises(NotFound):
        other.download(BETA, link.rsplit("/", 1)[1])
