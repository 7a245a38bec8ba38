"""Where an order may be given: the phases of the ``@order`` declarations (``phase_of``).

The set-up, the start of an operation (recruit, scout, form forces, move), a drawn card, a
battle's line-up and fire, the Objective segment, a free recruit to place, between missions.
"""

from __future__ import annotations

SETUP, OP_START, CARD, LINE_UP, FIRE, OBJECTIVE, PLACE, BETWEEN = (
    "setup", "op-start", "card", "line-up", "fire", "objective", "place", "between")
#: Every phase of a mission under way (23.4: gear may be abandoned in any of them).
MISSION = (SETUP, OP_START, CARD, LINE_UP, FIRE, OBJECTIVE)
#: Forming forces, recruiting and trading: at set-up or before an operation's move.
BEFORE_MOVE = (SETUP, OP_START)
#: Each with the rule that sets what may be done in it, so an order refused for its phase is
#: refused by a rule (issue 24 point 17).
PHASE_TITLES = {SETUP: "Set-up recruiting, 7.0", OP_START: "Start of an operation, 11.0",
                CARD: "Ops card drawn, 13.0", LINE_UP: "Battle line-up, 15.1 (3)",
                FIRE: "Battle fire, 15.1 (3)", OBJECTIVE: "Objective segment, 11.0 (5)",
                PLACE: "Free recruit to place, 9.2", BETWEEN: "Between missions, 25.0",
                "over": "Campaign over, 25.3"}
