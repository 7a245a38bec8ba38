"""The Ops card decks (11.3, 13.0, 13.1, 22.0) and alert (17.0).

The draw deck is a list of slots, top first: ``None`` is a face-down card nobody has seen, a
card id is one whose place is known (a guide put it on the bottom, 22.0), and ``"*"`` is a
slot of a deck that was reshuffled with known cards in it (13.1 returned discards, 11.3 a
rebuilt reserve): the cards known to be among the ``"*"`` slots are ``Mission.shuffled``.

A ``None`` slot is resolved when drawn, by a recorded pick among the *unseen* cards (neither
discarded, kept, in play, known in the deck nor shuffled into it): the draw deck and the
reserve deck were dealt at random from the same cards, so this draws with the same odds as a
shuffled deck and stores no secret order.  A ``"*"`` slot picks among the shuffled cards and
the blind ones mixed with them.  A card discarded face down (11.3 loss of Op) is never picked:
it is counted, so no die in the log gives it away.
"""

from __future__ import annotations

from rules.raiders.forces import Ctx, counter_to_recruit, is_leader, members, new_force, place, space_of, stack_count
from rules.raiders.scenario import Effect, OpsCard
from rules.raiders.state import Mission

#: A slot of a reshuffled deck (see the module docstring).
MIXED = "*"
#: Stands for a card nobody has seen in a pick among shuffled cards.
BLIND = "?"
#: What a kept card's "gain RP" event gives (our stand-in: the card text is ours).
KEEP_RP = 2
#: 13.1 kept cards' special events, in words (18.0, 22.0, 24.0, 11.3, 17.0).
KEEP_WORDS = {
    "air_move": "air move, airfield to airfield (18.1)",
    "water_move": "water move, port to port (18.2)",
    "forced_march": "forced march, +1 space (24.0)",
    "psyop": "PSYOP: swap a drawn card (22.0)",
    "gain_op": "+1 Op (11.3)",
    "gain_rp": f"+{KEEP_RP} RP (13.0)",
    "calm": "alert −1 (17.0)",
}


def ops_left(count: int) -> str:
    """``3 Ops left`` / ``1 Op left`` (11.0: the Ops deck counts the Operations still to play)."""
    return f"{count} Op{'s' if count != 1 else ''} left"


def mixed_blind(m: Mission) -> int:
    """How many cards nobody has seen are mixed among the ``"*"`` slots (and lost from them)."""
    return max(0, m.deck.count(MIXED) + m.mix_lost - len(m.shuffled))


def unseen(ctx: Ctx) -> list[str]:
    """Ops cards whose whereabouts nobody knows (blind deck slots, face-down discards, reserve)."""
    m = ctx.m
    known = set(m.discards) | set(m.hand) | set(m.shuffled)
    known |= {c for c in m.deck if c is not None and c != MIXED}
    if m.in_play is not None:
        known.add(m.in_play)
    return [c.id for c in ctx.sc.ops_cards if c.id not in known]


def reserve_size(ctx: Ctx) -> int:
    """How many cards the reserve deck holds (11.3)."""
    m = ctx.m
    return len(unseen(ctx)) - m.deck.count(None) - m.blind_discards - mixed_blind(m)


def take_top(ctx: Ctx, reason: str) -> str:
    """Draw the top card of the draw deck face up (the caller checks it is not empty)."""
    m = ctx.m
    slot = m.deck.pop(0)
    if slot is None:
        return ctx.dice.pick(unseen(ctx), reason)
    if slot != MIXED:
        return slot
    # 13.1/11.3: a reshuffled slot holds one of the shuffled cards or one of the blind ones.
    choice = ctx.dice.pick(m.shuffled + [BLIND] * mixed_blind_before(m), reason)
    if choice == BLIND:
        choice = ctx.dice.pick(unseen(ctx), reason)
    else:
        m.shuffled.remove(choice)
    settle_mix(m)
    return choice


