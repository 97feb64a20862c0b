"""The query syntax of a keyword item: a table of items and what they parse to, a table of
malformed items and their messages, and the identifier forms that read as before."""

from __future__ import annotations

import warnings

import pytest

from regnb import query, text
from regnb.errors import InvalidRequest
from regnb.query import (
    AllOf,
    AnyOf,
    Cfr,
    Field,
    Ident,
    KeywordItem,
    Not,
    Phrase,
    Prefix,
    Words,
    cfr_term,
    escape_item,
    parse_item,
    plain_item,
    read_as_words,
)


def parse(item: str) -> KeywordItem:
    return parse_item(item, text.terms)


@pytest.mark.parametrize(
    ("item", "plain", "conditions"),
    [
        ("media fill", ("media", "fill"), ()),
        ("sterility AND aseptic", ("steril", "asept"), ()),
        ("(media fill)", ("media", "fill"), ()),
        ('"media fill"', (), (Phrase("media fill", ("media", "fill"), 0, 0),)),
        ('"media fill"~3', (), (Phrase("media fill", ("media", "fill"), 3, 0),)),
        ('"the media of fill"', (), (Phrase("the media of fill", ("media", "fill"), 0, 0),)),
        ("sterility -aseptic", ("steril",), (Not(Words("aseptic", ("asept",), 11), 10),)),
        ("sterility NOT aseptic", ("steril",), (Not(Words("aseptic", ("asept",), 14), 10),)),
        (
            'sterility -"media fill"',
            ("steril",),
            (Not(Phrase("media fill", ("media", "fill"), 0, 11), 10),),
        ),
        (
            "sterility (aseptic OR media)",
            ("steril",),
            (AnyOf((Words("aseptic", ("asept",), 11), Words("media", ("media",), 22)), 11),),
        ),
        (  # OR binds tighter than the implicit AND
            "sterility aseptic OR media",
            ("steril",),
            (AnyOf((Words("aseptic", ("asept",), 10), Words("media", ("media",), 21)), 10),),
        ),
        (
            "(sterility aseptic) OR media",
            (),
            (
                AnyOf(
                    (
                        AllOf(
                            (Words("sterility", ("steril",), 1), Words("aseptic", ("asept",), 11)),
                            0,
                        ),
                        Words("media", ("media",), 23),
                    ),
                    0,
                ),
            ),
        ),
        ("steril*", (), (Prefix("steril", "steril", 0),)),
        ("Stéril*", (), (Prefix("Stéril", "steril", 0),)),
        ("title:sterility", (), (Field("title", "sterility", ("steril",), False, 0),)),
        (
            'title:"media fill" water',
            ("water",),
            (Field("title", "media fill", ("media", "fill"), True, 0),),
        ),
        (
            "sterility company:hospira",
            ("steril",),
            (Field("company", "hospira", ("hospira",), False, 10),),
        ),
        (
            "water Fei_Number:3000975914",
            ("water",),
            (Field("fei_number", "3000975914", ("3000975914",), False, 6),),
        ),
        ("cfr:211.113 water", ("water",), (Cfr("211.113", "cfr:211.113", 0),)),
        ("cfr:211.113(b)", (), (Cfr("211.113(b)", "cfr:211.113", 0),)),
        ("cfr:211", (), (Cfr("211", "cfr:211", 0),)),
        ('cfr:"21 CFR 211.113"', (), (Cfr("21 CFR 211.113", "cfr:211.113", 0),)),
        ("fei:3002806560 water", ("water",), (Ident("3002806560", "fei:3002806560", 0),)),
        ("nda:21-164", (), (Ident("21-164", "nda:021164", 0),)),
        ("anda:076543", (), (Ident("076543", "anda:076543", 0),)),
        ("bla:125514", (), (Ident("125514", "bla:125514", 0),)),
        ("app:208288", (), (Ident("208288", "app:208288", 0),)),
        ("k:K123456", (), (Ident("K123456", "k:123456", 0),)),
        ("k:123456", (), (Ident("123456", "k:123456", 0),)),
        ("p:P123456/S012", (), (Ident("P123456/S012", "p:123456/s012", 0),)),
        ("den:DEN200031", (), (Ident("DEN200031", "den:200031", 0),)),
        ("nct:NCT01234567", (), (Ident("NCT01234567", "nct:01234567", 0),)),
        ("procode:llz", (), (Ident("llz", "procode:llz", 0),)),
        # lower-case operators are ordinary (stop) words; a lone - or * is punctuation
        ("sterility or aseptic", ("steril", "asept"), ()),
        ("sterility and not aseptic", ("steril", "asept"), ()),
        ("sterility - aseptic *", ("steril", "asept"), ()),
        ("note: sterility", ("note", "steril"), ()),
        ('5" sterility', ("5", "steril"), ()),
        ("the sterility OR of", ("steril",), ()),  # a stop word on one side drops out
    ],
)
def test_an_item_parses_to_plain_words_and_conditions(item, plain, conditions):
    parsed = parse(item)
    assert parsed.terms == plain
    assert parsed.conditions == conditions
    assert parsed.text == item


