"""dirty_money's words: the names and help its board and How to play page show, marked for
translation here and translated where they are shown (:mod:`.context`)."""

from __future__ import annotations

from django.utils.translation import gettext_noop

from games.engines.dirty_money import cards as C

CURRENCY_NAMES = {
    "EUR": gettext_noop("Euro"),
    "USD": gettext_noop("US dollar"),
    "YEN": gettext_noop("Yen"),
    "CRY": gettext_noop("Crypto"),
}

TYPE_HELP = {
    C.ART: gettext_noop(
        "No effect during play. At the end your Art cards score together in sets of up to five: 2, 5, 9, 14, 20."
    ),
    C.GALLERY: gettext_noop(
        "Each time you buy an Art card, each Gallery you already own lets you draw a card from the money deck."
    ),
    C.EXCHANGE: gettext_noop("Placements of the same region cost you 1 less. Several exchanges add up."),
    C.CASINO: gettext_noop(
        "Each time you buy a placement of the same region, a token goes under this Casino: 1 point each."
    ),
    C.ACCOUNTING: gettext_noop("Each time you resolve an Audit, a token goes under this firm: 2 points each."),
    C.RESTAURANT: gettext_noop("At the end, 1 point for each placement you own of the same region, itself included."),
    C.CHARITY: gettext_noop("At the end, before blacklist penalties, removes up to 2 of your blacklist points."),
    C.REMITTANCE: gettext_noop(
        "At the end, 3 points for each set of one Europe, one USA and one Japan placement you own."
    ),
    C.LAW: gettext_noop("Each time you resolve an Inspect, a token goes under this firm: 2 points each."),
    C.BANK: gettext_noop("Your hand limit is 1 higher. At the end, 1 point for each money card in your hand."),
    C.REAL_ESTATE: gettext_noop("No effect: only its points."),
}

ACTION_HELP = {
    C.INSLR: gettext_noop(
        "1 random card from your left neighbour, then 1 from your right (2 from your opponent in a "
        "two-player game). Dirty cards found are yours and their owner gains a blacklist point."
    ),
    C.INS2: gettext_noop(
        "Choose another player: 2 random cards from their hand. Dirty cards found are yours and their "
        "owner gains a blacklist point."
    ),
    C.INSALL: gettext_noop(
        "1 random card from every other player. Dirty cards found are yours and their owners gain blacklist points."
    ),
    C.AUDTOP: gettext_noop(
        "Every other player shows their hand; whoever holds the most dirty cards (at least 1) gains a blacklist point."
    ),
    C.AUD2: gettext_noop(
        "Every other player shows their hand; each one holding 2 or more dirty cards gains a blacklist point."
    ),
    C.AUD3: gettext_noop(
        "Every other player shows their hand; each one holding 3 or more dirty cards gains a blacklist point."
    ),
    C.TRADE: gettext_noop("Look at another player's hand, then swap one of their cards for one of yours."),
    C.BRIBE: gettext_noop("Remove 1 of your blacklist points."),
}

VILLAIN_HELP = {
    C.LAUNDERER: gettext_noop("At the end of your turn you may draw a money card, then discard one."),
    C.RAT: gettext_noop("Each payment that overpays by 2 or more earns an overpay token: 1 point each."),
    C.FOX: gettext_noop("Your crypto is worth 5 instead of 3."),
    C.BEAR: gettext_noop("A private stock of 3 placements at the Banana Republic that only you may buy."),
    C.SHARK: gettext_noop("Once a turn, one money card of any currency may count as 2 in a payment."),
}

LOCATION_HELP = {
    C.LOC_EU: gettext_noop("Buy 1 or 2 of the Europe placements shown, paying in euros or crypto."),
    C.LOC_US: gettext_noop("Buy 1 or 2 of the USA placements shown, paying in dollars or crypto."),
    C.LOC_JP: gettext_noop("Buy 1 or 2 of the Japan placements shown, paying in yen or crypto."),
    C.LOC_BR: gettext_noop(
        "Remove 1 blacklist point and take the first-player marker (the Bear may also buy from its stock)."
    ),
    C.LOC_BM: gettext_noop("Buy 1 placement from any region's display, paying in that card's currency."),
    C.LOC_AH: gettext_noop("Buy 1 of the three Auction House placements, paying in that card's currency."),
}

NEXT = {
    "choose_bear_stock": gettext_noop("Choose the three placements of your private stock by region."),
    "choose_location": gettext_noop("Choose a location: you collect every card in its row."),
    "blacklist_cards": gettext_noop("Too many cards in hand: choose the cards that go face down onto your blacklist."),
    "resolve_action": gettext_noop("Resolve your action cards, one at a time, in the order you like."),
    "trade_swap": gettext_noop("Pick the card you take and the card you give."),
    "location_action": gettext_noop("Use the location, or end your visit."),
    "gallery_draw": gettext_noop("Your Art Gallery lets you draw a card from the money deck."),
    "launder": gettext_noop("Launderer: draw a money card and then discard one?"),
    "launder_discard": gettext_noop("Launderer: discard one money card (it may be the one you drew)."),
}

WAITING = {
    "choose_bear_stock": gettext_noop("%(who)s chooses the Bear's private stock."),
    "choose_location": gettext_noop("%(who)s chooses a location."),
    "blacklist_cards": gettext_noop("%(who)s is over the hand limit and chooses cards to blacklist."),
    "resolve_action": gettext_noop("%(who)s resolves action cards."),
    "trade_swap": gettext_noop("%(who)s is trading."),
    "location_action": gettext_noop("%(who)s is using the location."),
    "gallery_draw": gettext_noop("%(who)s decides on an Art Gallery draw."),
    "launder": gettext_noop("%(who)s decides whether to launder."),
    "launder_discard": gettext_noop("%(who)s launders a card."),
}
