"""The components of Dirty Money (spec section 2): placements, money deck, villains, locations."""

from __future__ import annotations

from dataclasses import dataclass

from ..base import gettext_noop as _

# -- regions, currencies, locations (2.1, R-2) -----------------------------------------------------

REGIONS: tuple[str, ...] = ("EU", "US", "JP")  # canonical region order
CURRENCY_OF: dict[str, str] = {"EU": "EUR", "US": "USD", "JP": "YEN"}
CRYPTO = "CRY"

LOC_EU, LOC_US, LOC_JP, LOC_BR, LOC_BM, LOC_AH = "LOC-EU", "LOC-US", "LOC-JP", "LOC-BR", "LOC-BM", "LOC-AH"
LOCATION_ORDER: tuple[str, ...] = (LOC_EU, LOC_US, LOC_JP, LOC_BR, LOC_BM, LOC_AH)  # canonical order
REGION_OF_LOCATION: dict[str, str] = {LOC_EU: "EU", LOC_US: "US", LOC_JP: "JP"}
LOCATION_NAMES: dict[str, str] = {
    LOC_EU: _("Europe"),
    LOC_US: _("USA"),
    LOC_JP: _("Japan"),
    LOC_BR: _("Banana Republic"),
    LOC_BM: _("Black Market"),
    LOC_AH: _("Auction House"),
}


def locations_for(players: int) -> tuple[str, ...]:
    """Section 3.1 / S-1: the locations in play for a player count."""
    if players >= 5:
        return LOCATION_ORDER
    if players == 4:
        return LOCATION_ORDER[:5]
    return LOCATION_ORDER[:4]


# -- placements (2.2) ---------------------------------------------------------------------------------

ART = "art"
GALLERY = "gallery"
EXCHANGE = "exchange"
CASINO = "casino"
ACCOUNTING = "accounting"
RESTAURANT = "restaurant"
CHARITY = "charity"
REMITTANCE = "remittance"
LAW = "law"
BANK = "bank"
REAL_ESTATE = "real_estate"

TYPE_NAMES: dict[str, str] = {
    ART: _("Art"),
    GALLERY: _("Art Gallery"),
    EXCHANGE: _("Crypto Exchange"),
    CASINO: _("Casino"),
    ACCOUNTING: _("Accounting Firm"),
    RESTAURANT: _("Restaurant Chain"),
    CHARITY: _("Charity"),
    REMITTANCE: _("Remittance Company"),
    LAW: _("Law Firm"),
    BANK: _("Digital Bank"),
    REAL_ESTATE: _("Real Estate"),
}

# No. -> (type, cost, base points); the same in every region.
_STRUCTURE: tuple[tuple[str, int, int], ...] = (
    (ART, 4, 0),
    (ART, 5, 0),
    (ART, 6, 1),
    (ART, 7, 1),
    (ART, 8, 2),
    (GALLERY, 5, 1),
    (EXCHANGE, 4, 1),
    (EXCHANGE, 6, 2),
    (CASINO, 6, 1),
    (ACCOUNTING, 5, 1),
    (RESTAURANT, 6, 1),
    (CHARITY, 4, 1),
    (REMITTANCE, 7, 1),
    (LAW, 5, 1),
    (BANK, 8, 0),
    (REAL_ESTATE, 5, 2),
    (REAL_ESTATE, 6, 3),
    (REAL_ESTATE, 8, 4),
    (REAL_ESTATE, 9, 5),
    (REAL_ESTATE, 11, 7),
)

