"""A page as match.js keeps it, simulated on HTML text: updates applied the way the browser does.

Elements are found by ``id`` with the standard library's HTML parser, so a test can apply each
pushed update (whole partials, or fragment diffs with appended log lines) to what a player's page
showed before, and compare the result with a fresh render.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"})
LOG_LINES = 60


class _Spans(HTMLParser):
    """Start and end offsets of every element with an id (top level only when ``top_only``)."""

    def __init__(self, text: str, top_only: bool) -> None:
        super().__init__(convert_charrefs=False)
        self.text = text
        self.top_only = top_only
        self.lines = [0]
        for line in text.splitlines(keepends=True):
            self.lines.append(self.lines[-1] + len(line))
        self.stack: list[tuple[str, str | None, int]] = []
        self.spans: dict[str, tuple[int, int]] = {}
        self.order: list[str] = []

    def _offset(self) -> int:
        line, column = self.getpos()
        return self.lines[line - 1] + column

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        start = self._offset()
        ident = dict(attrs).get("id")
        if tag in VOID:
            end = self.text.index(">", start) + 1
            self._record(ident, start, end)
            return
        self.stack.append((tag, ident, start))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        start = self._offset()
        self._record(dict(attrs).get("id"), start, self.text.index(">", start) + 1)

    def handle_endtag(self, tag: str) -> None:
        end = self.text.index(">", self._offset()) + 1
        while self.stack:
            name, ident, start = self.stack.pop()
            if name == tag:
                self._record(ident, start, end)
                return

    def _record(self, ident: str | None, start: int, end: int) -> None:
        if ident is None or (self.top_only and self.stack):
            return
        self.spans.setdefault(ident, (start, end))
        self.order.append(ident)


def spans(html: str, *, top_only: bool = False) -> dict[str, tuple[int, int]]:
    parser = _Spans(html, top_only)
    parser.feed(html)
    parser.close()
    return parser.spans


def span(html: str, ident: str) -> tuple[int, int]:
    """The start and end offsets of the element with id ``ident``: what ``spans(html)[ident]`` gives,
    found by scanning from its opening tag for the closing tag of its depth instead of parsing the
    whole page (the rendered pages have no comments or scripts holding tags; ``matches_spans``
    checks it on real pages)."""
    opening = re.search(rf'<([a-zA-Z][\w-]*)\b[^>]*?\sid="{re.escape(ident)}"[^>]*>', html)
    if opening is None:
        raise KeyError(ident)
    tag, start = opening.group(1).lower(), opening.start()
    if tag in VOID or opening.group(0).endswith("/>"):
        return start, opening.end()
    depth, position = 1, opening.end()
    same = re.compile(rf"<(/?){tag}\b[^>]*>", re.IGNORECASE)
    while depth:
        found = same.search(html, position)
        if found is None:
            raise ValueError(f"#{ident} is never closed")
        depth += -1 if found.group(1) else 1
        position = found.end()
    return start, position


def has(html: str, ident: str) -> bool:
    return re.search(rf'<[a-zA-Z][^>]*?\sid="{re.escape(ident)}"', html) is not None


def matches_spans(html: str) -> bool:
    """``span`` finds every element ``spans`` finds, where it finds it."""
    return all(span(html, ident) == found for ident, found in spans(html).items())


def top_elements(html: str) -> list[tuple[str, str]]:
    """The top-level elements of ``html`` that have an id, as (id, outer HTML), in order."""
    found = spans(html, top_only=True)
    return sorted(((ident, html[a:b]) for ident, (a, b) in found.items()), key=lambda item: html.index(item[1]))


def attribute(html: str, ident: str, name: str) -> str | None:
    start, _end = span(html, ident)
    opening = html[start : html.index(">", start) + 1]
    found = re.search(rf'\s{re.escape(name)}="([^"]*)"', opening)
    return found.group(1) if found else None


def set_attribute(html: str, ident: str, name: str, value: Any) -> str:
    start, _ = span(html, ident)
    close = html.index(">", start)
    opening = re.sub(rf'(\s{re.escape(name)}=")[^"]*(")', rf"\g<1>{value}\g<2>", html[start : close + 1])
    return html[:start] + opening + html[close + 1 :]


def replace_element(html: str, ident: str, fresh: str) -> str:
    start, end = span(html, ident)
    return html[:start] + fresh + html[end:]


def inner(html: str, ident: str) -> str:
    start, end = span(html, ident)
    open_end = html.index(">", start) + 1
    close_start = html.rindex("<", start, end)
    return html[open_end:close_start]


class Page:
    """What match.js shows of a match: ``html`` holds the board, log and chat sections."""

    def __init__(self, html: str) -> None:
        self.html = html
        self.resyncs = 0

    def revision(self) -> int:
        return int(attribute(self.html, "board", "data-version") or -1)

    def apply(self, update: dict[str, Any]) -> None:
        base = update.get("base")
        if update.get("type") == "part":  # shared fragments ahead of their update: the revision stays
            if self.revision() == base:
                for fragment in update["frags"]:
                    for ident, fresh in top_elements(fragment):
                        self.html = replace_element(self.html, ident, fresh)
            return
        if base is None:
            for ident, fresh in top_elements(update["html"]):
                if has(self.html, ident):
                    self.html = replace_element(self.html, ident, fresh)
            return
        if self.revision() != base:
            self.resyncs += 1
            return
        for fragment in update.get("frags", []):
            for ident, fresh in top_elements(fragment):
                self.html = replace_element(self.html, ident, fresh)
        for ident, fresh in top_elements(update["html"]):
            if has(self.html, ident):
                self.html = replace_element(self.html, ident, fresh)
        if "log" in update:
            lines = inner(self.html, "log-lines")
            items = re.findall(r"<li>.*?</li>", lines, re.S)
            new = re.findall(r"<li>.*?</li>", update["log"], re.S)
            kept = (new + items)[:LOG_LINES]
            start, end = span(self.html, "log-lines")
            opening = self.html[start : self.html.index(">", start) + 1]
            self.html = self.html[:start] + opening + "".join(kept) + "</ol>" + self.html[end:]
            self.html = set_attribute(self.html, "log", "data-version", update["revision"])
        self.html = set_attribute(self.html, "board", "data-version", update["revision"])
        self.html = set_attribute(self.html, "board", "data-game-version", update["version"])


def normal(html: str) -> str:
    """HTML compared across renders: white space between tags folded, the muted placeholder dropped."""
    html = re.sub(r'<li class="muted">[^<]*</li>', "", html)
    return re.sub(r">\s+<", "><", html).strip()
