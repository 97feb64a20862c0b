"""Letter and form furniture: what every document of a kind carries around its substance
(letterheads, salutations, legal notices, contact and signature blocks, form headers, standard
paragraphs). One table of patterns, and the corpus-level test: a sentence whose near-copy is in a
large share of a dataset's documents is furniture, whatever its words."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence

from regnb.documents.words import fold_spaces, sentence_spans, word_set, words
from regnb.text import STOP_WORDS

__all__ = [
    "BOILERPLATE",
    "common_sentences",
    "common_share",
    "is_furniture",
    "is_furniture_line",
    "sentence_key",
]

FURNITURE_SHARE = 0.5  # a block is furniture when furniture holds this share of its characters
SUBSTANCE = 300  # ... and what is left is shorter than this (letters and digits): ~50 words
KEY_WORDS = 12
MIN_KEY_WORDS = 4
OPENING_LINES = 8

# Sentences that every document of a kind carries: never the evidence an analyst wants.
BOILERPLATE = (
    "do not represent a final agency determination",
    "do net represent a final agency determination",
    "contains nonbinding recommendations",
    "represents the current thinking of the food and drug administration",
    "this guidance represents the current thinking",
    "if you have any questions",
    "this letter notifies you of our decision",
    "reference id:",
    "please notify this office in writing within fifteen",
    "you may submit electronic comments",
    "for questions about this document",
    "additional copies are available",
    "this is a representation of an electronic record",
    "manifestations of any and all electronic signatures",
    "silver spring, md 20993",
    "sincerely, /s/",
)

_MONTHS = word_set(
    "january february march april may june july august september october november december"
)
_MONTH = f"(?:{'|'.join(sorted(_MONTHS))})"
_STREET = r"(?:road|rd|street|st|avenue|ave|boulevard|blvd|drive|dr|lane|ln|way|parkway|pkwy|court|ct|place|pl|circle|highway|hwy|pike|plaza|square)"
_STREET_LINE = rf"\d+[\w-]* (?:[\w.'-]+ ){{0,5}}{_STREET}\b.{{0,30}}"
_CITY_LINE = r"[a-z .'-]{2,40},? (?:[a-z]{2}|[a-z]+) \d{5}(?:-\d{4})?(?:,? (?:usa|united states))?"

# A whole line (whitespace folded, casefolded) that is furniture. Scope: the dataset prefix a
# pattern is limited to, or None.
_LINES: tuple[tuple[str, str | None], ...] = (
    # letterheads and page headers
    (r"department of health (?:and|&) human services", None),
    (r"(?:u\.?s\.? )?food (?:and|&) drug administration", None),
    (r"public health service", None),
    (r"silver spring,? md 20993(?:-\d{4})?", None),
    (r"\d+ new hampshire ave(?:nue|\.)?.{0,20}", None),
    (r"www\.fda\.gov", None),
    (
        r"(?:nda|bla|anda|ind|pma|stn|bla stn)\s*#?\s*\d{5,6}(?:/s-?\d+)?(?:\s*/?\s*page \d+(?: of \d+)?)?",
        None,
    ),
    (r"page\s*\d+(?: of \d+)?", None),
    (r"\d{1,3}", None),  # a page number alone
    (r"reference id:?\s*\d+.{0,60}", None),
    (
        r"(?:complete response|warning letter|close[- ]out letter|other action letters?|application number:?)\b.{0,30}",
        None,
    ),
    (r"cms\s*#?\s*\d+", None),
    (r"(?:via|delivered via|sent via) .{0,60}", None),
    (r"(?:re|subject|in reply refer to): .{0,80}", None),
    (r"attention:?.{0,80}", None),
    (rf"{_MONTH} \d{{1,2}},? \d{{4}}", None),  # the letter's date
    # addresses, phone numbers and e-mail addresses
    (_STREET_LINE, None),
    (r"(?:suite|ste|building|bldg|floor|p\.?\s?o\.? box)\.? ?[\w-]+.{0,30}", None),
    (_CITY_LINE, None),
    (r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", None),
    (r"(?:tel|telephone|phone|fax)\.?:? ?\(?\d{3}\)?.{0,30}", None),
    # signature blocks and copies
    (r"sincerely(?: yours)?,?(?: /s/)?", None),
    (r"/s/.{0,60}", None),
    (r"\{?see appended electronic signature page\}?", None),
    (
        r"(?:(?:acting|deputy|associate|senior|division|office|center|program|district|regional) )*"
        r"director\b.{0,100}",
        None,
    ),
    # a name with its credentials ("Jane Doe, PharmD", "Victor Crentsil, M.D., M.H.S.")
    (
        r"[a-z][\w.' -]{2,40}, (?:pharm\.?d|ph\.?d|m\.?d|j\.?d|r\.?ph|m\.?p\.?h|mba|rn|dvm|esq)\b.{0,40}",
        None,
    ),
    (r"\(?signature appended electronically\)?", None),
    (r"(?:office|division|center) (?:of|for) [a-z ,&'/-]{3,80}", None),
    (r"cc:?.{0,200}", None),
    (r"enclosures?(?:\(s\))?:.{0,80}", None),
    (r"signature page \d+ of \d+", None),
    (r"-{5,}.*", None),  # the electronic signature page's rules and names
    (r"\d{2}/\d{2}/\d{4}(?: \d{2}:\d{2}:\d{2}(?: [ap]m)?)?", None),
    (r"(?:electronically )?signed by:?.{0,60}|date signed:?.{0,40}", None),
    # Form FDA 483 fields
    (r"see reverse of this page", None),
    (r".{0,40}employee\(?s\)?\s*signature.{0,80}", None),
    (r"form fda 483.{0,80}", None),
    (r"\*?inspectional observations", None),
    (r"\*?dates? of inspection[\d/(),: a-z-]{0,240}", None),
    (r"during an inspection of your firm,? (?:i|we) observed:?", None),
    (r"amendment \d+", "fda_483"),
    # the form's signature block, a name a line: "John P Roe, I nvestigat or" (OCR spaces)
    (r"[a-z][a-z .'-]{2,40},\s*i\s*n\s*v\s*e\s*s\s*t\s*i\s*g\s*a\s*t\s*o\s*r\s*", "fda_483"),
    # guidance front matter
    (r"contains nonbinding recommendations", None),
    (r"draft\s*(?:-|—)?\s*not for implementation", None),
    (r"table of contents", None),
    (r".{1,160}?\.{5,}\s*\d+", None),  # a table of contents line with dot leaders
    (r"(?:https?://|www\.)\S+", None),  # a web address alone
)

# The 483 form's field labels, matched on letters only (OCR splits and misreads them).
_FORM_FIELDS = re.compile(
    r".?istrictaddressan.phonenumber|.?ates?s?ofinspection|.?einumber|.?irmname|streetaddress"
    r"|cit.stat.{0,4}zipcode(?:country)?|typ.{0,3}establ.{0,8}inspected"
    r"|nameand.{1,4}leofindividualtowhomreportissued|seereverseofthispage|employees?signature"
    r"|previouseditionobsolete|dateissued"
)

# Phrases that make a sentence furniture, wherever they stand in it.
_PHRASES: tuple[tuple[str, str | None], ...] = (
    # a pointer to a reference on the web ("please refer to the draft guidance …, found at: http…")
    (
        r"^\W*(?:\w+\W+){0,3}(?:please\s+)?(?:refer|see|consult)\b.{0,300}?\b(?:found|available"
        r"|located|posted)(?: online)? (?:at|on)\s*:?\s*<?(?:https?://|www\.)",
        None,
    ),
    # letter openings (complete response letters, warning letters)
    (
        r"please refer to (?:your|the|our) .{0,80}?(?:application|submission|supplement|nda|bla|anda|correspondence|amendment|letter)",
        None,
    ),
    (r"we (?:also )?acknowledge receipt of", None),
    (
        r"we have completed (?:our|the) review of (?:this|your) (?:application|supplement|submission|resubmission)",
        None,
    ),
    (
        r"(?:cannot|can not|will not) approve (?:this|your) (?:application|supplement|nda|bla|anda)",
        None,
    ),
    (r"we have described our reasons for this action", None),
    (
        r"this (?:warning )?letter (?:notifies you|summarizes (?:significant )?(?:violations|deviations))",
        None,
    ),
    (r"at the close of the inspection,? (?:you were|we|fda|the investigator)\b.{0,30}issued", None),
    (r"you can find the fd&c act", None),
    # warning letters' legal notices
    (
        r"(?:violations|deviations|items)(?: cited| listed| noted| described)? (?:in|within) this letter (?:are|is) not (?:intended to be )?an all[- ]inclusive",
        None,
    ),
    (r"(?:this letter|the above) is not intended to be an all[- ]inclusive", None),
    (
        r"failure to (?:promptly |adequately )?(?:and (?:promptly|adequately) )?(?:correct|address)\b.{0,120}(?:may|could) (?:result|lead) in (?:regulatory|legal)",
        None,
    ),
    (
        r"(?:may|could) result in (?:regulatory|legal) action (?:being initiated )?(?:by (?:the )?fda )?without further notice",
        None,
    ),
    (r"unresolved violations .{0,40}may also prevent other federal agencies", None),
    (
        r"withhold (?:issuance of )?export certificates|may withhold approval of (?:any )?new applications",
        None,
    ),
    (
        r"requests for certificates to foreign governments|will not be approved until the violations have been",
        None,
    ),
    (r"you are responsible for investigating and determining the causes", None),
    (r"it is your (?:firm'?s )?responsibility to (?:ensure|assure)", None),
    (
        r"notify this office in writing within|within (?:fifteen|15|thirty|30)\s*(?:\(\d+\)\s*)?(?:business|working) days (?:of|from|after)",
        None,
    ),
    (r"(?:you|your firm) (?:may|can) (?:also )?request a (?:regulatory )?meeting", None),
    (r"if you believe (?:that )?(?:your products are not in violation|you have complied)", None),
    (
        r"(?:send|submit) your (?:electronic )?(?:reply|response) (?:to|via)|response should be sent (?:via e-?mail )?to",
        None,
    ),
    (
        r"include a timetable for implementation|if corrections and/or corrective actions cannot be completed",
        None,
    ),
    (r"may be symptomatic of serious problems in your firm", None),
    (r"you should take prompt action to (?:correct|address)", None),
    (r"we intend to issue an electronic acknowledgement|encourag\w* electronic submission", None),
    # contact, ombudsman, references
    (r"if you have (?:any )?questions", None),
    (r"\bombudsman\b", None),
    (
        r"(?:please )?(?:contact|call) .{0,80}(?:project manager|compliance officer|at \(?\d{3}|by (?:phone|telephone|e-?mail)|via e-?mail)",
        None,
    ),
    (r"\(\d{3}\)\s?\d{3}-\d{4}|\b\d{3}-\d{3}-\d{4}\b", None),  # a phone number
    (r"[\w.+-]+@[\w-]+\.[\w.-]+", None),  # an e-mail address
    (
        r"\b(?:19|20)\d{2}\s*;\s*\d+\s*(?:\(\d+\))?\s*:\s*\d+",
        None,
    ),  # "2010;99:1234": a journal citation
    (r"\bdoi:?\s*10\.\d{3,}", None),
    # signatures
    (
        r"this is a representation of an electronic record|manifestations of any and all electronic signatures",
        None,
    ),
    # Form FDA 483 text
    # (OCR crops the first letters of the form's lines: "S DOCUMENT LISTS", "SERVATIONS")
    (r"document \w{3,5} (?:ob)?servations made by", None),
    (r"inspect\w* (?:ob)?servations\W{0,2} and \w\w n\w{1,2} represent a final agency", None),
    (r"objection regarding an (?:ob)?servation", None),
    # the same paragraph's end, cut from it by a page break
    (r"^\W*(?:(?:or )?submit )?this information to fda at the address above\W*$", None),
    (r"section 704\(b\) of the federal food|pursuant to section 704\(b\)", None),
    # the form's signature block, OCR'd into a line: "DATE ISSUED Jane Roe, Investigator …
    # PREVIOUS EDITION OBSOLETE"
    (r"\bdate issued\b.{0,300}\binvestigator\b|\bprevious ed\w{2,6}\s+obso\w{2,5}", "fda_483"),
    (r"the observations of objectionable conditions and practices listed on the front", None),
    (
        r"to assist firms inspected in complying|upon completion of any such inspection of a factory",
        None,
    ),
    (r"a copy of such report shall be sent promptly to the secretary", None),
    # complete response letters: labeling checklist, proprietary name, safety update, other
    (
        r"we reserve (?:further )?comments? on the (?:proposed )?(?:labeling|container label|carton)",
        None,
    ),
    (
        r"plr requirements for prescribing information|selected requirements for prescribing information|\bsrpi\b",
        None,
    ),
    (
        r"pregnancy and lactation labeling final rule websites?|structured product labeling \(spl\) format",
        None,
    ),
    (r"which addresses the proposed proprietary name|resubmit the proposed proprietary name", None),
    (r"if you intend to have a proprietary name", None),
    (
        r"include a safety update as described at|the safety update should include data from all",
        None,
    ),
    (r"describe in detail any significant changes or findings in the safety profile", None),
    (
        r"when assembling the sections describing discontinuations|present new safety data from the studies",
        None,
    ),
    (
        r"present tabulations of the new safety data|include tables that compare frequencies of adverse events",
        None,
    ),
    (r"for indications other than the proposed indication, provide separate tables", None),
    (
        r"present a retabulation of the reasons for premature|provide case report forms and narrative summaries",
        None,
    ),
    (r"describe any information that suggests a substantial change in the incidence", None),
    (r"provide updated exposure information|provide a summary of worldwide experience", None),
    (r"provide english translations of current approved foreign labeling", None),
    (
        r"within (?:one|1) year after the date of this letter|request an extension of time in which to resubmit",
        None,
    ),
    (r"a resubmission must fully address all|clearly marked with \W*resubmission", None),
    (
        r"the cover letter should clearly state|a partial response to this letter will not be processed",
        None,
    ),
    (r"(?:may|can) request a meeting or (?:teleconference|telephone conference)", None),
    (
        r"formal meetings between the fda and sponsors|may not be legally marketed until you have been notified",
        None,
    ),
    (r"request to withdraw the application under", None),
    # guidance front matter
    (r"you can use an alternative approach if (?:it|the approach) satisfies", None),
    (r"guidance documents?,? including this guidance,? do not establish legally enforceable", None),
    (r"the use of the word should in agency guidances? means", None),
    (r"document issued on|this (?:guidance )?document supersedes", None),
    (r"for questions (?:about|regarding) this (?:document|guidance)", None),
    (
        r"submit (?:electronic|written) comments|paperwork reduction act of 1995|omb control number",
        None,
    ),
    # the standard charge that closes a CGMP or QSR section, not a violation of its own
    (
        r"(?:methods|facilities|controls)\b.{0,140}do not conform to (?:cgmp|current good manufacturing practice)",
        None,
    ),
    (r"this inspection revealed that (?:these|your) devices? (?:are|is) adulterated", None),
    # complete response letters: the labeling resources paragraph and standard lead-ins
    (
        r"we encourage you to review the labeling review resources|additional resources for the pi\b",
        None,
    ),
    (r"established pharmacologic class \(epc\) text phrases", None),
    (r"to facilitate review of your submission,? provide a highlighted or marked-up copy", None),
    (
        r"significant safety profile changes or findings|new data in original submission format",
        None,
    ),
    (r"^\W*(?:additional comments\W+)?we have the following (?:additional )?comments?", None),
    (r"^\W*we (?:have )?received your (?:firm'?s )?(?:written )?respons", None),
    (
        r"(?:significant )?(?:deviations|violations) (?:observed|noted) during (?:the|our) inspection include",
        None,
    ),
    # a table of contents: dot leaders before a page number
    (r"\.{6,}\s*\d", None),
    # manufacturers' standard MDR disclaimers
    (
        r"if information is provided in the future,? a supplemental report will be issued",
        "fda_maude",
    ),
    (r"a good faith effort will be made to obtain", "fda_maude"),
    (r"objects to the use of these words|these words are included in the fda 3500a", "fda_maude"),
    (r"this report does not reflect a conclusion by", "fda_maude"),
    (r"if pertinent information becomes available .{0,80}(?:addendum|supplemental)", "fda_maude"),
    (
        r"is submitting a final report at this time|a follow up report will be submitted",
        "fda_maude",
    ),
    (r"submitted pursuant to the provisions of 21 cfr", "fda_maude"),
    (r"investigation has begun but (?:it )?has not been completed", "fda_maude"),
    (r"a follow[- ]up report will be (?:filed|submitted)", "fda_maude"),
    (r"supplemental (?:3500a )?report will be (?:submitted|filed|issued)", "fda_maude"),
    (r"manufacturer'?s reference number", "fda_maude"),
    (r"manufacturing record evaluation was performed\b.{0,120}no internal actions", "fda_maude"),
    (r"this report may be based on information which has not been investigated", "fda_maude"),
    (r"(?:fil|submitt)ing this (?:event|report|mdr) in an abundance of caution", "fda_maude"),
    (r"patient information (?:is|was) not (?:applicable|provided|available)", "fda_maude"),
    # manufacturers' standard MDR disclaimers
    (r"submit(?:s|ting)? this report to comply with", "fda_maude"),
    (r"has made reasonable efforts to provide as much relevant information", "fda_maude"),
    (
        r"this report does not constitute an admission|any required fields that are unpopulated",
        "fda_maude",
    ),
    (
        r"will submit a supplemental report if additional|this report is based upon information obtained by",
        "fda_maude",
    ),
    (r"(?:may|could) not have been able to fully (?:investigate|verify)", "fda_maude"),
    *((re.escape(phrase), None) for phrase in BOILERPLATE),
)
# A reference: "J Pharm Sci 2010;99:1234-45", a DOI; the line that holds it is furniture.
_CITATION = re.compile(r"\b(?:19|20)\d{2}\s*;\s*\d+\s*(?:\(\d+\))?\s*:\s*\d+|\bdoi:?\s*10\.\d{3,}")
MAX_REFERENCE_WORDS = 60
# A salutation run into the letterhead on one line (OCR, extracted text): "... NJ 08540 Dear Dr. Rao:"
_RUN_IN_SALUTATION = re.compile(
    r"\bdear\s+(?:dr|mr|mrs|ms|miss|sir|madam|sirs)\b\.?[^:\n]{0,50}:", re.I
)
OPENING_CHARS = 600
_SALUTATION = re.compile(r"dear\s+[a-z][\w.'-]*\b[^:;]{0,60}[:,]?")


def _compile(table: Iterable[tuple[str, str | None]]) -> dict[str | None, re.Pattern[str]]:
    """One alternation per scope."""
    scopes: dict[str | None, list[str]] = {}
    for pattern, scope in table:
        scopes.setdefault(scope, []).append(f"(?:{pattern})")
    return {scope: re.compile("|".join(parts)) for scope, parts in scopes.items()}


_LINE_RULES = _compile(_LINES)
_PHRASE_RULES = _compile(_PHRASES)


def _rules(rules: dict[str | None, re.Pattern[str]], dataset: str | None) -> list[re.Pattern[str]]:
    """The rules for a dataset (all of them when it is not known)."""
    return [
        p for scope, p in rules.items() if not scope or not dataset or dataset.startswith(scope)
    ]


def _is_salutation(line: str) -> bool:
    return len(line.split()) <= 8 and bool(_SALUTATION.fullmatch(line))


def _furniture_line(line: str, rules: list[re.Pattern[str]]) -> bool:
    """A line that is furniture as a whole (`line` is folded and casefolded)."""
    if _is_salutation(line) or any(p.fullmatch(line) for p in rules):
        return True
    if _CITATION.search(line) and len(line.split()) <= MAX_REFERENCE_WORDS:
        return True
    return bool(_FORM_FIELDS.fullmatch(re.sub(r"[^a-z]", "", line)))


def is_furniture_line(line: str, dataset: str | None = None) -> bool:
    """Whether one line is furniture as a whole (a letterhead, address, signature, form field)."""
    return _furniture_line(fold_spaces(line).casefold(), _rules(_LINE_RULES, dataset))


def _size(text: str) -> int:
    return sum(ch.isalnum() for ch in text)


_ADDRESS = re.compile(f"{_STREET_LINE}|{_CITY_LINE}")


def _is_card(lines: list[str]) -> bool:
    """A short block that is an address (a street or a city and zip code line, no prose) or a
    form field with its value ("EMPLOYEE(S) SIGNATURE" and the names under it)."""
    if len(lines) > OPENING_LINES or _size(" ".join(lines)) >= SUBSTANCE:
        return False
    if _FORM_FIELDS.fullmatch(re.sub(r"[^a-z]", "", lines[0].casefold())):
        return True
    prose = any(line.endswith(".") and len(line.split()) > 8 for line in lines)
    return not prose and any(_ADDRESS.fullmatch(line.casefold()) for line in lines)


def is_furniture(
    text: str, dataset: str | None = None, *, common: frozenset[str] = frozenset()
) -> bool:
    """Whether a block is furniture: it opens a letter (a salutation among its first lines), or
    furniture lines and sentences (and sentences `common` in the dataset) make up most of it and
    what is left is too short to be substance of its own."""
    lines = [fold_spaces(line) for line in text.splitlines() if line.strip()]
    if not lines:
        return False
    if any(_is_salutation(line.casefold()) for line in lines[:OPENING_LINES]) or _is_card(lines):
        return True
    if _RUN_IN_SALUTATION.search(" ".join(lines)[:OPENING_CHARS]):
        return True
    line_rules = _rules(_LINE_RULES, dataset)
    phrase_rules = _rules(_PHRASE_RULES, dataset)
    furniture = 0
    rest = []
    for line in lines:
        if _furniture_line(line.casefold(), line_rules):
            furniture += _size(line)
        else:
            rest.append(line)
    body = " ".join(rest)  # sentences are found in the text as written (capitals start them)
    for start, end in sentence_spans(body):
        sentence = body[start:end]
        if (
            any(p.search(sentence.casefold()) for p in phrase_rules)
            or (common and sentence_key(sentence) in common)
            or _mostly_addresses(sentence)
        ):
            furniture += _size(sentence)
    total = _size(" ".join(lines))
    return total > 0 and furniture >= FURNITURE_SHARE * total and total - furniture < SUBSTANCE


_WEB_ADDRESS = re.compile(r"(?:https?://|www\.)\S+")


def _mostly_addresses(sentence: str) -> bool:
    """A sentence that is mostly web addresses: an item of a reference list ("(Human Factors
    for Medical Devices (PDF))(http://www.fda.gov/…)")."""
    return _size("".join(_WEB_ADDRESS.findall(sentence))) >= FURNITURE_SHARE * _size(sentence)


_NEGATIONS = word_set("no not nor")  # stop words, but "no complications" is not "complications"


def _is_content(word: str) -> bool:
    """As `words.content_words` keeps a word."""
    return word not in STOP_WORDS and (len(word) > 1 or word.isdigit())


def _key_word(word: str) -> str:
    return "#" if word in _MONTHS else re.sub(r"\d+", "#", word)


def sentence_key(sentence: str) -> str:
    """A sentence's key for near-copies: its first content words (and negations), casefolded,
    numbers and month names as '#' ("" for a sentence too short to say anything of its own)."""
    kept = [w for w in words(sentence) if w in _NEGATIONS or _is_content(w)]
    keyed = [_key_word(w) for w in kept]
    keyed = [w for w in keyed if any(ch.isalpha() for ch in w) or w == "#"]
    if sum(w not in _NEGATIONS and any(ch.isalpha() for ch in w) for w in keyed) < MIN_KEY_WORDS:
        return ""
    return " ".join(keyed[:KEY_WORDS])


def _keys(text: str) -> list[str]:
    return [k for k in (sentence_key(text[s:e]) for s, e in sentence_spans(text)) if k]


def common_sentences(
    documents: Iterable[Sequence[str]], *, min_share: float = 0.2, min_documents: int = 5
) -> frozenset[str]:
    """Keys of the sentences found in at least `min_share` of the documents (each given as its
    page texts) and in at least `min_documents` of them; a key counts once per document."""
    counts: Counter[str] = Counter()
    n = 0
    for pages in documents:
        n += 1
        counts.update({key for page in pages for key in _keys(page)})
    need = max(min_documents, min_share * n)
    return frozenset(key for key, count in counts.items() if count >= need)


def common_share(text: str, common: frozenset[str]) -> float:
    """The share of a text's sentences (those with a key) whose key is common."""
    keys = _keys(text)
    if not keys or not common:
        return 0.0
    return sum(key in common for key in keys) / len(keys)
