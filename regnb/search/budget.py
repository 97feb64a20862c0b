"""The page budget: how many of the ranked pages each dataset gets (pure arithmetic)."""

from __future__ import annotations

import math
from collections.abc import Mapping

__all__ = ["LOOSENED_SHARE", "allocate", "split_budget"]

LOOSENED_SHARE = 5


def allocate(total: int, weights: Mapping[str, float], caps: Mapping[str, int]) -> dict[str, int]:
    """Split `total` in proportion to `weights`, largest remainder first, each at least 1 where
    there is enough to go round, none above its cap; what a capped one cannot use goes to the
    others by the same rule."""
    given = {k: 0 for k in weights}
    left = total
    while left > 0:
        active = [k for k in weights if given[k] < caps.get(k, 0) and weights[k] > 0]
        if not active:
            break
        weight_sum = sum(weights[k] for k in active)
        exact = {k: left * weights[k] / weight_sum for k in active}
        share = {k: math.floor(v) for k, v in exact.items()}
        if left >= len(active):
            share = {k: max(1, v) for k, v in share.items()}
        spare = left - sum(share.values())
        by_remainder = sorted(active, key=lambda k: (share[k] - exact[k], -weights[k], k))
        for k in by_remainder[: max(spare, 0)]:
            share[k] += 1
        if spare < 0:  # the minimum of 1 overshot: take back from the largest shares
            for k in sorted(active, key=lambda k: (-share[k], k))[:-spare]:
                share[k] -= 1
        moved = 0
        for k in active:
            take = min(share[k], caps[k] - given[k])
            given[k] += take
            moved += take
        left -= moved
        if moved == 0:
            break
    return given


def split_budget(
    budget: int, full: Mapping[str, tuple[int, int]], loosened: Mapping[str, int]
) -> dict[str, int]:
    """Pages per dataset. `full` maps datasets that match every word of an item to
    (matches, pages available); `loosened` maps loosened datasets to pages available.

    Full-match datasets share the budget by their matches; each loosened one gets 5 plus what
    the full-match datasets cannot use; with no full match the loosened datasets split it evenly.
    """
    if not full:
        return allocate(budget, {k: 1.0 for k in loosened}, loosened)
    reserved = {k: min(LOOSENED_SHARE, avail) for k, avail in loosened.items()}
    for_full = max(budget - sum(reserved.values()), 0)
    out = allocate(
        for_full, {k: float(m) for k, (m, _) in full.items()}, {k: a for k, (_, a) in full.items()}
    )
    unused = for_full - sum(out.values())
    extra_caps = {k: loosened[k] - reserved[k] for k in loosened}
    extra = allocate(unused, {k: 1.0 for k in loosened}, extra_caps)
    out.update({k: reserved[k] + extra.get(k, 0) for k in loosened})
    return out
