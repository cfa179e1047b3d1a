"""Routes drawn as text for the resolution walk (R-25..R-37), each with its expected transcript.

``picture`` is the laid-out route, north up, one character per cell: ``S`` the start tile, ``|``/``-``
a straight lying north-south/east-west, ``L``/``R`` a left/right turn, ``D``/``d`` a double
left/right, ``+`` a crossing, ``O`` a roundabout, ``.`` nothing. ``steps`` has one line per walk step:
kind, tile, cell, entry>exit heading, turn, k. ``outcome`` is ``ESCAPED`` or ``LOST <L> <reasons>``
followed, for an edge or blocked stop, by ``at <x>,<y> <side>``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Route:
    name: str
    tiles: str
    floors: str
    picture: str
    steps: str
    outcome: str


ROUTES: tuple[Route, ...] = (
    Route(
        name="R-28 M3: every tile revealed and the walker steps out: ESCAPED",
        tiles="T01 T02",
        floors="FL0",
        picture="""
            |
            |
            S
        """,
        steps="""
            REVEAL T01 0,1 N>N straight 1
            REVEAL T02 0,2 N>N straight 2
        """,
        outcome="ESCAPED",
    ),
    Route(
        name="R-33 DEAD END: the walker hits the side of the start tile",
        tiles="T09 T11 T13",
        floors="FL0",
        picture="""
            LL
            LS
        """,
        steps="""
            REVEAL T09 0,1 N>W left 1
            REVEAL T11 -1,1 W>S left 2
            REVEAL T13 -1,0 S>E left 3
        """,
        outcome="LOST 3 DEAD END at 0,0 W",
    ),
    Route(
        name="R-33 LOOP: the walker comes into the start tile from behind",
        tiles="T14 T15 T01 T16 T17",
        floors="FL0",
        picture="""
            RR
            S|
            RR
        """,
        steps="""
            REVEAL T14 0,1 N>E right 1
            REVEAL T15 1,1 E>S right 2
            REVEAL T01 1,0 S>S straight 3
            REVEAL T16 1,-1 S>W right 4
            REVEAL T17 0,-1 W>N right 5
        """,
        outcome="LOST 5 LOOP at 0,0 S",
    ),
    Route(
        name="R-33 HEAD-ON: the walker runs into a left turn against its flow",
        tiles="T09 T14 T15 T17",
        floors="FL0",
        picture="""
            RR
            RL
            .S
        """,
        steps="""
            REVEAL T09 0,1 N>W left 1
            REVEAL T14 -1,1 W>N right 2
            REVEAL T15 -1,2 N>E right 3
            REVEAL T17 0,2 E>S right 4
        """,
        outcome="LOST 4 HEAD-ON at 0,1 N",
    ),
    Route(
        name="R-34 LOOP on an edge: a re-entered roundabout repeats a right turn onto its own route",
        tiles="T32 T14 T15 T16",
        floors="FL0",
        picture="""
            RR
            OR
            S.
        """,
        steps="""
            REVEAL T32 0,1 N>N straight 1
            REVEAL T14 0,2 N>E right 2
            REVEAL T15 1,2 E>S right 3
            REVEAL T16 1,1 S>W right 4
            ROUNDABOUT_AGAIN T32 0,1 W>N right 4
        """,
        outcome="LOST 4 LOOP at 0,2 S",
    ),
    Route(
        name="R-34 HEAD-ON on an edge: a re-entered roundabout sends the walker back the way it came",
        tiles="T32 T09 T07 T11 T06 T13 T10 T17",
        floors="FL0",
        picture="""
            L-L
            |RO
            LLS
        """,
        steps="""
            REVEAL T32 0,1 N>N straight 1
            REVEAL T09 0,2 N>W left 2
            REVEAL T07 -1,2 W>W straight 3
            REVEAL T11 -2,2 W>S left 4
            REVEAL T06 -2,1 S>S straight 5
            REVEAL T13 -2,0 S>E left 6
            REVEAL T10 -1,0 E>N left 7
            REVEAL T17 -1,1 N>E right 8
            ROUNDABOUT_AGAIN T32 0,1 E>S right 8
        """,
        outcome="LOST 8 HEAD-ON at 0,0 N",
    ),
    Route(
        name="R-30 a double left's second path is used on the way back, then the route escapes",
        tiles="T22 T17 T15 T16 T07",
        floors="FL0",
        picture="""
            RR.
            RD-
            .S.
        """,
        steps="""
            REVEAL T22 0,1 N>W left 1
            REVEAL T17 -1,1 W>N right 2
            REVEAL T15 -1,2 N>E right 3
            REVEAL T16 0,2 E>S right 4
            SECOND_PATH T22 0,1 S>E left 4
            REVEAL T07 1,1 E>E straight 5
        """,
        outcome="ESCAPED",
    ),
    Route(
        name="R-31 roundabouts revealed in a row copy the same turn",
        tiles="T14 T32 T33",
        floors="FL0",
        picture="""
            RO
            SO
        """,
        steps="""
            REVEAL T14 0,1 N>E right 1
            REVEAL T32 1,1 E>S right 2
            REVEAL T33 1,0 S>W right 3
        """,
        outcome="LOST 3 DEAD END at 0,0 E",
    ),
    Route(
        name="R-37 FL1: five different characters",
        tiles="T01 T10 T11 T04 T05",
        floors="FL0 FL1",
        picture="""
            LL
            ||
            |S
        """,
        steps="""
            REVEAL T01 0,1 N>N straight 1
            REVEAL T10 0,2 N>W left 2
            REVEAL T11 -1,2 W>S left 3
            REVEAL T04 -1,1 S>S straight 4
            REVEAL T05 -1,0 S>S straight 5
        """,
        outcome="LOST 5 FL1",
    ),
    Route(
        name="R-37 FL2: a tile revealed five cells from the start",
        tiles="T06 T07 T01 T03 T13",
        floors="FL0 FL2",
        picture="""
            L
            |
            |
            |
            |
            S
        """,
        steps="""
            REVEAL T06 0,1 N>N straight 1
            REVEAL T07 0,2 N>N straight 2
            REVEAL T01 0,3 N>N straight 3
            REVEAL T03 0,4 N>N straight 4
            REVEAL T13 0,5 N>W left 5
        """,
        outcome="LOST 5 FL2",
    ),
    Route(
        name="R-37 FL3: a tile revealed behind the start tile's row",
        tiles="T14 T15 T06 T07",
        floors="FL0 FL3",
        picture="""
            RR
            S|
            .|
        """,
        steps="""
            REVEAL T14 0,1 N>E right 1
            REVEAL T15 1,1 E>S right 2
            REVEAL T06 1,0 S>S straight 3
            REVEAL T07 1,-1 S>S straight 4
        """,
        outcome="LOST 4 FL3",
    ),
    Route(
        name="R-37 FL4: three straight traversals in a row",
        tiles="T01 T02 T03 T04",
        floors="FL0 FL4",
        picture="""
            |
            |
            |
            S
        """,
        steps="""
            REVEAL T01 0,1 N>N straight 1
            REVEAL T02 0,2 N>N straight 2
            REVEAL T03 0,3 N>N straight 3
        """,
        outcome="LOST 3 FL4",
    ),
    Route(
        name="R-37 FL5: four tiles with a hazard symbol",
        tiles="T02 T03 T08 T10",
        floors="FL0 FL5",
        picture="""
            LL
            .|
            .|
            .S
        """,
        steps="""
            REVEAL T02 0,1 N>N straight 1
            REVEAL T03 0,2 N>N straight 2
            REVEAL T08 0,3 N>W left 3
            REVEAL T10 -1,3 W>S left 4
        """,
        outcome="LOST 4 FL5",
    ),
    Route(
        name="R-37 FL6: the net turn reaches four",
        tiles="T09 T07 T11 T06 T13 T10",
        floors="FL0 FL6",
        picture="""
            L-L
            |.S
            LL.
        """,
        steps="""
            REVEAL T09 0,1 N>W left 1
            REVEAL T07 -1,1 W>W straight 2
            REVEAL T11 -2,1 W>S left 3
            REVEAL T06 -2,0 S>S straight 4
            REVEAL T13 -2,-1 S>E left 5
            REVEAL T10 -1,-1 E>N left 6
        """,
        outcome="LOST 6 FL6",
    ),
    Route(
        name="R-37 every floor condition that holds is listed, in card order",
        tiles="T01 T02 T03 T04 T05",
        floors="FL0 FL1 FL2",
        picture="""
            |
            |
            |
            |
            |
            S
        """,
        steps="""
            REVEAL T01 0,1 N>N straight 1
            REVEAL T02 0,2 N>N straight 2
            REVEAL T03 0,3 N>N straight 3
            REVEAL T04 0,4 N>N straight 4
            REVEAL T05 0,5 N>N straight 5
        """,
        outcome="LOST 5 FL1 FL2",
    ),
    Route(
        name="R-37 a floor card not face up this round does not count",
        tiles="T01 T02 T03",
        floors="FL0",
        picture="""
            |
            |
            |
            S
        """,
        steps="""
            REVEAL T01 0,1 N>N straight 1
            REVEAL T02 0,2 N>N straight 2
            REVEAL T03 0,3 N>N straight 3
        """,
        outcome="ESCAPED",
    ),
    Route(
        name="R-33 DEAD END on the side of a straight",
        tiles="T01 T09 T11 T13",
        floors="FL0",
        picture="""
            LL
            L|
            .S
        """,
        steps="""
            REVEAL T01 0,1 N>N straight 1
            REVEAL T09 0,2 N>W left 2
            REVEAL T11 -1,2 W>S left 3
            REVEAL T13 -1,1 S>E left 4
        """,
        outcome="LOST 4 DEAD END at 0,1 W",
    ),
    Route(
        name="R-33 LOOP: the walker comes into a right turn opposite its exit",
        tiles="T14 T09 T11 T07 T13 T10",
        floors="FL0",
        picture="""
            L-L
            LRL
            .S.
        """,
        steps="""
            REVEAL T14 0,1 N>E right 1
            REVEAL T09 1,1 E>N left 2
            REVEAL T11 1,2 N>W left 3
            REVEAL T07 0,2 W>W straight 4
            REVEAL T13 -1,2 W>S left 5
            REVEAL T10 -1,1 S>E left 6
        """,
        outcome="LOST 6 LOOP at 0,1 W",
    ),
)
