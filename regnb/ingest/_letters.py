"""Title and date of a regulatory letter read from the letter itself (FDA action letters).

A letter is recognised by its salutation ("Dear Dr. Rao:") with an application number
(NDA/BLA/ANDA) or an action ("COMPLETE RESPONSE") in the lines above it. Its title is built
from the action, the product named in the "Please refer to your application ... for X"
sentence (or a RE:/Subject: line), the addressee firm and the application number; its date from
a "Date:" line or a written date above the salutation, else the first electronic signature
("/s/", the signer, "01/30/2015"). Any document may carry a date line near its top.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from regnb.ingest._fields import iso_date

__all__ = ["Letter", "read_letter", "top_date"]

HEAD_LINES = 30
PRODUCT_CHARS = 160
_MONTHS = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?"
    r"|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?"
)
_WRITTEN = rf"(?:{_MONTHS}[ \t]+\d{{1,2}},?[ \t]+\d{{4}}|\d{{1,2}}[ \t]+{_MONTHS},?[ \t]+\d{{4}})"
_WRITTEN_DATE = re.compile(_WRITTEN, re.IGNORECASE)
_DATE_LINE = re.compile(
    rf"(?:(?:Date[d]?|Date of (?:issue|letter)|Issued?)[ \t]*:?[ \t]*)?(?P<date>{_WRITTEN})\.?",
    re.IGNORECASE,
)
_LABELLED_DATE = re.compile(
    r"(?:Date[d]?|Date of (?:issue|letter)|Issued?)[ \t]*:[ \t]*(?P<date>.{4,30})", re.IGNORECASE
)
_SIGNED = re.compile(r"(?:/s/|\(signed\))", re.IGNORECASE)
_SIGNATURE_DATE = re.compile(
    r"(?P<m>\d{1,2})/(?P<d>\d{1,2})/(?P<y>\d{4})(?:[ \t]+\d{1,2}:\d{2}(?::\d{2})?[ \t]*[AP]M)?"
)
_SALUTATION = re.compile(r"Dear[ \t]+\S.{0,80}[:,]")
_APPLICATION = re.compile(
    r"\b(?P<kind>s?NDA|s?BLA|ANDA)[ \t-]?(?P<number>\d{2}-?\d{3,4})"
    r"(?:[ \t]*/[ \t]*(?P<part>S-?\d{1,4}|Orig(?:inal)?[ \t-]?\d{1,2}))?\b",
    re.IGNORECASE,
)
_ACTION = re.compile(
    r"(?P<rescind>RESCIND(?:ED|ING)?[ \t]+)?(?P<action>COMPLETE RESPONSE|NOT APPROVABLE|APPROVABLE"
    r"|TENTATIVE APPROVAL|APPROVAL|REFUSAL TO FILE|REFUSE TO FILE)(?:[ \t]+LETTER)?",
    re.IGNORECASE,
)
_ACTION_IN_TEXT = (
    ("cannot approve this application in its present form", "Complete Response Letter"),
    ("cannot tentatively approve this application", "Complete Response Letter"),
    ("is not approvable", "Not Approvable Letter"),
    ("is approvable", "Approvable Letter"),
    ("refuse to file", "Refuse to File Letter"),
)
_SUBJECT = re.compile(r"(?:RE|Re|SUBJECT|Subject)[ \t]*:[ \t]*(?P<subject>\S.*)")
_REFER = re.compile(
    r"Please refer to your .{0,600}?(?:\bAct|\(FDCA\)|\bFDCA),?[ \t]+for[ \t]+"
    r"(?:the following (?:drug )?products?:?[ \t]*)?(?P<product>.+)",
    re.IGNORECASE | re.DOTALL,
)
_PRODUCT_END = re.compile(r"\.(?=\s+[A-Z“\"(]|\s*$)|\s+We (?:acknowledge|also|have)\b")
_LEADING_MARKS = re.compile(r"^[^\w(“\"]+")
_NOT_FIRM = re.compile(
    r"(?:Attention|Attn|c/o|U\.S\. Agent|Dear|Via|By (?:e-?mail|fax))\b", re.IGNORECASE
)


@dataclass(frozen=True)
class Letter:
    """What a letter says about itself."""

    action: str
    application: str | None
    product: str | None
    firm: str | None
    date: str | None

    @property
    def title(self) -> str:
        """Action — product, firm (application), e.g. "Complete Response Letter — DSUVIA
        (sufentanil sublingual tablet), AcelRx Pharmaceuticals, Inc. (NDA 209128)"."""
        about = ", ".join(p for p in (self.product, self.firm) if p)
        title = f"{self.action} — {about}" if about else self.action
        return f"{title} ({self.application})" if self.application else title


