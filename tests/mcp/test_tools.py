"""The tools' own parts: an engine parameter's error renamed to the tool's argument."""

from __future__ import annotations

import pytest

from regnb.errors import InvalidRequest, NotFound
from regnb.mcp._tools import renamed


@pytest.mark.parametrize(
    ("fields", "raised", "named"),
    [
        ({"name_or_id": "q"}, "name_or_id", "q"),
        ({"facets": "by"}, "facets[2]", "by[2]"),
        ({"facets": "by"}, "facets[0].size", "by[0].size"),
        ({"facets": "by"}, "facetsx", "facetsx"),
        ({"entity": "firm_id"}, None, None),
        ({"entity": "firm_id"}, "limit", "limit"),
    ],
)
def test_renamed_names_the_tools_argument(fields, raised, named) -> None:
    with pytest.raises(InvalidRequest) as caught, renamed(fields):
        raise InvalidRequest("bad", field=raised)
    assert caught.value.field == named


def test_renamed_keeps_the_errors_class_and_message() -> None:
    with pytest.raises(NotFound, match="no firm") as caught, renamed({"entity": "firm_id"}):
        raise NotFound("no firm 'x'", field="entity")
    assert caught.value.code == "not_found" and caught.value.field == "firm_id"
