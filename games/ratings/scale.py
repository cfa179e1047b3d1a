"""The rating model (openskill's Plackett–Luce, for 2–5 players with ranks and ties) and how a
rating is shown to players.

A rating is ``(mu, sigma)``; players are ranked by the ordinal ``mu - 3 sigma``, which starts at 0
for a newcomer and can go below it. Pages show it as a whole number on a friendlier scale,
``SHOWN_TARGET + SHOWN_ALPHA * ordinal`` (openskill's own ``ordinal(alpha, target)``): a newcomer
shows 1000, and one place's difference in a close match moves it by some tens.
"""

from __future__ import annotations

from functools import cache

from openskill.models import PlackettLuce

SHOWN_ALPHA = 20.0
SHOWN_TARGET = 1000.0
PROVISIONAL_BELOW = 5  # rated matches: a rating on fewer is marked provisional

Skill = tuple[float, float]  # (mu, sigma)


@cache
def model() -> PlackettLuce:
    return PlackettLuce()


def initial() -> Skill:
    rating = model().rating()
    return float(rating.mu), float(rating.sigma)


def ordinal(skill: Skill) -> float:
    mu, sigma = skill
    return mu - 3.0 * sigma


def shown(skill: Skill) -> int:
    """The rating as pages show it: a whole number."""
    return round(SHOWN_TARGET + SHOWN_ALPHA * ordinal(skill))


def shown_change(before: Skill, after: Skill) -> int:
    """What a match did to the shown rating (the difference of the shown numbers, so it adds up)."""
    return shown(after) - shown(before)


def signed(change: int) -> str:
    """``+12``, ``−3`` (a true minus sign), ``±0``."""
    if change > 0:
        return f"+{change}"
    if change < 0:
        return f"\u2212{-change}"
    return "\u00b10"


def rate(skills: list[Skill], ranks: list[int]) -> list[Skill]:
    """Every player's new skill after a match they finished at ``ranks`` (1 = best; equal = a tie)."""
    m = model()
    teams = [[m.rating(mu=mu, sigma=sigma)] for mu, sigma in skills]
    rated = m.rate(teams, ranks=[float(r) for r in ranks])
    return [(float(team[0].mu), float(team[0].sigma)) for team in rated]