def mixed_blind_before(m: Mission) -> int:
    """Blind members of the mix while one ``"*"`` slot is being drawn (already popped)."""
    return max(0, m.deck.count(MIXED) + 1 + m.mix_lost - len(m.shuffled))


def settle_mix(m: Mission) -> None:
    """Once no ``"*"`` slot is left, the mix's remaining cards are exactly those lost from it."""
    if MIXED in m.deck:
        return
    m.blind_discards += mixed_blind(m)
    m.discards += m.shuffled
    m.shuffled, m.mix_lost = [], 0


def discard_top_face_down(ctx: Ctx) -> None:
    """11.3 Loss of Op: the top card goes to the discards face down; nobody learns which."""
    m = ctx.m
    slot = m.deck.pop(0)
    if slot is None:
        m.blind_discards += 1
    elif slot == MIXED:
        m.mix_lost += 1
        settle_mix(m)
    else:
        m.discards.append(slot)


def alert_change(ctx: Ctx, delta: int, why: str) -> None:
    """17.0: move the alert level, never below 1 nor above 5."""
    m = ctx.m
    new = max(1, min(5, m.alert + delta))
    if new != m.alert:
        ctx.say("alert", f"Alert {m.alert} → {new}: {why} (17.0)", "17.0", alert=new)
    elif delta:
        # Said, so a card's "alert +1" that changes nothing is not taken for a missed step.
        bound = "above 5" if delta > 0 else "below 1"
        ctx.say("alert", f"Alert stays {m.alert}: {why}; it never goes {bound} (17.0)", "17.0", alert=new)
    m.alert = new


def rp_change(ctx: Ctx, delta: int, why: str) -> None:
    """13.0 (4): RP never above the RP Index maximum nor below zero; what the cap drops is said."""
    m = ctx.m
    new = max(0, min(ctx.sc.rp_max, m.rp + delta))
    if new != m.rp:
        ctx.say("rp", f"RP {m.rp} → {new}: {why} (13.0)", "13.0", rp=new)
    dropped = m.rp + delta - ctx.sc.rp_max
    if dropped > 0:
        ctx.say("rp", f"{dropped} RP lost: the RP Index stops at {ctx.sc.rp_max} (13.0 (4))", "13.0")
    m.rp = new


def gain_ops(ctx: Ctx, count: int, why: str) -> None:
    """11.3 Gain of Op: a reserve card to the bottom of the draw deck, face down.

    If the reserve deck is exhausted, the discards are shuffled to form a new one.
    """
    m = ctx.m
    for _ in range(count):
        if reserve_size(ctx) == 0 and (m.discards or m.blind_discards):
            rebuild_reserve(ctx)
        if reserve_size(ctx) == 0:
            ctx.say("deck", "No card left to gain an Op from (11.3)", "11.3")
            return
        m.deck.append(None)
        ctx.say("ops", f"+1 Op: {why} → {ops_left(len(m.deck))} (11.3)", "11.3", ops=len(m.deck))


def rebuild_reserve(ctx: Ctx) -> None:
    """11.3: the discards become the new reserve deck; the draw deck stays what it was.

    The reserve is empty, so the cards nobody has seen are exactly the draw deck's blind
    slots and the face-down discards: they are pinned to the deck as shuffled cards (the
    face-down discards as cards lost from it), and only the discards form the new reserve.
    """
    m = ctx.m
    count = len(m.discards) + m.blind_discards
    if None in m.deck or MIXED in m.deck:
        m.shuffled += unseen(ctx)
        m.mix_lost += m.blind_discards
        m.deck = [MIXED if slot is None else slot for slot in m.deck]
    # Otherwise every unseen card is a face-down discard: they all join the new reserve.
    m.blind_discards = 0
    m.discards = []
    ctx.say("deck", f"Reserve empty: {count} discards reshuffled (11.3)", "11.3")


