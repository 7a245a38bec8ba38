"""A log line (``/game log``, the digest's combat lines): the order as typed, its dice, its
draws apart from them, the rules it used, struck through once reverted."""

from __future__ import annotations

from bot.replies import dice_words, log_line
from bot.store import StepRow
from rules.core.contract import Event
from rules.core.dice import Roll


def step(rolls: list[Roll], reverted: bool = False) -> StepRow:
    return StepRow(game_id=1, seq=12, parent_seq=11, kind="order", actor_id="1", actor_name="ann",
                   side="raiders", action={"name": "move", "options": {"force": "F1", "to": "gialo"}},
                   dice=rolls, events=[Event(kind="x", text="x", rule="14.0")], state_json="{}",
                   reverted_by=13 if reverted else None)


def test_draws_from_a_bin_or_deck_are_not_shown_as_dice():
    rolls = [Roll(reason="hostile picked from the bin (14.0)", sides=18, value=12),
             Roll(reason="attack", sides=6, value=4), Roll(reason="attack", sides=6, value=1)]
    assert log_line(step(rolls)) == \
        "#12 ann (raiders): move force:F1 to:gialo — 🎲 4 1; draws: hostile picked from the bin 12 of 18; rules 14.0"


def test_plain_dice_and_a_reverted_step():
    line = log_line(step([Roll(reason="a", sides=6, value=6)], reverted=True))
    assert line == "~~#12 ann (raiders): move force:F1 to:gialo — 🎲 6; rules 14.0~~ (reverted)"
    assert log_line(step([])) == "#12 ann (raiders): move force:F1 to:gialo — rules 14.0"


def test_each_draw_is_named_for_what_was_drawn():
    """Raiders' "draws 3 of 11, 4 of 4" said nothing of what was drawn (issue 40): the label
    comes from the roll's reason, and draws of one kind in a row share it."""
    rolls = [Roll(reason="Ops card draw (13.0)", sides=11, value=3),
             Roll(reason="hostile picked from the bin (14.0): an Axis patrol", sides=16, value=9),
             Roll(reason="hostile picked from the bin (14.0): an Axis patrol", sides=15, value=8),
             Roll(reason="", sides=4, value=4)]
    assert dice_words(rolls) == [
        "draws: Ops card 3 of 11, hostile picked from the bin 9 of 16, 8 of 15, item 4 of 4"]
