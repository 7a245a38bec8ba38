"""The Ops card decks (11.3, 13.0, 22.0) and alert (17.0).

The draw deck is a list of slots, top first: ``None`` is a face-down card nobody has seen, a
card id is one whose place is known (a guide put it on the bottom, 22.0).  A ``None`` slot is
resolved when drawn, by a recorded pick among the *unseen* cards (neither discarded, kept, in
play nor known in the deck): the draw deck and the reserve deck were dealt at random from the
same cards, so this draws with the same odds as a shuffled deck and stores no secret order.
"""

from __future__ import annotations

from rules.raiders.forces import Ctx, members, place, space_of, stack_count
from rules.raiders.scenario import Effect, OpsCard
from rules.raiders.state import Mission


def unseen(ctx: Ctx) -> list[str]:
    """Ops cards whose whereabouts nobody knows (in the draw deck's blind slots or reserve)."""
    m = ctx.m
    known = set(m.discards) | set(m.hand) | {c for c in m.deck if c is not None}
    if m.in_play is not None:
        known.add(m.in_play)
    return [c.id for c in ctx.sc.ops_cards if c.id not in known]


def reserve_size(ctx: Ctx) -> int:
    """How many cards the reserve deck holds (11.3)."""
    return len(unseen(ctx)) - sum(1 for c in ctx.m.deck if c is None)


def take_top(ctx: Ctx, reason: str) -> str:
    """Take the top card of the draw deck (the caller checks it is not empty)."""
    slot = ctx.m.deck.pop(0)
    if slot is not None:
        return slot
    pool = unseen(ctx)
    # The slot just popped is no longer blind, so the pool is one card larger than the
    # remaining blind slots plus the reserve: pick among all unseen cards.
    return ctx.dice.pick(pool, reason)


def alert_change(ctx: Ctx, delta: int, why: str) -> None:
    """17.0: move the alert level, never below 1 nor above 5."""
    m = ctx.m
    new = max(1, min(5, m.alert + delta))
    if new != m.alert:
        ctx.say("alert", f"Alert {m.alert} → {new}: {why} (17.0)", "17.0", alert=new)
    m.alert = new


def rp_change(ctx: Ctx, delta: int, why: str) -> None:
    """13.0 (4): RP never above the RP Index maximum nor below zero."""
    m = ctx.m
    new = max(0, min(ctx.sc.rp_max, m.rp + delta))
    if new != m.rp:
        ctx.say("rp", f"RP {m.rp} → {new}: {why} (13.0)", "13.0", rp=new)
    m.rp = new


def gain_ops(ctx: Ctx, count: int, why: str) -> None:
    """11.3 Gain of Op: a reserve card to the bottom of the draw deck, face down.

    If the reserve deck is exhausted, the discards are shuffled to form a new one.
    """
    m = ctx.m
    for _ in range(count):
        if reserve_size(ctx) == 0 and m.discards:
            ctx.say("deck", f"Reserve empty: {len(m.discards)} discards reshuffled (11.3)", "11.3")
            m.discards = []
        if reserve_size(ctx) == 0:
            ctx.say("deck", "No card left to gain an Op from (11.3)", "11.3")
            return
        m.deck.append(None)
        ctx.say("ops", f"+1 Op: {why} → {len(m.deck)} Ops left (11.3)", "11.3", ops=len(m.deck))


def lose_ops(ctx: Ctx, count: int, why: str) -> None:
    """11.3 Loss of Op: the top card of the draw deck is discarded face down."""
    m = ctx.m
    for _ in range(count):
        if not m.deck:
            m.end_after_op = True
            ctx.say("ops", f"No Op left to lose ({why}): mission over (11.3)", "11.3")
            return
        m.discards.append(take_top(ctx, "lost Op, card discarded face down (11.3)"))
        ctx.say("ops", f"−1 Op: {why} → {len(m.deck)} Ops left (11.3)", "11.3", ops=len(m.deck))
        if not m.deck:
            m.end_after_op = True


def draw(ctx: Ctx) -> OpsCard:
    """13.0: pick the top Ops card; it is this operation's card."""
    m = ctx.m
    card_id = take_top(ctx, "Ops card draw (13.0)")
    m.in_play = card_id
    ctx.reveals = True
    card = ctx.sc.card[card_id]
    ctx.say("card", f"🃏 {card.id} {card.title} · {len(m.deck)} Ops left (13.0)", "13.0", card=card.id)
    return card


