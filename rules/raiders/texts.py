"""Cards in words: the whole text of an Ops card or a Mission card, as a player reads it.

Shown when the player must decide on a drawn card (accept or swap, 22.0; Supplies for its
bonus, 24.0 (3)), at a mission's start (8.0) and by ``/raiders card id:`` (5.0).  Lines stay
short: they are read on a phone.
"""

from __future__ import annotations

from rules.core import scenariofile
from rules.core.errors import RuleError
from rules.core.orders import order
from rules.raiders import actions as A
from rules.raiders import offers
from rules.raiders.cards import KEEP_WORDS
from rules.raiders.forces import Ctx
from rules.raiders.scenario import Effect, MissionCard, OpsCard, Scenario


def hostiles_words(count: int | str | None) -> str:
    """``1d6 hostiles``, ``hostiles = alert``, ``3 hostiles``."""
    if count == "die":
        return "1d6 hostiles (15.1)"
    if count == "alert":
        return "hostiles = alert (17.1)"
    return f"{count} hostile{'s' if count != 1 else ''}"


def effect_words(sc: Scenario, effect: Effect) -> str:
    """What one effect line does: ``3 hostiles, alert +1, +1 RP``; ``nothing`` if nothing."""
    parts = []
    if effect.hostiles is not None:
        parts.append(hostiles_words(effect.hostiles))
    if effect.alert:
        parts.append(f"alert {effect.alert:+d}")
    if effect.rp:
        parts.append(f"{effect.rp:+d} RP")
    if effect.ops:
        parts.append(f"{effect.ops:+d} Op{'s' if abs(effect.ops) != 1 else ''}")
    if effect.reinforcement is not None:
        parts.append(f"a free {sc.unit_type[effect.reinforcement].name}")
    if effect.return_discards:
        parts.append(f"{effect.return_discards} discards back")
    return ", ".join(parts) or "nothing"


def keep_words(events: list[str]) -> list[str]:
    """13.1: a kept card's special events in words, one a line."""
    return [f"• {KEEP_WORDS.get(event, event)}" for event in events]


def ops_card_lines(sc: Scenario, card: OpsCard) -> list[str]:
    """The whole Ops card: alert check, hostiles, win/lose, Supplies bonus, kept events."""
    lines = [f"🃏 {card.id} {card.title}"]
    if card.keep:
        return lines + ["Keep this card; later, one of (13.1):"] + keep_words(list(card.keep))
    if card.alert_check:
        lines.append("Alert check: 1d6 ≤ alert (17.1)")
        lines.append(f"• alert: {effect_words(sc, card.effect)}")
        lines.append(f"• fails: {effect_words(sc, card.fail)}")
    else:
        lines.append(f"Effect: {effect_words(sc, card.effect)}")
    win = [f"+{n} {what}" for n, what in ((card.win_ops, "Op"), (card.win_rp, "RP")) if n]
    lose = [f"−{n} {what}" for n, what in ((card.lose_ops, "Op"), (card.lose_rp, "RP")) if n]
    if win or lose:
        lines.append(f"Battle won: {', '.join(win) or '-'} · lost: {', '.join(lose) or '-'} (16.0)")
    if card.supply_ops:
        lines.append(f"Supplies: expend one for +{card.supply_ops} Op (24.0 (3))")
    return lines


def mission_card_lines(sc: Scenario, card: MissionCard) -> list[str]:
    """The whole Mission card (8.0): situation, objective, execution, logistics, command, success."""
    lines = [f"📜 {card.id} {card.title}", f"Situation: alert {card.alert} (8.0 (1))"]
    for camp in card.camps:
        lines.append(f"• {camp.name} at {sc.space_by_id[camp.space].name}: {hostiles_words(camp.hostiles)}")
    lines.append(f"Goal: {card.objective.text} (8.0 (2))")
    lines.append(f"{card.ops} Ops · {card.rp} RP · command {card.command} (8.0)")
    lines.append(f"Success: {card.success.text} (8.0 (6))")
    return lines


def card_lines(sc: Scenario, card_id: str) -> list[str]:
    """Any card by id (case-insensitive); the caller checks the id exists."""
    key = sc.card_id(card_id) or card_id
    if key in sc.card:
        return ops_card_lines(sc, sc.card[key])
    return mission_card_lines(sc, sc.mission[key])


@order(A.CardInfo, offers=offers.card_info)
def card_info(ctx: Ctx, a: A.CardInfo) -> None:
    """5.0: any card's whole text (read-only)."""
    sc = ctx.sc
    if sc.card_id(a.id) is None:
        cards = scenariofile.one_of([*sc.card, *sc.mission], limit=20)
        raise RuleError(f"There is no card '{a.id[:10]}'; cards: {cards}.")
    for text in card_lines(sc, a.id):
        ctx.say("card", text, "5.0")