_NAMES: dict[str, tuple[str, ...]] = {
    "EU": (
        _("Flemish Still Life"),
        _("Impressionist Garden"),
        _("Marble Bust"),
        _("Cubist Guitar"),
        _("Renaissance Altarpiece"),
        _("Paris Art Gallery"),
        _("Tallinn Crypto Exchange"),
        _("Zug Crypto Exchange"),
        _("Riviera Casino"),
        _("Zurich Accounting Firm"),
        _("Bistro Restaurant Chain"),
        _("Alpine Children's Charity"),
        _("Euro Remittance Company"),
        _("London Law Firm"),
        _("Euro Digital Bank"),
        _("Lisbon Flat"),
        _("Berlin Loft"),
        _("Tuscan Villa"),
        _("Swiss Chalet"),
        _("Monaco Penthouse"),
    ),
    "US": (
        _("Pop Art Print"),
        _("Street Art Mural"),
        _("Western Bronze"),
        _("Abstract Drip Painting"),
        _("Colour Field Canvas"),
        _("SoHo Art Gallery"),
        _("Austin Crypto Exchange"),
        _("Miami Crypto Exchange"),
        _("Las Vegas Casino"),
        _("Delaware Accounting Firm"),
        _("Burger Restaurant Chain"),
        _("Hollywood Charity Gala"),
        _("Dollar Remittance Company"),
        _("Wall Street Law Firm"),
        _("Dollar Digital Bank"),
        _("Chicago Condo"),
        _("Miami Beach House"),
        _("Texas Ranch"),
        _("Manhattan Loft"),
        _("Beverly Hills Mansion"),
    ),
    "JP": (
        _("Ukiyo-e Print"),
        _("Ink Wash Scroll"),
        _("Imari Porcelain Vase"),
        _("Lacquered Screen"),
        _("Samurai Armour"),
        _("Ginza Art Gallery"),
        _("Shibuya Crypto Exchange"),
        _("Osaka Crypto Exchange"),
        _("Yokohama Casino Resort"),
        _("Marunouchi Accounting Firm"),
        _("Ramen Restaurant Chain"),
        _("Temple Restoration Charity"),
        _("Yen Remittance Company"),
        _("Kasumigaseki Law Firm"),
        _("Yen Digital Bank"),
        _("Sapporo Apartment"),
        _("Osaka Shopfront"),
        _("Kyoto Townhouse"),
        _("Niseko Ski Lodge"),
        _("Tokyo Office Tower"),
    ),
}


@dataclass(frozen=True)
class Placement:
    id: str
    region: str
    name: str
    type: str
    cost: int
    points: int


PLACEMENTS: dict[str, Placement] = {}
for _region in REGIONS:
    for _no, (_type, _cost, _points) in enumerate(_STRUCTURE, start=1):
        _pid = f"{_region}-{_no:02d}"
        PLACEMENTS[_pid] = Placement(_pid, _region, _NAMES[_region][_no - 1], _type, _cost, _points)

REGION_CARDS: dict[str, tuple[str, ...]] = {r: tuple(sorted(p for p in PLACEMENTS if p[:2] == r)) for r in REGIONS}

# -- money deck: currency cards (2.3) ------------------------------------------------------------------

# value -> (clean copies, dirty copies), for each fiat currency
_FIAT: tuple[tuple[int, int, int], ...] = (
    (1, 2, 0),
    (2, 4, 0),
    (3, 5, 0),
    (4, 4, 0),
    (5, 4, 1),
    (6, 0, 2),
    (7, 0, 2),
    (8, 0, 1),
    (9, 0, 1),
)
FIATS: tuple[str, ...] = ("EUR", "USD", "YEN")


def _currency_ids() -> tuple[str, ...]:
    out: list[str] = []
    for cur in FIATS:
        for value, clean, dirty in _FIAT:
            out += [f"{cur}-{value}C-{n}" for n in range(1, clean + 1)]
            out += [f"{cur}-{value}D-{n}" for n in range(1, dirty + 1)]
    out += [f"CRY-3C-{n}" for n in range(1, 5)]
    out += [f"CRY-3D-{n}" for n in range(1, 9)]
    return tuple(sorted(out))


CURRENCY_CARDS: tuple[str, ...] = _currency_ids()

# -- money deck: action cards (2.4) ------------------------------------------------------------------------