def swap(ctx: Ctx, used: str) -> OpsCard:
    """22.0: the drawn card goes to the bottom of the deck and a substitute is drawn."""
    m = ctx.m
    assert m.in_play is not None
    old = m.in_play
    m.in_play = None
    m.deck.append(old)
    m.swapped = True
    ctx.say("card", f"{used}: {old} to the bottom (22.0)", "22.0", card=old)
    return draw(ctx)


def resolve(ctx: Ctx, card: OpsCard) -> int | str | None:
    """Play a drawn card (13.0); return how many hostiles it sends into the force's space.

    A "Keep this card" card goes to the hand and does nothing now (13.1).
    """
    m = ctx.m
    if card.keep:
        m.hand.append(card.id)
        m.in_play = None
        ctx.say("card", f"{card.id} kept (13.1): {', '.join(card.keep)}", "13.1")
        return None
    effect = card.effect
    if card.alert_check:
        roll = ctx.dice.die(6, f"{card.id} alert check vs alert {m.alert} (17.1)")
        hit = roll <= m.alert
        ctx.say(
            "alert_check",
            f"🎲 {roll} vs alert {m.alert} → {'alert!' if hit else 'fails'} (17.1)",
            "17.1",
            die=roll,
            success=hit,
        )
        effect = card.effect if hit else card.fail
    return apply_effect(ctx, card, effect)


def apply_effect(ctx: Ctx, card: OpsCard, effect: Effect) -> int | str | None:
    """Carry out one effect line of a card; return its hostiles count (or None)."""
    m = ctx.m
    # 17.1: "hostiles equal to the Alert level" is the level as the card is read, before any
    # alert change the same card makes.
    hostiles = m.alert if effect.hostiles == "alert" else effect.hostiles
    if effect.text:
        ctx.say("card", f"{card.id}: {effect.text}", "13.0")
    if effect.alert:
        alert_change(ctx, effect.alert, card.title)
    if effect.rp:
        rp_change(ctx, effect.rp, card.title)
    if effect.ops > 0:
        gain_ops(ctx, effect.ops, card.title)
    elif effect.ops < 0:
        lose_ops(ctx, -effect.ops, card.title)
    if effect.reinforcement is not None:
        reinforce(ctx, effect.reinforcement)
    if effect.return_discards:
        back = ctx.dice.shuffle(m.discards, f"{card.id} discards back (13.1)")
        back = back[: effect.return_discards]
        for cid in back:
            m.discards.remove(cid)
        # 13.1: they are reshuffled into the deck, so no place in it stays known.
        m.deck = [None] * (len(m.deck) + len(back))
        ctx.say("deck", f"{len(back)} discards shuffled back: {len(m.deck)} Ops left (13.1)", "13.1")
    return hostiles


def reinforce(ctx: Ctx, unit_type: str) -> None:
    """13.0 (1), 9.2: a free unit of ``unit_type`` joins the operating force, if one is left."""
    m = ctx.m
    spec = ctx.sc.unit_type[unit_type]
    free = [u for u in m.units if u.type == unit_type and u.space is None and not u.eliminated]
    if not free or m.force is None or not members(m, m.force):
        ctx.say("reinforce", f"No {spec.name} left to join: no effect (9.2)", "9.2")
        return
    u = free[0]
    sc = ctx.sc
    here = space_of(m, m.force)
    if sc.space_by_id[here].staging or stack_count(sc, m, here) < m.command:
        place(m, u, here, m.force)
        ctx.say("reinforce", f"{u.id} joins {m.force} free (9.2)", "9.2")
        return
    # 10.2 would be broken: the recruit arrives in a Staging Area instead (our reading of 9.0).
    base = next(s.id for s in sc.spaces if s.staging)
    place(m, u, base)
    ctx.say("reinforce", f"{u.id} free at {sc.space_by_id[base].name} (9.2, 10.2)", "9.2")


def discard_in_play(m: Mission) -> None:
    """13.1: the played card goes to the discard pile at the end of the operation."""
    if m.in_play is not None:
        m.discards.append(m.in_play)
        m.in_play = None
