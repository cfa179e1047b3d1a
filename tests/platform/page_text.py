"""The text a page shows its reader, and what in it must not be English on a page in Chinese."""

from __future__ import annotations

import re
from html.parser import HTMLParser

# Three or more Latin words in a row: English left on a page in another language.
LATIN_PHRASE = re.compile(r"[A-Za-z]{2,}(?:[ ,'’.-]+[A-Za-z]{2,}){2,}")


class _Text(HTMLParser):
    """The text a reader sees: tags, scripts and styles dropped; title and aria-label/data-tip kept."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        for name, value in attrs:
            if name in ("title", "aria-label", "data-tip", "placeholder") and value:
                self.parts.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def visible_text(html: str) -> str:
    """A page's text as a reader sees it, its white space collapsed."""
    parser = _Text()
    parser.feed(html)
    return " ".join(" ".join(parser.parts).split())


def dirty_money_english_terms() -> set[str]:
    """Every name the game shows (locations, placements, types, villains, action cards), in English."""
    from games.engines.dirty_money.cards import ACTION_NAMES, LOCATION_NAMES, PLACEMENTS, TYPE_NAMES, VILLAIN_NAMES

    names = {p.name for p in PLACEMENTS.values()}
    for table in (ACTION_NAMES, LOCATION_NAMES, TYPE_NAMES, VILLAIN_NAMES):
        names.update(table.values())
    return names
