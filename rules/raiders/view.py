"""What the player sees: the network snapshot, ``/game status`` lines and the turn label.

Face-down markers show as ``?``; the draw deck shows only its size; the hostiles bin is never
listed (the rules keep them hidden until picked).
"""

from __future__ import annotations

from rules.core.views import (
    BattleLine,
    BattlePanel,
    BattleShot,
    ForceView,
    Header,
    Mark,
    NetworkView,
    RouteView,
    Seen,
    SideStyle,
    SpaceView,
    TerrainStyle,
    Track,
    UnitChip,
)
from rules.raiders.battle import alive, needs_player, next_firer
from rules.raiders.forces import Ctx, combat, force_ids, label, members
from rules.raiders.objectives import objective_met, progress
from rules.raiders.state import Battle, Marker, Mission, Shot, Unit

SIDES = [
    SideStyle(key="raider", label="Raiders", letter="R", colour="#2f5f99"),
    SideStyle(key="hostile", label="Hostiles", letter="H", colour="#a8432e"),
]


def turn_label(ctx: Ctx, rounds: bool = False) -> str:
    """A short label of where the game stands (battle rounds only on the map's header).

    The service pings the player when this label changes, so it changes once per segment,
    not once per battle round.
    """
    state = ctx.state
    if state.phase == "over":
        return outcome_word(ctx)
    if state.phase == "between" or state.mission is None:
        return "Between missions"
    m = ctx.m
    if state.phase == "recruit":
        return f"{m.card} · Recruiting"
    if m.battle is not None:
        # The round whose dice the panel shows (the header and the panel agree).
        shown = m.battle.shots_round if m.battle.shots else m.battle.round
        return f"{m.card} · Op {m.op} · battle" + (f" round {shown}" if rounds else "")
    words = {"recruit": "recruit & move", "card": "Ops card", "battle": "battle", "objective": "objective"}
    return f"{m.card} · Op {m.op} · {words[m.segment]}"


def unit_detail(ctx: Ctx, uid: str) -> str:
    """``c3 m2 elite · Sup-1 Exp-2 · carries Obj-1``."""
    m, sc = ctx.m, ctx.sc
    u = next(x for x in m.units if x.id == uid)
    spec = sc.unit_type[u.type]
    bits = [f"c{combat(sc, u, m)} m{spec.movement}"]
    tags = [t for t, on in (("elite", spec.elite), ("pioneer", spec.pioneer), ("guide", spec.guide),
                            ("scout", spec.scout), ("leader", spec.leader)) if on]
    out = " ".join(bits + tags)
    if u.gear:
        out += " · " + " ".join(u.gear)
    if u.carrying:
        out += f" · carries {u.carrying}"
    return out


def shot_result(shot: Shot) -> str:
    """``hit Ita-1`` or ``miss``; with maximum firepower both dice, e.g. ``2,5: hit Ita-1``."""
    outcome = ("hit " + ",".join(shot.hits)) if shot.hits else "miss"
    if len(shot.dice) > 1:
        return f"{','.join(str(d) for d in shot.dice)}: {outcome}"
    return outcome


def battle_panel(ctx: Ctx, b: Battle) -> BattlePanel:
    """The battle in progress or just fought: lines, dice, Tactical Edge."""
    sc = ctx.sc
    return BattlePanel(
        space=b.space,
        round=b.shots_round,  # the round whose dice are shown (the last one fought)
        tactical_edge=b.edge,
        lines=[
            BattleLine(label="Raiders", faction="raider", units=[
                UnitChip(id=r, label=r, faction="raider", detail=unit_detail(ctx, r),
                         eliminated=r in b.dead)
                for r in b.raider_line]),
            BattleLine(label="Hostiles", faction="hostile", units=[
                UnitChip(id=h, label=h, faction="hostile",
                         detail=f"c{sc.hostile[h].combat}{' elite' if sc.hostile[h].elite else ''}",
                         eliminated=h in b.dead)
                for h in b.hostile_line]),
        ],
        shots=[
            BattleShot(unit=s.unit, target=s.target, die=s.dice[0] if s.dice else None,
                       result=shot_result(s))
            for s in b.shots
        ],
        earlier=[f"Round {r.round}: " + "; ".join(f"{s.unit} {'/'.join(map(str, s.dice))} {shot_result(s)}"
                                                  if len(s.dice) == 1 else f"{s.unit} {shot_result(s)}"
                                                  for s in r.shots)
                 for r in b.earlier],
    )