def _lines(pages: list[str]) -> list[str]:
    return [line.strip() for page in pages for line in page.split("\n") if line.strip()]


def _application(match: re.Match[str]) -> str:
    """The application number tidied: "BLA 125522/ Original 2" -> "BLA 125522/Original 2"."""
    text = f"{match['kind'].upper()} {match['number']}"
    part = match["part"]
    if part:
        part = re.sub(r"(?i)^orig(?:inal)?[ \t-]?", "Original ", part)
        part = re.sub(r"(?i)^s-?", "S-", part)
        text += f"/{part}"
    return text


def _action(head: list[str], body: str) -> str:
    for line in head:
        if match := _ACTION.fullmatch(line.strip(" \t.")):
            action = match["action"].title().replace(" To ", " to ")
            prefix = "Rescission of " if match["rescind"] else ""
            return f"{prefix}{action} Letter"
    text = " ".join(body.split()).lower()
    return next((kind for phrase, kind in _ACTION_IN_TEXT if phrase in text), "Letter")


def _is_action(line: str) -> bool:
    return _ACTION.fullmatch(line.strip(" \t.")) is not None


def _firm(head: list[str]) -> str | None:
    """The addressee: the first line below the application number or action that is not a
    date, a subject, an attention or c/o line."""
    start = next(
        (i + 1 for i, line in enumerate(head) if _APPLICATION.match(line) or _is_action(line)), 0
    )
    for line in head[start:]:
        skip = _is_action(line) or _NOT_FIRM.match(line) or _SUBJECT.fullmatch(line)
        if skip or _date_in(line) or not any(ch.isalpha() for ch in line):
            continue
        firm = re.split(r"\s*c/o\b", line, maxsplit=1, flags=re.IGNORECASE)[0]
        return firm.strip(" ,;-") or None
    return None


def _product(head: list[str], body: str) -> str | None:
    text = " ".join(body.split())
    if match := _REFER.search(text):
        rest = match["product"]
        end = _PRODUCT_END.search(rest)
        product = rest[: end.start()] if end else rest
    else:
        subject = next((m["subject"] for line in head if (m := _SUBJECT.fullmatch(line))), None)
        if subject is None:
            return None
        product = _APPLICATION.sub("", subject)
    product = _LEADING_MARKS.sub("", " ".join(product.split())).rstrip(" ,;:")
    if len(product) > PRODUCT_CHARS:
        product = product[:PRODUCT_CHARS].rsplit(" ", 1)[0] + "…"
    return product or None


def _signature_date(lines: list[str]) -> str | None:
    """The date under the first electronic signature ("/s/", the signer, "01/30/2015")."""
    for index, line in enumerate(lines):
        if not _SIGNED.fullmatch(line):
            continue
        for below in lines[index + 1 : index + 5]:
            if match := _SIGNATURE_DATE.fullmatch(below):
                try:
                    return dt.date(int(match["y"]), int(match["m"]), int(match["d"])).isoformat()
                except ValueError:
                    return None
    return None


def top_date(pages: list[str], lines_per_page: int = 15) -> str | None:
    """A date the document gives near its top: a "Date: ..." line or a written date on a
    line of its own ("March 3, 2019") among the first lines of its first two text pages."""
    texts = [p for p in pages if p.strip()][:2]
    for page in texts:
        if found := _head_date(_lines([page])[:lines_per_page]):
            return found
    return None


def read_letter(pages: list[str], search_pages: int = 3) -> Letter | None:
    """The letter's action, application, product, firm and date; None for a document that
    does not read as a regulatory letter."""
    texts = [p for p in pages if p.strip()][:search_pages]
    lines = _lines(texts)
    dear = next((i for i, line in enumerate(lines) if _SALUTATION.fullmatch(line)), None)
    if dear is None:
        return None
    head = lines[max(0, dear - HEAD_LINES) : dear]
    application = next((m for line in head if (m := _APPLICATION.match(line))), None) or next(
        (m for line in head if (m := _APPLICATION.search(line))), None
    )
    has_action = any(_is_action(line) for line in head)
    if application is None and not has_action:
        return None
    body = "\n".join(lines[dear + 1 : dear + 80])
    date = _head_date(head) or _signature_date(_lines(pages))
    return Letter(
        action=_action(head, body),
        application=_application(application) if application else None,
        product=_product(head, body),
        firm=_firm(head),
        date=date,
    )


def _date_in(line: str) -> str | None:
    """The date of a date line ("Dated: March 3, 2019", "June 12, 2020")."""
    match = _LABELLED_DATE.fullmatch(line) or _DATE_LINE.fullmatch(line)
    return iso_date(match["date"].strip(" .")) if match else None


def _head_date(head: list[str]) -> str | None:
    return next((found for line in head if (found := _date_in(line))), None)
