"""heist's own ``replace`` (games.engines.heist.state) builds what ``dataclasses.replace`` builds:
``evolve`` applies every event through it, so a difference would change every state after it."""

from __future__ import annotations

import dataclasses
import random

import pytest

from games.engines.heist.state import Hand, Look, Offer, State, replace


def _field_values(obj: object) -> list[tuple[str, object]]:
    return [(f.name, getattr(obj, f.name)) for f in dataclasses.fields(obj)]  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "made",
    [
        State(players=4, balances=(1, 2, 3, 4), phase="negotiation"),
        Hand(seat=1, slot=2, role="DRIVER", stake=3, own=2, loan=1),
        Offer(id=3, creator=0, payer=0, payee=2, amount=2, clause=1, created=10.0, expires=70.0),
        Look(heist=1, seat=0, target=1, slot=1, role="BOSS"),
    ],
)
def test_a_replaced_instance_is_the_one_dataclasses_replace_builds(made: object) -> None:
    rng = random.Random(repr(made))
    names = [f.name for f in dataclasses.fields(made)]  # type: ignore[arg-type]
    before = _field_values(made)
    for _ in range(20):
        changes = {name: rng.choice([0, 1, "x", (), (1, 2)]) for name in rng.sample(names, rng.randint(0, 3))}
        ours, theirs = replace(made, **changes), dataclasses.replace(made, **changes)  # type: ignore[type-var]
        assert ours == theirs and type(ours) is type(theirs)
        assert _field_values(ours) == _field_values(theirs) and list(vars(ours)) == list(vars(theirs))
        assert _field_values(made) == before  # the original is left alone
    with pytest.raises(dataclasses.FrozenInstanceError):
        replace(made, **{names[0]: 1}).__setattr__(names[0], 2)


def test_an_unknown_field_is_refused_as_dataclasses_replace_refuses_it() -> None:
    with pytest.raises(TypeError):
        replace(State(players=3), nope=1)
