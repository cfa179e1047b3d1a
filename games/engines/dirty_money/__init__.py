"""dirty_money (*Dirty Money: The Money Laundering Game*). Spec: rules/dirty_money.md.

Actions (10.1; integers may be decimal strings, card lists may be comma-separated strings):

* ``{"type": "choose_bear_stock", "EU": a, "US": b, "JP": c}``: a + b + c = 3 (S-6, the Bear only)
* ``{"type": "choose_location", "location": "LOC-EU"}`` (T-1, R-13, R-14)
* ``{"type": "blacklist_cards", "cards": [ids]}``: exactly the excess, the last one on top (R-22)
* ``{"type": "resolve_action", "card": "ACT-...", "target": seat | None}``: target for INS2 / TRADE
* ``{"type": "trade_swap", "take": id, "give": id}`` (R-42, second step)
* ``{"type": "buy", "cards": [1 or 2 placement ids], "mode": "combined" | "separate",
  "payment": [ids, discard order], "shark_card": id | None}`` (R-60 to R-68, R-89)
* ``{"type": "banana_republic"}``, ``{"type": "end_location_action"}`` (R-50, R-52)
* ``{"type": "gallery_draw", "draw": bool}`` (R-74), ``{"type": "launder", "use": bool}``,
  ``{"type": "launder_discard", "card": id}`` (R-85)
* SYSTEM: ``start``, ``{"type": "resign", "seat": n}``, ``{"type": "timeout", "seat": n}`` (10.3)

``view(state, seat)`` keys: players, seat, phase, options, target, round, order, turn_seat,
marker_seat, last_seat, final_round, decision {kind, seats, due}, locations [{id, row, display}],
auction, bear_stock, deck_size, discard_size, discard_top, placement_deck_sizes, location, step,
pending, resolving, trade_target_seat, gallery_left, bought, shark_used, banana_done, trim
[{seat, excess}], seats [{seat, villain, hand_size, hand_limit, blacklist, tableau, tokens
{placement: n}, overpay, resigned}]; for a player also hand, hand_values, dirty_count, and when it
applies trade_hand (the Trade's actor), launder_drawn (the Launderer), purchase {options [{cards,
due, currency, eligible}], shark_available, max_more, unit_costs} (the active player at T-4);
after the end hands (all) and scores (every component of section 6).

Deadline kinds: choose_bear_stock, choose_location, blacklist_cards, resolve_action, trade_swap,
location_action, gallery_draw, launder, launder_discard (option ``pace``: live seconds or
correspondence hours).
"""

from __future__ import annotations

from .rules import DirtyMoneyRules
from .state import State

RULES = DirtyMoneyRules()

__all__ = ["RULES", "DirtyMoneyRules", "State"]