def lose_ops(ctx: Ctx, count: int, why: str) -> None:
    """11.3 Loss of Op: the top card of the draw deck is discarded face down."""
    m = ctx.m
    for _ in range(count):
        if not m.deck:
            m.end_after_op = True
            ctx.say("ops", f"No Op left to lose ({why}): mission over (11.3)", "11.3")
            return
        discard_top_face_down(ctx)
        ctx.say("ops", f"−1 Op: {why} → {ops_left(len(m.deck))} (11.3)", "11.3", ops=len(m.deck))
        if not m.deck:
            m.end_after_op = True


def draw(ctx: Ctx) -> OpsCard:
    """13.0: pick the top Ops card; it is this operation's card."""
    m = ctx.m
    card_id = take_top(ctx, "Ops card draw (13.0)")
    m.in_play = card_id
    ctx.reveals = True
    card = ctx.sc.card[card_id]
    ctx.say("card", f"🃏 {card.id} {card.title} · {ops_left(len(m.deck))} (13.0)", "13.0", card=card.id)
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
        ctx.say("card", f"{card.id} kept (13.1); later, one of:", "13.1")
        for event in card.keep:
            ctx.say("card", f"• {KEEP_WORDS.get(event, event)}", "13.1")
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
        return_discards(ctx, card, effect.return_discards)
    return hostiles


def return_discards(ctx: Ctx, card: OpsCard, count: int) -> None:
    """13.1: discards picked face down and reshuffled into the deck: the next draws come from
    the deck's cards and these, never from the reserve."""
    m = ctx.m
    pile = m.discards + [BLIND] * m.blind_discards
    back = ctx.dice.shuffle(pile, f"{card.id} discards back (13.1)")[:count] if pile else []
    for cid in back:
        if cid == BLIND:
            m.blind_discards -= 1
        else:
            m.discards.remove(cid)
            m.shuffled.append(cid)
    m.shuffled += [slot for slot in m.deck if slot is not None and slot != MIXED]
    # Every slot becomes a reshuffled one; the blind ones stay blind members of the mix.
    m.deck = [MIXED] * (len(m.deck) + len(back))
    ctx.say("deck", f"{len(back)} discards shuffled back: {ops_left(len(m.deck))} (13.1)", "13.1")


def reinforce(ctx: Ctx, unit_type: str) -> None:
    """13.0 (1), 9.2: a free unit of ``unit_type`` is placed with the operating force, if one
    is left; one that would break stacking waits for the player's Staging Area (9.0)."""
    m, sc = ctx.m, ctx.sc
    spec = sc.unit_type[unit_type]
    operating = m.force if m.force is not None and members(m, m.force) else None
    u = counter_to_recruit(sc, m, unit_type) if operating is not None else None
    if u is None or operating is None:
        ctx.say("reinforce", f"No {spec.name} left to join: no effect (9.2)", "9.2")
        return
    here = space_of(m, operating)
    if not (sc.space_by_id[here].staging or is_leader(sc, u) or stack_count(sc, m, here) < m.command):
        # 10.2 would be broken: 9.0 places recruits "in any Staging Area", the player's choice.
        m.pending_place = u.id
        ctx.say("reinforce", f"{u.id} free, but {m.force} is at the command limit {m.command} (10.2)", "9.2")
        ctx.say("reinforce", f"Place it: /raiders place unit:{u.id} at:<Staging Area> (9.0)", "9.0")
        return
    if spec.movement == 0:
        # 4.0: a static unit never moves; it stands beside the force instead of freezing it.
        place(m, u, here, new_force(m))
        ctx.say("reinforce", f"{u.id} free at {sc.space_by_id[here].name}: static, own force {u.force} (9.2)", "9.2")
        return
    place(m, u, here, m.force)
    ctx.say("reinforce", f"{u.id} joins {m.force} free (9.2)", "9.2")


def discard_in_play(m: Mission) -> None:
    """13.1: the played card goes to the discard pile at the end of the operation."""
    if m.in_play is not None:
        m.discards.append(m.in_play)
        m.in_play = None


def held_card(ctx: Ctx, event: str) -> str | None:
    """A kept card (13.1) offering ``event``, if the player holds one."""
    for cid in ctx.m.hand:
        if event in ctx.sc.card[cid].keep:
            return cid
    return None