INSLR, INS2, INSALL = "INSLR", "INS2", "INSALL"
AUDTOP, AUD2, AUD3 = "AUDTOP", "AUD2", "AUD3"
TRADE, BRIBE = "TRADE", "BRIBE"
ACTION_COUNTS: dict[str, int] = {INSLR: 4, INS2: 5, INSALL: 3, AUDTOP: 4, AUD2: 4, AUD3: 2, TRADE: 4, BRIBE: 4}
ACTION_NAMES: dict[str, str] = {
    INSLR: _("Inspect: Left & Right"),
    INS2: _("Inspect: One Player"),
    INSALL: _("Inspect: Everyone"),
    AUDTOP: _("Audit: Dirtiest Money"),
    AUD2: _("Audit: 2+ Dirty"),
    AUD3: _("Audit: 3+ Dirty"),
    TRADE: _("Trade"),
    BRIBE: _("Bribe"),
}
INSPECTS = frozenset({INSLR, INS2, INSALL})
AUDITS = frozenset({AUDTOP, AUD2, AUD3})
TARGETED = frozenset({INS2, TRADE})  # actions whose resolve_action needs a target (10.1)
ACTION_CARDS: tuple[str, ...] = tuple(
    sorted(f"ACT-{kind}-{n}" for kind, count in ACTION_COUNTS.items() for n in range(1, count + 1))
)
MONEY_CARDS: tuple[str, ...] = tuple(sorted(CURRENCY_CARDS + ACTION_CARDS))
MONEY_SET = frozenset(MONEY_CARDS)

# -- villains (2.5) ---------------------------------------------------------------------------------------

LAUNDERER, RAT, FOX, BEAR, SHARK = "V1-LAUNDERER", "V2-RAT", "V3-FOX", "V4-BEAR", "V5-SHARK"
VILLAINS: tuple[str, ...] = (LAUNDERER, RAT, FOX, BEAR, SHARK)  # sorted by id
VILLAIN_NAMES: dict[str, str] = {
    LAUNDERER: _("The Launderer"),
    RAT: _("The Corrupt Rat"),
    FOX: _("The Crypto Fox"),
    BEAR: _("The Wall Street Bear"),
    SHARK: _("The Loan Shark"),
}

RAT_SLOT = "RAT"  # the holder name of the Corrupt Rat's overpay slot in a token pile
VIRTUAL = "*"  # a virtual token: counts like a card, no card behind it

# -- card helpers -------------------------------------------------------------------------------------------


def is_action(card: str) -> bool:
    return card.startswith("ACT-")


def action_kind(card: str) -> str:
    """``ACT-INS2-3`` -> ``INS2``."""
    return card.split("-")[1]


def currency(card: str) -> str:
    """``EUR-5D-1`` -> ``EUR`` (``CRY`` for crypto)."""
    return card.split("-")[0]


def printed_value(card: str) -> int:
    return int(card.split("-")[1][:-1])


def is_dirty(card: str) -> bool:
    """R-4: a currency card whose middle part ends in D is dirty."""
    return not is_action(card) and card.split("-")[1].endswith("D")


def value_to(card: str, villain: str) -> int:
    """R-3 / R-87: a currency card's value to a holder with this villain."""
    if currency(card) == CRYPTO:
        return 5 if villain == FOX else 3
    return printed_value(card)


SYMBOLS: dict[str, str] = {"EUR": "€", "USD": "$", "YEN": "¥", CRYPTO: "Ƀ"}  # Ƀ: in more fonts than ₿


def card_label(card: str) -> str:
    """A short label for a money card (used by ``terms``): "€5", "¥7☠" (dirty: the skull of 2.6), in no language."""
    if is_action(card):
        return ACTION_NAMES[action_kind(card)]
    return f"{SYMBOLS[currency(card)]}{printed_value(card)}" + ("☠" if is_dirty(card) else "")


TERMS: dict[str, str] = {}
TERMS.update(LOCATION_NAMES)
TERMS.update(VILLAIN_NAMES)
TERMS.update({pid: p.name for pid, p in PLACEMENTS.items()})
TERMS.update({cid: card_label(cid) for cid in MONEY_CARDS})
TERMS.update({"EU": _("Europe"), "US": _("USA"), "JP": _("Japan")})
TERMS.update({RAT_SLOT: _("overpay slot")})