@pytest.mark.parametrize(
    "item",
    [
        "510(k)",
        "21 CFR 211.113(b)",
        "LA-EP2006",
        "K123456",
        "COVID-19",
        "NCT01234567",
        "DEN200001 de novo",
        "sterility (b)",
        "ISO 13485:2016",
        "über-sterile",
        "(510(k) clearance)",
    ],
)
def test_identifiers_read_as_the_same_plain_words(item):
    parsed = parse(item)
    assert parsed.conditions == ()
    assert parsed.terms == plain_item(item, text.terms).terms
    assert read_as_words(item, text.terms)


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ('sterile "media fill', "keywords[0]: unclosed quote at character 9"),
        ('"media fill"~ x', "keywords[0]: a number must follow ~ at character 13"),
        ('"media fill"~99', "keywords[0]: ~99 is more than 50 words at character 13"),
        ("(aseptic OR media", "keywords[0]: unclosed parenthesis at character 1"),
        ("aseptic media)", "keywords[0]: unmatched closing parenthesis at character 14"),
        ("sterility OR", "keywords[0]: OR with nothing on its right at character 11"),
        ("OR sterility", "keywords[0]: OR with nothing on its left at character 1"),
        ("sterility (OR aseptic)", "keywords[0]: OR with nothing on its left at character 12"),
        ("sterility OR OR aseptic", "keywords[0]: OR with nothing on its right at character 11"),
        ("AND sterility", "keywords[0]: AND with nothing on its left at character 1"),
        ("sterility AND", "keywords[0]: AND with nothing on its right at character 11"),
        ("sterility NOT", "keywords[0]: NOT with nothing to exclude at character 11"),
        ("sterility ()", "keywords[0]: empty parentheses at character 11"),
        ("st*", "keywords[0]: a prefix needs at least 3 letters or digits: st* at character 1"),
        (
            "510(k)*",
            "keywords[0]: a prefix must be one word of letters or digits: 510(k)* at character 1",
        ),
        ("cfr:abc", "keywords[0]: 'abc' is not a CFR reference"),
        ("fei:123", "keywords[0]: 'fei:123' is not an fei identifier at character 1"),
        ("water nda:12", "keywords[0]: 'nda:12' is not an application identifier at character 7"),
        ("k:12345", "keywords[0]: 'k:12345' is not a 510k identifier"),
        ("procode:LLZZ", "keywords[0]: 'procode:LLZZ' is not a product_code identifier"),
        ("-aseptic", "keywords[0]: '-aseptic' has nothing to search for"),
        ("NOT aseptic -media", "keywords[0]: 'NOT aseptic -media' has nothing to search for"),
        ("-company:hospira", "keywords[0]: '-company:hospira' has nothing to search for"),
        ("-country:US", "(exclusions only narrow)"),
        ('section:"boxed warnings galore"', "is not a label section"),
        ("sterility OR -aseptic", "has nothing to search for"),
        ("company:...", "keywords[0]: company: has no value to match at character 1"),
        ("the of", "keywords[0] 'the of' has no searchable word"),
        ('"the of"', "has no searchable word"),
    ],
)
def test_a_malformed_item_names_the_item_and_the_character(item, message):
    with pytest.raises(InvalidRequest) as caught:
        parse(item)
    assert message in str(caught.value)
    assert caught.value.field == "keywords[0]"