def forces_and_battle(ctx: Ctx) -> tuple[list[ForceView], BattlePanel | None]:
    """The forces on the map (the raiders' standing forces, the camps, the hostiles of a
    battle being fought) and the battle panel shown, of a mission in play."""
    sc, m = ctx.sc, ctx.state.mission
    assert m is not None
    forces: list[ForceView] = []
    panel = None
    for fid in force_ids(m):
        units = standing(m, fid)
        if not units:
            continue
        forces.append(ForceView(
            id=fid, space=units[0].space or "", faction="raider",
            units=[UnitChip(id=u.id, label=u.id, faction="raider", detail=unit_detail(ctx, u.id))
                   for u in units],
        ))
    names = {camp.space: camp.name for camp in sc.mission[m.card].camps}
    for space, hostiles in m.camps.items():  # 8.0 (1): on the map until eliminated
        if m.battle is not None and m.battle.space == space:
            continue  # drawn with the battle's hostiles below
        forces.append(ForceView(
            id=names.get(space, "Camp"), space=space, faction="hostile",
            units=[UnitChip(id=h, label=h, faction="hostile", detail=f"c{sc.hostile[h].combat}")
                   for h in hostiles],
        ))
    # The battle just fought shows until the Op moves on (its last dice and result),
    # not on every later picture.
    last = m.last_battle
    shown_battle = m.battle or (last if last and (m.segment == "objective" or last.ended_now) else None)
    if shown_battle is not None:
        panel = battle_panel(ctx, shown_battle)
        if m.battle is not None:
            forces.append(ForceView(
                id="hostiles", space=m.battle.space, faction="hostile",
                units=[c for c in panel.lines[1].units if not c.eliminated],
            ))
    return forces, panel


def seen_of(ctx: Ctx) -> Seen:
    """What "what changed" keeps of the picture (``views.seen`` of :func:`network_view`),
    from the forces and the battle alone, not the whole map (issue 23)."""
    if ctx.state.mission is None:
        return Seen(units={}, ap={}, fired=frozenset())
    forces, panel = forces_and_battle(ctx)
    units: dict[str, tuple[object, frozenset[str], bool]] = \
        {u.id: (f.space, frozenset(), u.eliminated) for f in forces for u in f.units}
    return Seen(units=units, ap={}, fired=frozenset(shot.unit for shot in panel.shots) if panel else frozenset())


def network_view(ctx: Ctx) -> NetworkView:
    """The map, forces, tracks and battle panel."""
    sc, state = ctx.sc, ctx.state
    m = state.mission
    markers = {mk.space: mk for mk in (m.markers if m else []) if mk.space is not None}
    spaces = []
    for s in sc.spaces:
        mk = markers.get(s.id)
        shown = None
        if mk is not None:
            shown = sc.marker_type[mk.type].name if mk.revealed and mk.type else "?"
        spaces.append(SpaceView(
            id=s.id, name=s.name, position=s.position,
            terrain=sc.terrain_by_key[s.terrain].palette or s.terrain, staging=s.staging,
            airfield=s.airfield, port=s.port, objective=shown,
            objective_done=bool(mk and mk.destroyed),
        ))
    routes = [RouteView(a=r.a, b=r.b, kind=r.kind) for r in sc.routes]
    forces: list[ForceView] = []
    tracks: list[Track] = []
    panel = None
    marks: list[Mark] = []
    facts: list[str] = []
    header = Header(title=sc.title, phase=turn_label(ctx))
    if m is not None:
        forces, panel = forces_and_battle(ctx)
        tracks = [
            Track(label="Alert", value=m.alert, minimum=1, maximum=5),
            Track(label="Ops left", value=len(m.deck), minimum=0),
            Track(label="RP", value=m.rp, minimum=0, maximum=sc.rp_max),
        ]
        if len(m.last_move) > 1:
            # No text: the force's own block at the arrow's end is headed with its id; the
            # arrow's label was placed wherever there was room and read as a second force.
            marks.append(Mark(kind="move", points=[sc.space_by_id[s].position for s in m.last_move],
                              side="raider"))
        # Raiders counts Ops (11.0), one set per mission: "M2 Op 3", not "Turn 3".
        header = Header(title=f"{sc.title} · {m.card} {sc.mission[m.card].title}", turn=m.op,
                        turn_word=f"{m.card} Op",
                        phase=turn_label(ctx, rounds=True), facts=[progress(ctx), f"Alert {m.alert}"])
        facts = [f"Kept cards: {', '.join(m.hand)}"] if m.hand else []
    over = banner(ctx)
    return NetworkView(
        header=header, width=sc.width, height=sc.height, spaces=spaces, routes=routes,
        forces=forces, tracks=tracks, battle=panel, marks=marks, sides=SIDES,
        legend=facts + [f"Campaign: {line}" for line in record_lines(ctx)], banner=over,
        terrain_styles=terrain_styles(ctx), away=away_units(ctx),
        focus=[] if over else focus_ids(ctx, forces),
    )


