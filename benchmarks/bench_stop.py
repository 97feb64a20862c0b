"""CPU seconds of one research turn by message size, and how long a stopped run keeps its worker.

    python benchmarks/bench_stop.py [--sizes 100000,300000,1000000] [--skip-stop]

The agent runs over the agent tests' small corpus (built in code, hashing encoder) in a temporary
folder. A long message is a real question repeated up to the size. CPU time is the calling
thread's (`time.thread_time`), so other processes on the machine do not count. The stop part
runs a turn of the largest size and stops it at its first engine call (a flag flipped by the
engine double: the planner's word counts), and reports the engine calls made after the stop and
the CPU time the run took after it.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from regnb.agent.agent import ExtractiveAgent, run_turn
from regnb.agent.types import Stopped, TurnRequest
from tests.agent_support import open_agent_corpus

QUESTION = (
    "Which sterile drug makers got warning letters for media fill failures and what did FDA "
    "ask them to do about aseptic processing at Acme Sterile Pharma? "
)


def message_of(size: int) -> str:
    """A real question repeated to `size` characters."""
    return (QUESTION * (size // len(QUESTION) + 1))[:size]


def cpu_of_turn(agent: ExtractiveAgent, message: str) -> tuple[float, str]:
    start = time.thread_time()
    result = run_turn(agent, message)
    return time.thread_time() - start, result.answer or ""


class StopOnCall:
    """The engine, whose first call once `armed` flips the stop flag; calls after it counted."""

    def __init__(self, engine: Any) -> None:
        self.engine, self.stopped, self.armed, self.after = engine, False, False, 0
        self.stop_cpu = 0.0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.engine, name)

    def _call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        if self.stopped:
            self.after += 1
        elif self.armed:
            self.stopped, self.stop_cpu = True, time.thread_time()
        return getattr(self.engine, name)(*args, **kwargs)

    def search(self, *args: Any, **kwargs: Any) -> Any:
        return self._call("search", *args, **kwargs)

    def read(self, *args: Any, **kwargs: Any) -> Any:
        return self._call("read", *args, **kwargs)

    def document_frequency(self, *args: Any, **kwargs: Any) -> Any:
        return self._call("document_frequency", *args, **kwargs)

    def common_sentences(self, *args: Any, **kwargs: Any) -> Any:
        return self._call("common_sentences", *args, **kwargs)


def stop_run(root: Path, size: int) -> tuple[int, float]:
    """Engine calls made after the stop, and CPU seconds from the stop to the run's end."""
    engine = StopOnCall(open_agent_corpus(root))
    agent = ExtractiveAgent(engine, producer=lambda answer, formats: [])
    engine.armed = True
    request = TurnRequest(message_of(size), [], 1, "enterprise")
    with contextlib.suppress(Stopped):
        agent.run(request, lambda steps: None, lambda: engine.stopped)
    return engine.after, time.thread_time() - engine.stop_cpu if engine.stopped else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100000,300000,1000000")
    parser.add_argument("--skip-stop", action="store_true")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        agent = ExtractiveAgent(open_agent_corpus(root / "a"), producer=lambda answer, formats: [])
        cpu_of_turn(agent, QUESTION)  # warm-up: imports, caches
        base, _ = cpu_of_turn(agent, QUESTION)
        print(f"{'message':>10}  {'CPU s':>7}")
        print(f"{len(QUESTION):>10,}  {base:7.2f}")
        for size in sizes:
            cpu, answer = cpu_of_turn(agent, message_of(size))
            said = "says so" if "first" in answer and "characters" in answer else ""
            print(f"{size:>10,}  {cpu:7.2f}  {said}")
        if not args.skip_stop:
            after, cpu = stop_run(root / "b", max(sizes))
            print(
                f"stopped at the first engine call of a {max(sizes):,}-character turn: "
                f"{after} engine calls after the stop, {cpu:.2f} CPU s until the run ended"
            )


if __name__ == "__main__":
    main()