@pytest.mark.parametrize(
    ("item", "terms"),
    [
        ("company:hospira", ("doc:first",)),
        ("company:hospira -country:US", ("doc:first",)),
        ("(company:hospira OR company:acme)", ("doc:first",)),
        ("sterility company:hospira", ()),
        ('section:"boxed warning"', ("section:boxed_warning",)),
        ('hepatotoxicity section:"Boxed_Warning"', ("section:boxed_warning",)),
        ('company:acme section:"warnings and cautions"', ("section:warnings_and_precautions",)),
    ],
)
def test_fields_alone_match_first_pages_and_sections_are_page_terms(item, terms):
    parsed = parse(item)
    page_terms = tuple(n.term for n, _ in parsed.leaves() if isinstance(n, query.PageTerm))
    assert page_terms == terms
    assert set(terms) <= set(parsed.positive_terms)


def test_the_item_is_named_by_its_place():
    with pytest.raises(InvalidRequest) as caught:
        parse_item('"open', text.terms, where="keywords[3]")
    assert (caught.value.field, str(caught.value)) == (
        "keywords[3]",
        "keywords[3]: unclosed quote at character 1",
    )


def test_positive_and_negative_terms():
    parsed = parse('sterility (aseptic OR "media fill") -water NOT "clean room" title:report')
    assert parsed.positive_terms == ("steril", "asept", "media", "fill", "report")
    assert parsed.negative_terms == ("water", "clean", "room")
    assert [(type(n).__name__, positive) for n, positive in parsed.leaves()] == [
        ("Words", True),
        ("Phrase", True),
        ("Words", False),
        ("Phrase", False),
        ("Field", True),
    ]
    assert parse("steril* -water*").prefixes == (
        (Prefix("steril", "steril", 0), True),
        (Prefix("water", "water", 9), False),
    )


def test_a_phrase_of_stop_words_is_noted_and_dropped():
    parsed = parse('sterility "to be"')
    assert parsed.conditions == ()
    assert parsed.notes == ('"to be" has no searchable word; it was ignored',)


@pytest.mark.parametrize(
    ("given", "term"),
    [
        ("211.113", "cfr:211.113"),
        ("211.113(b)", "cfr:211.113"),
        ("211.113(b)(1)", "cfr:211.113"),
        ("21 CFR 211.113(b)", "cfr:211.113"),
        ("21 C.F.R. 211.113", "cfr:211.113"),
        ("§ 211.192", "cfr:211.192"),
        ("211", "cfr:211"),
        ("21 CFR Part 820", "cfr:820"),
        ("820.30", "cfr:820.30"),
    ],
)
def test_cfr_terms_drop_the_title_and_paragraphs(given, term):
    assert cfr_term(given) == term


@pytest.mark.parametrize("given", ["", "abc", "211.x", "21 CFR"])
def test_what_is_not_a_cfr_reference_is_refused(given):
    with pytest.raises(ValueError, match="not a CFR reference"):
        cfr_term(given)


@pytest.mark.parametrize(
    ("item", "escaped"),
    [
        ("media fill", "media fill"),
        ("510(k) clearance", "510(k) clearance"),
        ('the "media fill" runs', "the media fill runs"),
        ("sterility -aseptic", "sterility aseptic"),
        ("ruo OR peptides", "ruo or peptides"),
        ("note:sterility", "note sterility"),
        ("steril* (aseptic", "steril aseptic"),
    ],
)
def test_escaped_items_read_as_their_plain_words(item, escaped):
    out = escape_item(item, text.terms)
    assert out == escaped
    assert read_as_words(out, text.terms)
    assert parse(out).terms == plain_item(item, text.terms).terms


def test_plain_reading_warns_once_per_process(monkeypatch):
    monkeypatch.setattr(query, "_warned", type(query._warned)())
    with pytest.warns(query.QuerySyntaxWarning, match="read as plain words"):
        query.warn_plain(["media fill", '"media fill"'], text.terms)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        query.warn_plain(['"media fill"'], text.terms)  # once: no second warning


def test_plain_words_do_not_warn(monkeypatch):
    monkeypatch.setattr(query, "_warned", type(query._warned)())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        query.warn_plain(["media fill", "510(k)", "LA-EP2006", "sterility or aseptic"], text.terms)