def focus_ids(ctx: Ctx, forces: list[ForceView]) -> list[str]:
    """The spaces the phone-width picture shows: where the raiders stand, and while
    recruiting the Staging Areas too (9.0: recruits are placed there), else the opening
    picture, with no raider on the map yet, showed the board's middle and hid them.  (With
    no move or battle the picture would fall back on the board's middle; the final picture
    keeps to its last action, as every system's does, and gets no focus.)"""
    spaces = [f.space for f in forces if f.faction == "raider" and f.space]
    m = ctx.state.mission
    if ctx.state.phase == "recruit" or (m is not None and m.pending_place is not None):
        spaces += [s.id for s in ctx.sc.spaces if s.staging and s.id not in spaces]
    return spaces


def away_units(ctx: Ctx) -> dict[str, str]:
    """Units off the map but not eliminated, with where they are (``ViewBase.away``):
    raiders in the Recruit Pool (25.0: "return all of your units to the Recruit Pool. You
    keep any leaders who survived") and hostiles back in the bin (14.0: "automatically
    removed from the map after the battle concludes, and placed back in the Hostiles Bin").
    Those eliminated in this mission (raiders) or in the last battle (hostiles) are not."""
    m, camp = ctx.state.mission, ctx.state.campaign
    if m is None:
        return {}
    out = {u.id: "kept leader" if u.id in camp.leaders else "in the pool"
           for u in m.units if u.space is None and not u.lost}
    fell = {h for b in (m.battle, m.last_battle) if b is not None for h in b.dead}
    shown = {h for hs in m.camps.values() for h in hs}
    if m.battle is not None:
        shown |= set(alive(m.battle, m.battle.hostile_line))
    out |= {h: "back in the bin" for h in ctx.sc.hostile if h not in fell | shown}
    return out


def terrain_styles(ctx: Ctx) -> list[TerrainStyle]:
    """The Terrain Effects Chart's names in the legend, STOP marked (12.0).  Terrains drawn in
    one colour share a legend line; ``STOP`` ends a line only when every name on it stops a
    move, else each stopping name says it (a wadi must not read as STOP, issue 25 point 13)."""
    groups: dict[str, list[tuple[str, bool]]] = {}
    for t in ctx.sc.terrain_by_key.values():
        groups.setdefault(t.palette or t.key, []).append((t.name, t.stop))
    out = []
    for key, names in groups.items():
        if all(stop for _, stop in names):
            label = f"{', '.join(name for name, _ in names)} STOP"
        else:
            label = ", ".join(f"{name} (STOP)" if stop else name for name, stop in names)
        out.append(TerrainStyle(key=key, label=label))
    return out


