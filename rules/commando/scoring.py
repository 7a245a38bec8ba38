"""Victory: targets destroyed and units lost (the scenario's stand-in points), and game end."""

from __future__ import annotations

from rules.commando import board, outlook
from rules.core import evaluation
from rules.commando.state import RaidState


#: The logistic's scale of the expected lead (points): a lead of 2.5 stands at about 0.7,
#: so a point (a loss, a quarter of the caisson) still tells apart the orders compared.
LEAD_SCALE = 2.5


def scores(state: RaidState) -> dict[str, int]:
    """Points per side: commandos score destroyed targets and German losses, Germans score
    commando losses (points per loss from the scenario's victory table)."""
    loss = state.table.victory.loss_points
    blown = sum(t.points for t in state.table.targets if t.id in state.destroyed)
    return {
        "commandos": blown + loss["germans"] * len(state.lost("germans")),
        "germans": loss["commandos"] * len(state.lost("commandos")),
    }


def over(state: RaidState) -> bool:
    """The raid ends after the last turn, when no commando is left or every target is blown."""
    return (
        state.turn > state.max_turn
        or not state.alive("commandos")
        or not board.live_targets(state)
    )


def standing(state: RaidState) -> str:
    """Who leads, e.g. ``Commandos 7 - Germans 2``."""
    score = scores(state)
    return f"Commandos {score['commandos']} - Germans {score['germans']}"


def result(state: RaidState) -> str:
    """The final result line."""
    score = scores(state)
    blown = len(state.destroyed)
    detail = (
        f"{blown} target{'s' if blown != 1 else ''} destroyed, "
        f"{len(state.lost('commandos'))} commando and {len(state.lost('germans'))} German "
        "units lost"
    )
    if score["commandos"] > score["germans"]:
        return f"Commandos win {score['commandos']}-{score['germans']}: {detail}."
    if score["germans"] > score["commandos"]:
        return f"Germans win {score['germans']}-{score['commandos']}: {detail}."
    return f"Draw {score['commandos']}-{score['germans']}: {detail}."


def headline(state: RaidState) -> str:
    """The result in short, for the map's banner and the status head: ``Commandos win 7-2``."""
    return result(state).split(":")[0]


def prospects(state: RaidState, side: str) -> float:
    """How the raid stands for ``side``, 0 to 1, for the computer player (issue 43): the
    result once it is over, else the lead in the points the victory table may give at the
    end (:func:`rules.commando.outlook.expected_points`: the points scored, the demolitions
    and the fire to come)."""
    score = scores(state)
    theirs = next(s for s in score if s != side)
    if state.finished:
        ahead = [s for s in score if score[s] > max(v for k, v in score.items() if k != s)]
        return evaluation.final(ahead[0] if ahead else None, side)
    expected = outlook.expected_points(state, score)
    return evaluation.lead(expected[side], expected[theirs], LEAD_SCALE)
