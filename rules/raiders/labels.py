"""Autocomplete labels: what a player needs to choose each value (the kit's ``label`` hook).

The values themselves come from the offers (:mod:`rules.raiders.offers`); a label only says
what a value means: a unit's combat and movement and where it is, a space's name, a recruit's
cost, a kept card's events in words, a hostile's combat value.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.raiders.cards import KEEP_WORDS
from rules.raiders.forces import Ctx, force_ids, label as force_label
from rules.raiders.hints import destinations, special_ways

Labeller = Callable[[Ctx, str, dict[str, Any]], str]


def unit_label(ctx: Ctx, uid: str, partial: dict[str, Any]) -> str:
    """``SAS-1 SAS (c4 m2, Siwa)``."""
    sc = ctx.sc
    u = next((x for x in ctx.m.units if x.id == uid), None)
    if u is None:
        return uid
    spec = sc.unit_type[u.type]
    where = sc.space_by_id[u.space].name if u.space else "box"
    return f"{uid} {spec.name} (c{spec.combat} m{spec.movement}, {where})"


def space_label(ctx: Ctx, sid: str, partial: dict[str, Any]) -> str:
    """``Siwa (siwa)``."""
    space = ctx.sc.space_by_id.get(sid)
    return f"{space.name} ({sid})" if space else sid


def move_to_label(ctx: Ctx, sid: str, partial: dict[str, Any]) -> str:
    """``Benghazi (benghazi)``, or ``Benghazi (benghazi) · how:water`` where no road move of
    the force reaches it and only a kept card's water (air) move does (18.1, 18.2): the player
    reads how the offer is legal before picking it."""
    base = space_label(ctx, sid, partial)
    if str(partial.get("how") or "road") != "road":
        return base  # the player chose the kind of move already
    forces = [str(partial["force"])] if partial.get("force") else ([ctx.m.force] if ctx.m.force else force_ids(ctx.m))
    if any(sid in destinations(ctx, f) for f in forces):
        return base
    ways = sorted({how for f in forces for how in special_ways(ctx, f, sid)})
    return f"{base} · how:{' or how:'.join(ways)}" if ways else base


def force_label_of(ctx: Ctx, fid: str, partial: dict[str, Any]) -> str:
    """``F1 (Tobruk, 3 units)``; a group of forces joined by ``+``."""
    return " + ".join(force_label(ctx.sc, ctx.m, f) for f in fid.split(","))


def recruit_label(ctx: Ctx, what: str, partial: dict[str, Any]) -> str:
    """``SAS: 4 RP, c4 m2`` or ``Ldr-1: kept leader, free``."""
    spec = ctx.sc.unit_type.get(what)
    if spec is None:
        return f"{what}: kept leader, free"
    return f"{spec.name}: {spec.cost} RP, c{spec.combat} m{spec.movement}"


def gear_item_label(ctx: Ctx, item: str, partial: dict[str, Any]) -> str:
    """``Explosives: 2 RP``."""
    spec = ctx.sc.gear_type[item]
    return f"{spec.name}: {spec.cost} RP"


def gear_label(ctx: Ctx, gid: str, partial: dict[str, Any]) -> str:
    """``Sup-1 Supplies (SAS-1)``."""
    g = next((x for x in ctx.m.gear if x.id == gid), None)
    return f"{gid} {ctx.sc.gear_type[g.type].name} ({g.holder})" if g else gid


def hostile_label(ctx: Ctx, hid: str, partial: dict[str, Any]) -> str:
    """``Ita-1 Italian infantry (combat 3)``."""
    spec = ctx.sc.hostile.get(hid)
    return f"{hid} {spec.name} (combat {spec.combat})" if spec else hid


def line_label(ctx: Ctx, order: str, partial: dict[str, Any]) -> str:
    """``SAS-1 › Cdo-2 › LRDG-1``: the line as it will fire."""
    return " › ".join(order.split())


def kept_label(ctx: Ctx, cid: str, partial: dict[str, Any]) -> str:
    """``C7 Supply drop: +2 RP (13.0) / +1 Op (11.3)``."""
    card = ctx.sc.card[cid]
    return f"{cid} {card.title}: " + " / ".join(KEEP_WORDS.get(e, e) for e in card.keep)


def event_label(ctx: Ctx, event: str, partial: dict[str, Any]) -> str:
    """``gain_op: +1 Op (11.3)``: a kept card's event in words."""
    return f"{event}: {KEEP_WORDS[event]}" if event in KEEP_WORDS else event


def card_label(ctx: Ctx, cid: str, partial: dict[str, Any]) -> str:
    """``C3 Alert sentries`` or ``M2 Mission: Fuel dumps``."""
    sc = ctx.sc
    if cid in sc.card:
        return f"{cid} {sc.card[cid].title}"
    return f"{cid} Mission: {sc.mission[cid].title}" if cid in sc.mission else cid


def marker_label(ctx: Ctx, mid: str, partial: dict[str, Any]) -> str:
    """``Obj-2 Fuel dump``."""
    mk = next((x for x in ctx.m.markers if x.id == mid), None)
    return f"{mid} {ctx.sc.marker_type[mk.type].name}" if mk and mk.type else mid


#: (order, option) -> how its values are labelled; others show the value itself.
LABELS: dict[tuple[str, str], Labeller] = {
    ("recruit", "unit"): recruit_label,
    ("recruit", "at"): space_label,
    ("place", "unit"): unit_label,
    ("place", "at"): space_label,
    ("gear", "item"): gear_item_label,
    ("gear", "unit"): unit_label,
    ("trade", "gear"): gear_label,
    ("trade", "to"): unit_label,
    ("abandon", "gear"): gear_label,
    ("split", "unit"): unit_label,
    ("join", "force"): force_label_of,
    ("join", "into"): force_label_of,
    ("scout", "force"): force_label_of,
    ("scout", "target"): space_label,
    ("move", "force"): force_label_of,
    ("move", "with_force"): force_label_of,
    ("move", "to"): move_to_label,
    ("line", "order"): line_label,
    ("line", "hostiles"): line_label,
    ("fire", "target"): hostile_label,
    ("demolish", "unit"): unit_label,
    ("demolish", "marker"): marker_label,
    ("carry", "unit"): unit_label,
    ("carry", "marker"): marker_label,
    ("drop", "unit"): unit_label,
    ("play", "card"): kept_label,
    ("play", "event"): event_label,
    ("card", "id"): card_label,
}