def banner(ctx: Ctx) -> str | None:
    """The result on the picture after a mission or the campaign ends."""
    state = ctx.state
    if state.phase == "over":
        return outcome_word(ctx)
    if (state.phase == "between" or state.mission is None) and state.campaign.record:
        last = state.campaign.record[-1]
        return f"{last.mission} {'won' if last.won else 'lost'}"
    return None


def outcome_word(ctx: Ctx) -> str:
    """How the game ended: ``Campaign won`` (25.3), or ``M3 won`` when only one mission was
    played (6.0: a single-mission game has no campaign)."""
    camp = ctx.state.campaign
    if camp.single and camp.record:
        return f"{camp.record[-1].mission} {camp.outcome}"
    return f"Campaign {camp.outcome}"


def record_lines(ctx: Ctx) -> list[str]:
    """The campaign record as one line, none in a single-mission game (no 25.0 there)."""
    return [] if ctx.state.campaign.single else [record_line(ctx)]


def record_line(ctx: Ctx) -> str:
    """``won M1 · lost M4 · 3 to win``."""
    camp = ctx.state.campaign
    won = [r.mission for r in camp.record if r.won]
    lost = [r.mission for r in camp.record if not r.won]
    tail = f"campaign {camp.outcome} (25.3)" if camp.outcome else f"{len(camp.deck)} to go"
    return f"Won {' '.join(won) or '-'} · lost {' '.join(lost) or '-'} · {tail}"


def standing(m: Mission, fid: str) -> list[Unit]:
    """A force's units still standing: a raider eliminated in the battle under way leaves
    the map at once (15.1 (3): "eliminate it"), though the battle ends later (16.0)."""
    dead = set(m.battle.dead) if m.battle is not None else set()
    return [u for u in members(m, fid) if u.id not in dead]


def camp_left(m: Mission, space: str) -> list[str]:
    """A camp's hostiles not yet eliminated (8.0 (1)), the battle under way counted."""
    dead = set(m.battle.dead) if m.battle is not None and m.battle.space == space else set()
    return [h for h in m.camps.get(space, []) if h not in dead]


def id_lines(ids: list[str], head: str = "  ") -> list[str]:
    """Ids four a line (a phone's width), the first line after ``head``."""
    return [(head if i == 0 else "  ") + " ".join(ids[i:i + 4]) for i in range(0, len(ids), 4)]


def battle_lines(ctx: Ctx, b: Battle) -> list[str]:
    """The battle under way: where, the round, both lines (survivors) and who fires next."""
    where = ctx.sc.space_by_id[b.space].name
    lines = [f"Battle at {where} · round {b.round}"]  # 15.1
    lines += id_lines(alive(b, b.raider_line), "Raiders: ")
    lines += id_lines(alive(b, b.hostile_line), "Hostiles: ")
    if b.lined:
        lines.append(f"Fires next: {firer(b) or '-'}")
    return lines


def firer(b: Battle) -> str | None:
    """The unit whose die is next (15.1 (3): alternate fire; 24.0 (2): a second die)."""
    return b.second_die or next_firer(b, b.turn) or next_firer(b, "hostile" if b.turn == "raider" else "raider")


def status_lines(ctx: Ctx, orders: list[str] | None = None) -> list[str]:
    """``/game status``: short lines, the key fact first; ``orders``: the names of the orders
    legal now (the "Now:" line lists only those)."""
    state = ctx.state
    if state.phase == "over" or state.phase == "between" or state.mission is None:
        return campaign_status_lines(ctx)
    m = ctx.m
    lines = mission_head_lines(ctx)
    if m.battle is not None:
        lines += battle_lines(ctx, m.battle)
    lines += force_lines(ctx) + marker_lines(ctx) + camp_lines(ctx)
    if m.hand:
        lines.append(f"Kept: {', '.join(m.hand)}")
    lines += record_lines(ctx)
    lines += now_lines(now_line(ctx, orders or []))
    return lines


