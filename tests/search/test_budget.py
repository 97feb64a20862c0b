"""Budget arithmetic (pure functions)."""

from __future__ import annotations

import pytest

from regnb.search.budget import allocate, split_budget


def test_allocate_proportional_with_largest_remainder():
    assert allocate(10, {"a": 1, "b": 1, "c": 1}, {"a": 9, "b": 9, "c": 9}) == {
        "a": 4,
        "b": 3,
        "c": 3,
    }
    assert allocate(500, {"a": 3, "b": 1}, {"a": 500, "b": 500}) == {"a": 375, "b": 125}


def test_allocate_gives_each_at_least_one_and_respects_caps():
    out = allocate(500, {"big": 10_000, "tiny": 1}, {"big": 500, "tiny": 500})
    assert out == {"big": 499, "tiny": 1}
    out = allocate(500, {"a": 10, "b": 10}, {"a": 20, "b": 1000})
    assert out == {"a": 20, "b": 480}


def test_allocate_when_there_is_not_enough_to_go_round():
    assert sum(allocate(2, {"a": 5, "b": 3, "c": 1}, {"a": 9, "b": 9, "c": 9}).values()) == 2


@pytest.mark.parametrize(
    ("full", "loose", "expected"),
    [
        ({"a": (100, 500)}, {"b": 200}, {"a": 495, "b": 5}),
        ({"a": (100, 50)}, {"b": 1000}, {"a": 50, "b": 450}),
        ({"a": (100, 50)}, {"b": 1000, "c": 3}, {"a": 50, "b": 447, "c": 3}),
        ({}, {"b": 1000, "c": 1000}, {"b": 250, "c": 250}),
        ({"a": (7, 7), "b": (3, 3)}, {}, {"a": 7, "b": 3}),
    ],
)
def test_split_budget(full, loose, expected):
    out = split_budget(500, full, loose)
    assert out == expected
    assert sum(out.values()) <= 500
