"""regnb.agent._names: the capitalised runs of a message that may name firms or products."""

from __future__ import annotations

import pytest

from regnb.agent._names import find_names


@pytest.mark.parametrize(
    ("message", "names"),
    [
        (
            "Compare why Sandoz's LA-EP2006 and Coherus's CHS-1701 got CRLs.",
            ["Sandoz", "LA-EP2006", "Coherus", "CHS-1701"],
        ),
        ("Did Johnson and Johnson recall it?", ["Johnson and Johnson"]),
        ("Procter and Gamble's letters", ["Procter and Gamble"]),
        ("Baxter Healthcare and Abbott Labs", ["Baxter Healthcare", "Abbott Labs"]),
        ("Samsung Bioepis, Hugel: which got CRLs?", ["Samsung Bioepis", "Hugel"]),
        ("Burns in MAUDE reports for CT/MR systems of Philips", ["Philips"]),  # modalities
    ],
)
def test_an_and_after_a_product_code_parts_two_names(message: str, names: list[str]) -> None:
    """ "and" joins the words of one name ("Johnson and Johnson") unless a product code stands
    before it: "LA-EP2006 and Coherus" is two."""
    assert find_names(message)[0] == names


def test_ok_is_a_word_not_a_name() -> None:
    """ "Are home visits OK in a trial?": "OK" is not a firm (a search that must hold it found an
    orthopaedics guidance citing an author "Muratoglu OK")."""
    assert find_names("Are home visits and telehealth OK in a drug trial per FDA?")[0] == []