def campaign_status_lines(ctx: Ctx) -> list[str]:
    """The status when no mission is under way: the game over (6.0, 25.3) or between missions."""
    camp = ctx.state.campaign
    if ctx.state.phase == "over" and camp.single:
        return [f"{outcome_word(ctx)} (6.0)", f"RP left: {camp.rp}"]
    leaders = f"Leaders: {', '.join(camp.leaders) or 'none'}"
    if ctx.state.phase == "over":
        return [f"Campaign {camp.outcome}", record_line(ctx), f"RP kept: {camp.rp}", leaders]
    return ["Between missions", record_line(ctx), f"RP kept: {camp.rp}", leaders,
            "Now: /raiders next-mission"]


def mission_head_lines(ctx: Ctx) -> list[str]:
    """The Mission card, its goal and progress, and the mission's indexes and segment."""
    m = ctx.m
    card = ctx.sc.mission[m.card]
    return [f"{card.id} {card.title}",
            f"Goal: {card.objective.text}",
            f"{progress(ctx)}{' ✓' if objective_met(ctx) else ''}",
            f"Ops left {len(m.deck)} · Alert {m.alert} · RP {m.rp}",
            f"Command {m.command} · {turn_label(ctx)}"]


def force_lines(ctx: Ctx) -> list[str]:
    """Each force with units standing: its label, then its unit ids."""
    lines: list[str] = []
    for fid in force_ids(ctx.m):
        ids = [u.id for u in standing(ctx.m, fid)]
        if ids:
            lines.append(label(ctx.sc, ctx.m, fid, len(ids)))
            lines += id_lines(ids)
    return lines


def marker_lines(ctx: Ctx) -> list[str]:
    """Each objective marker: who carries it, delivered (18.4), or where it lies and what it is."""
    lines: list[str] = []
    for mk in ctx.m.markers:
        line = marker_line(ctx, mk)
        if line is not None:
            lines.append(line)
    return lines


def marker_line(ctx: Ctx, mk: Marker) -> str | None:
    """One marker's line, or None for a marker neither carried, delivered nor on the map."""
    sc, m = ctx.sc, ctx.m
    carrier = next((u.id for u in m.units if u.carrying == mk.id), None)
    if carrier is not None:
        return f"{mk.id}: carried by {carrier}"
    if mk.delivered:
        return f"{mk.id}: delivered"  # off the map (18.4)
    if mk.space is None:
        return None
    what = sc.marker_type[mk.type].name if mk.revealed and mk.type else "face down"
    state_word = "destroyed" if mk.destroyed else what
    return f"{mk.id} {sc.space_by_id[mk.space].name}: {state_word}"


def camp_lines(ctx: Ctx) -> list[str]:
    """Each camp (8.0 (1)): where, how many hostiles are left, and their ids."""
    lines: list[str] = []
    for space in ctx.m.camps:
        hostiles = camp_left(ctx.m, space)
        lines.append(f"Camp at {ctx.sc.space_by_id[space].name}: {len(hostiles)} "
                     f"hostile{'s' if len(hostiles) != 1 else ''}")
        lines += id_lines(hostiles)
    return lines


def now_lines(text: str) -> list[str]:
    """``Now: ...`` wrapped at a phone's 40 columns (between words), later lines indented."""
    out = ["Now:"]
    for word in text.split(" "):
        if len(out[-1]) + 1 + len(word) > 40:
            out.append(" ")
        out[-1] += " " + word
    return out


def or_list(names: list[str]) -> str:
    """``demolish, carry or end-op``."""
    return " or ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)


def now_line(ctx: Ctx, orders: list[str]) -> str:
    """What the player can do now, in a few words; at the start of an Op and in the
    Objective segment, the orders legal now (``orders``)."""
    state, m = ctx.state, ctx.m
    if m.pending_place is not None:
        return f"place {m.pending_place} (9.2)"
    if state.phase == "recruit":
        return "recruit, gear, then begin"
    if m.segment == "card":  # swap only with a guide or PSYOP card (22.0)
        return f"{or_list(orders or ['accept'])} {m.in_play}"
    if m.battle is not None:
        if not m.battle.lined:
            return "line up the raiders (line)"
        return f"{firer(m.battle)} fires: pick a target (fire)" if needs_player(ctx) else "battle runs on"
    return or_list(orders) if orders else "nothing"
