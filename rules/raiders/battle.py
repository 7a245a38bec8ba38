"""Battle (15.0) and post battle (16.0, 20.2).

The bot runs the hostiles: it picks them from the bin, rolls their Tactical Edge die, lines
them up strongest first and fires them at the first raider in line.  The raider player
decides the raider line and each raider's target; when a raider has only one possible target
and nothing else to decide, the bot fires it too.

The line the player sets stands from round to round (15.1 (4) repeats the procedure; the
player lines up "in any order you prefer", and the order they preferred stays preferred until
they say otherwise); a `line` given after a round's first die takes effect from the next round.
Maximum firepower is declared for a round before any die of it (24.0 (2)): with Supplies in
the battle and the hostiles' Tactical Edge, the round waits for that choice.
"""

from __future__ import annotations

from typing import Literal

from rules.core.errors import RuleError
from rules.raiders.cards import gain_ops, lose_ops, rp_change
from rules.raiders.forces import Ctx, combat, gear, in_space, members, place, remove_unit, unit
from rules.raiders.state import Battle, RoundDice, Shot

Side = Literal["raider", "hostile"]


def pick_hostiles(ctx: Ctx, count: int | str, why: str) -> list[str]:
    """15.1 (1): how many hostiles (a die, the alert level or a number), picked from the bin."""
    m = ctx.m
    if count == "die":
        n = ctx.dice.die(6, f"number of hostiles, 1d6 (15.1): {why}")
        ctx.say("hostiles", f"🎲 {n}: {n} hostile{'s' if n != 1 else ''} (15.1)", "15.1", die=n)
    elif count == "alert":
        n = m.alert
        ctx.say("hostiles", f"Hostiles = alert {n} (17.1)", "17.1")
    else:
        n = int(count)
    in_use = set(m.battle.hostile_line) if m.battle else set()
    in_use |= {h for camp in m.camps.values() for h in camp}  # 8.0 (1): on the map
    bin_ = [h.id for h in ctx.sc.hostiles if h.id not in in_use]
    picked: list[str] = []
    for _ in range(min(n, len(bin_))):
        choice = ctx.dice.pick(bin_, f"hostile picked from the bin (14.0): {why}")
        bin_.remove(choice)
        picked.append(choice)
    if picked:
        ctx.reveals = True
    return picked


def start(ctx: Ctx, space: str, hostiles: list[str],
          source: Literal["card", "marker", "camp"]) -> None:
    """15.1 (2)-(3): Tactical Edge, then the lines; the raider line waits for the player."""
    m, sc = ctx.m, ctx.sc
    raiders = [u.id for u in in_space(m, space)]
    elite_r = sum(1 for r in raiders if sc.unit_type[unit(m, r).type].elite)
    elite_h = sum(1 for h in hostiles if sc.hostile[h].elite)
    die_r = ctx.dice.die(6, "raider Tactical Edge (15.1)", side="raider")
    die_h = ctx.dice.die(6, "hostile Tactical Edge (15.1)", side="hostile")
    total_r, total_h = die_r + elite_r, die_h + elite_h
    elite_txt_r = f" +{elite_r} elite" if elite_r else ""
    elite_txt_h = f" +{elite_h} elite" if elite_h else ""
    lines = [f"🎲 Edge: raiders {die_r}{elite_txt_r} = {total_r}", f"vs hostiles {die_h}{elite_txt_h} = {total_h}"]
    if total_r != total_h:
        edge: Side = "raider" if total_r > total_h else "hostile"
        lines.append(f"→ {edge}s fire first (15.1)")
    else:
        terrain = sc.terrain_by_key[sc.space_by_id[space].terrain]
        edge = terrain.edge_tie
        lines.append(f"→ tie, {terrain.name}: {edge}s first (15.1)")
    text = " ".join(lines)
    # 15.1 (3): strongest first; equal values keep the order they came out of the bin.
    line = sorted(hostiles, key=lambda h: -sc.hostile[h].combat)
    ctx.say("battle", f"⚔ Battle at {sc.space_by_id[space].name} (15.1)", "15.1")
    for part in chunks([f"{h} c{sc.hostile[h].combat}" for h in line], 3):
        ctx.say("battle", "H: " + ", ".join(part), "15.1")
    for row in lines:
        ctx.say("edge", row, "15.1", raider=die_r, hostile=die_h, edge=edge)
    m.battle = Battle(
        space=space,
        source=source,
        card=m.in_play if source == "card" else None,
        camp=[h for h in hostiles if h in m.camps.get(space, [])],
        edge=edge,
        edge_text=text,
        raider_line=raiders,
        hostile_line=line,
        turn=edge,
    )
    ctx.snapshot = True  # the battle's opening picture: the lines and the Edge (15.1)
    open_round(ctx)
    if m.battle.lined:
        advance(ctx)
    b = m.battle
    if b is not None and b.lined and b.outcome is None and needs_player(ctx) and b.second_die is None:
        ctx.say("prompt", "Your order: fire target: a hostile (15.1 (3))", "15.1")


def round_waits(ctx: Ctx) -> bool:
    """Whether a round waits for the player before its first die: the first round's line-up of
    two or more raiders (15.1 (3)), or, with Supplies in the battle and the hostiles' Tactical
    Edge, the maximum firepower choice, which comes before any die of the round (24.0 (2))."""
    b = ctx.m.battle
    assert b is not None
    if b.round == 1 and len(alive(b, b.raider_line)) > 1:
        return True
    return b.edge == "hostile" and firepower_open(ctx)


def open_round(ctx: Ctx) -> None:
    """Start a round: say whether it waits for the player (:func:`round_waits`) and what to
    do then; the caller runs the battle on when it does not."""
    b = ctx.m.battle
    assert b is not None
    b.lined = not round_waits(ctx)
    living = alive(b, b.raider_line)
    if b.lined:
        if b.round > 1 and len(living) > 1:
            ctx.say("round", f"Round {b.round}, same line (15.1 (4)):", "15.1")
            for part in chunks(living, 4):
                ctx.say("round", " › ".join(part), "15.1")
        return
    first_line = b.round == 1 and len(living) > 1
    if first_line:
        ctx.say("prompt", "Order 'line': raiders in any order (15.1 (3))", "15.1")
        for part in chunks(living, 4):
            ctx.say("prompt", "e.g. line order:" + ",".join(part), "15.1")
        ctx.say("prompt", "First in line fires first, is fired on", "15.1")
        ctx.say("prompt", "The line stands till you change it (15.1 (4))", "15.1")
    if b.edge == "hostile" and firepower_open(ctx):
        ctx.say("prompt", f"{supply_in_battle(ctx)} here: 'line firepower:yes' = 2 dice each (24.0 (2))", "24.0")
        ctx.say("prompt", f"Decide before the hostiles' first die of round {b.round}", "24.0")
        if not first_line:
            ctx.say("prompt", "'line' alone: fight on with the line as it stands", "15.1")


def chunks(items: list[str], size: int) -> list[list[str]]:
    """Split a long list into lines that fit a phone screen."""
    return [items[i : i + size] for i in range(0, len(items), size)]


def alive(b: Battle, line: list[str]) -> list[str]:
    """Units of a line not yet eliminated."""
    return [x for x in line if x not in b.dead]


def next_firer(b: Battle, side: Side) -> str | None:
    """15.1 (3): the next living unit in line that has not fired this round."""
    line = b.raider_line if side == "raider" else b.hostile_line
    start = b.raider_next if side == "raider" else b.hostile_next
    for x in line[start:]:
        if x not in b.dead:
            return x
    return None


def rolled_this_round(b: Battle) -> bool:
    """Whether any die of the current round has been rolled (either side's)."""
    return b.shots_round == b.round and bool(b.shots)


def firepower_open(ctx: Ctx) -> bool:
    """24.0 (2): maximum firepower "for one round" may still be declared: Supplies are in the
    battle and no die of this round has been rolled, by either side."""
    b = ctx.m.battle
    assert b is not None
    return not b.firepower and not rolled_this_round(b) and supply_in_battle(ctx) is not None


def supply_in_battle(ctx: Ctx) -> str | None:
    """A supply gear counter held by a raider in the battle."""
    m, b = ctx.m, ctx.m.battle
    assert b is not None
    for rid in alive(b, b.raider_line):
        for gid in unit(m, rid).gear:
            if ctx.sc.gear_type[gear(m, gid).type].effect == "supply":
                return gid
    return None


def needs_player(ctx: Ctx) -> bool:
    """Whether the battle waits on a raider decision (line-up, a target, firepower)."""
    b = ctx.m.battle
    if b is None or b.outcome is not None:
        return False
    if not b.lined or b.second_die is not None:
        return True
    return b.turn == "raider" and next_firer(b, "raider") is not None and (
        len(alive(b, b.hostile_line)) > 1 or firepower_open(ctx)
    )


def set_line(ctx: Ctx, order: list[str], hostiles: list[str] | None = None,
             firepower: bool = False) -> None:
    """15.1 (3): the player lines up the raiders (unnamed ones follow in their old order) and
    may order hostiles of equal combat value; the line stands every round until changed
    (15.1 (4)).  Before the round's first die it is this round's line, and maximum firepower
    may be declared with it (24.0 (2)); after it, the line stands from the next round."""
    b = ctx.m.battle
    assert b is not None
    if b.outcome is not None:
        raise RuleError("There is no battle to line up for now.")
    living = alive(b, b.raider_line)
    wanted = named_in(order, living, "raiders here")
    if b.lined and (rolled_this_round(b) or b.second_die is not None):
        if firepower:
            raise RuleError(f"Dice of round {b.round} are rolled: maximum firepower is declared "
                            "before a round's first die (24.0 (2)); give 'fire'.")
        if hostiles:
            raise RuleError("Equal hostiles are placed before a round's first die (15.1 (3)).")
        if not wanted:
            raise RuleError(f"Name the raiders in the order you want from round {b.round + 1}, "
                            f"e.g. line order:{' '.join(reversed(living))} (15.1 (4)).")
        b.next_line = wanted + [r for r in b.raider_line if r not in wanted]
        ctx.say("line", f"Raider line from round {b.round + 1} (15.1 (4)):", "15.1")
        for part in chunks(alive(b, b.next_line), 4):
            ctx.say("line", " › ".join(part), "15.1")
        return
    if b.lined and not wanted and not hostiles and not firepower:
        raise RuleError(f"The line stands ({' › '.join(living)}); give 'fire', or name a new "
                        "order (15.1 (3)).")
    if hostiles:
        b.hostile_line = hostile_order(ctx, named_in(hostiles, alive(b, b.hostile_line), "hostiles here"))
    if wanted or not b.lined:
        b.raider_line = wanted + [r for r in b.raider_line if r not in wanted]
        b.next_line = None
        ctx.say("line", f"Raider line, round {b.round} (15.1):", "15.1")
        for part in chunks(alive(b, b.raider_line), 4):
            ctx.say("line", " › ".join(part), "15.1")
    if hostiles:
        for part in chunks(alive(b, b.hostile_line), 4):
            ctx.say("line", "H: " + " › ".join(part), "15.1")
    b.lined = True
    if firepower:
        declare_firepower(ctx)
    advance(ctx)


def named_in(tokens: list[str], pool: list[str], what: str) -> list[str]:
    """The ids ``tokens`` name among ``pool`` (any case), each once, or a RuleError."""
    wanted: list[str] = []
    for token in tokens:
        match = [x for x in pool if x.lower() == token.lower()]
        if not match:
            raise RuleError(f"'{token[:20]}' is not in this battle; {what}: {', '.join(pool)}.")
        if match[0] in wanted:
            raise RuleError(f"{match[0]} is named twice; name each once.")
        wanted.append(match[0])
    return wanted


def hostile_order(ctx: Ctx, named: list[str]) -> list[str]:
    """15.1 (3): strongest first; the player places equal values "in any order you want"."""
    b, sc = ctx.m.battle, ctx.sc
    assert b is not None
    wanted = named + [h for h in b.hostile_line if h not in named]
    values = [sc.hostile[h].combat for h in wanted if h not in b.dead]
    if values != sorted(values, reverse=True):
        raise RuleError("Hostiles line up strongest first; only equal combat values may be "
                        "reordered (15.1 (3)).")
    return wanted


def raider_fire(ctx: Ctx, target: str | None, firepower: bool) -> None:
    """The next raider in line fires at ``target`` (15.1 (3)); with maximum firepower each of
    its two dice goes at the hostile the player names (24.0 (2)); then the battle runs on."""
    b = ctx.m.battle
    if b is None or b.outcome is not None:
        raise RuleError("There is no battle to fire in now.")
    if not b.lined:
        if b.round > 1:
            raise RuleError(f"Round {b.round} waits for the Supplies choice: 'line' to fight on, "
                            "'line firepower:yes' for 2 dice each (24.0 (2)).")
        raise RuleError("Set the raider line first with 'line' (15.1 (3)).")
    shooter = b.second_die or next_firer(b, "raider")
    if b.turn != "raider" or shooter is None:
        raise RuleError("It is not a raider's turn to fire; the sides alternate (15.1 (3)).")
    targets = alive(b, b.hostile_line)
    match = [h for h in targets if h.lower() == (target or targets[0]).lower()]
    if not match:
        raise RuleError(f"'{str(target)[:20]}' is not a hostile still fighting; targets: "
                        f"{', '.join(targets)} (15.1 (3)).")
    if b.second_die is not None:
        b.second_die = None
        shot_die(ctx, b.shots[-1], match[0])
        b.turn = "hostile"
    else:
        if firepower:
            declare_firepower(ctx)
        first_die(ctx, shooter, match[0])
    advance(ctx)


def declare_firepower(ctx: Ctx) -> None:
    """24.0 (2): a Supplies gear in the battle is expended; every raider rolls twice this round."""
    m, b = ctx.m, ctx.m.battle
    assert b is not None
    if not firepower_open(ctx):
        raise RuleError(
            "Maximum firepower is declared before any die of a round, with a Supplies gear "
            "in the battle (24.0 (2))."
        )
    gid = supply_in_battle(ctx)
    assert gid is not None
    g = gear(m, gid)
    unit(m, g.holder or "").gear.remove(gid)
    g.holder = None
    b.firepower = True
    ctx.say("supply", f"{gid} expended: maximum firepower, 2 dice each this round (24.0)", "24.0")


def first_die(ctx: Ctx, shooter: str, target: str) -> None:
    """A raider's (first) die; with maximum firepower its second die waits for the player's
    target when more than one hostile is left (24.0 (2)), else goes at the one left."""
    b = ctx.m.battle
    assert b is not None
    if not b.firepower:
        fire(ctx, "raider", shooter, target)
        return
    shot = open_shot(ctx, "raider", shooter, target)
    shot_die(ctx, shot, target)
    rest = alive(b, b.hostile_line)
    if len(rest) > 1:
        b.second_die = shooter
        ctx.say("fire", f"{shooter}: second die, at which hostile? (24.0)", "24.0")
        return
    if rest:
        shot_die(ctx, shot, rest[0])
    b.turn = "hostile"


def open_shot(ctx: Ctx, side: Side, shooter: str, target: str) -> Shot:
    """Start one unit's fire this round (a new round clears the last one's shots)."""
    m, b, sc = ctx.m, ctx.m.battle, ctx.sc
    assert b is not None
    if b.shots_round != b.round:
        if b.shots:  # fought in this order: its dice stay in the picture (issue 15)
            b.earlier.append(RoundDice(round=b.shots_round, shots=b.shots))
        b.shots = []
        b.shots_round = b.round
    if side == "raider":
        value = combat(sc, unit(m, shooter), m)
        b.raider_next = b.raider_line.index(shooter) + 1
    else:
        value = sc.hostile[shooter].combat
        b.hostile_next = b.hostile_line.index(shooter) + 1
    shot = Shot(side=side, unit=shooter, target=target, dice=[], value=value)
    b.shots.append(shot)
    return shot


def shot_die(ctx: Ctx, shot: Shot, target: str) -> None:
    """2.2: one die; at or under the combat value eliminates the target (15.1 (3))."""
    b = ctx.m.battle
    assert b is not None
    die = ctx.dice.die(6, f"{shot.unit} fires at {target}, combat {shot.value} (15.1)", side=shot.side)
    shot.dice.append(die)
    if die <= shot.value:
        b.dead.append(target)
        shot.hits.append(target)
        b.losses_this_round += 1
        ctx.say("fire", f"{shot.unit}: 🎲 {die} vs {shot.value} → {target} eliminated (15.1)", "15.1",
                die=die, unit=shot.unit, target=target, hit=True)
    else:
        ctx.say("fire", f"{shot.unit}: 🎲 {die} vs {shot.value} → miss on {target} (15.1)", "15.1",
                die=die, unit=shot.unit, target=target, hit=False)


def fire(ctx: Ctx, side: Side, shooter: str, target: str) -> None:
    """Fire one unit the bot aims: one die, two for a raider under maximum firepower (24.0 (2),
    the second at the next hostile in line if the first target fell: the bot's target only when
    no choice is left to the player)."""
    b = ctx.m.battle
    assert b is not None
    shot = open_shot(ctx, side, shooter, target)
    rolls = 2 if side == "raider" and b.firepower else 1
    for _ in range(rolls):
        if target in b.dead:
            rest = alive(b, b.hostile_line)
            if not rest:
                break
            target = rest[0]
        shot_die(ctx, shot, target)
    b.turn = "hostile" if side == "raider" else "raider"


def advance(ctx: Ctx) -> None:
    """Run the battle until the player must decide or it ends (15.1 (3)-(5), 15.2)."""
    b = ctx.m.battle
    assert b is not None
    while b.outcome is None:
        if not alive(b, b.raider_line) or not alive(b, b.hostile_line):
            # 15.1 (5): one side is gone; alternate fire never lets both go (15.1 note).
            finish(ctx, "raider" if alive(b, b.raider_line) else "hostile")
            return
        if not b.lined or b.second_die is not None:
            # 15.1 (3): the first line-up; 24.0 (2): the firepower choice before the round's
            # first die, or a firepower die waiting for the player's target.
            return
        side = b.turn
        if next_firer(b, side) is None:
            other: Side = "hostile" if side == "raider" else "raider"
            if next_firer(b, other) is None:
                end_round(ctx)
                continue
            b.turn = side = other
        if side == "hostile":
            shooter = next_firer(b, "hostile")
            assert shooter is not None
            fire(ctx, "hostile", shooter, alive(b, b.raider_line)[0])
            continue
        if needs_player(ctx):
            return
        shooter = next_firer(b, "raider")
        assert shooter is not None
        fire(ctx, "raider", shooter, alive(b, b.hostile_line)[0])


def end_round(ctx: Ctx) -> None:
    """The round is over: break-off check (15.2) or the next round, same Tactical Edge (15.1 (4))."""
    b = ctx.m.battle
    assert b is not None
    ctx.snapshot = True
    b.quiet_rounds = b.quiet_rounds + 1 if b.losses_this_round == 0 else 0
    # Each side's losses, so the line never leaves the player guessing whose they were.
    shots = b.shots if b.shots_round == b.round else []
    lost_h = sum(len(s.hits) for s in shots if s.side == "raider")
    lost_r = sum(len(s.hits) for s in shots if s.side == "hostile")
    ctx.say("round", f"Round {b.round} losses: raiders {lost_r}, hostiles {lost_h} (15.1)",
            "15.1", round=b.round)
    if b.quiet_rounds >= 2:
        ctx.say("breakoff", "Break-off: 2 rounds, no loss (15.2)", "15.2")
        finish(ctx, "draw")
        return
    b.round += 1
    b.raider_next = b.hostile_next = 0
    b.losses_this_round = 0
    b.firepower = False
    b.turn = b.edge
    # 15.1 (4): the next round "repeats the procedure of the first round" with the line the
    # player prefers: the one set, or the one given during the last round.
    if b.next_line is not None:
        b.raider_line = b.next_line + [r for r in b.raider_line if r not in b.next_line]
        b.next_line = None
    open_round(ctx)


def finish(ctx: Ctx, outcome: Literal["raider", "hostile", "draw"]) -> None:
    """16.0: hostiles back to the bin, casualties off the map, the card's win/lose lines."""
    m, sc = ctx.m, ctx.sc
    b = m.battle
    assert b is not None
    b.outcome = outcome
    b.ended_now = True  # its last dice show in this order's picture, then the panel goes
    ctx.snapshot = True
    for rid in b.raider_line:
        if rid in b.dead:
            remove_unit(ctx, unit(m, rid))
    words = {"raider": "raiders win", "hostile": "hostiles win", "draw": "a draw"}
    ctx.say("battle_end", f"Battle over: {words[outcome]} (16.0)", "16.0", outcome=outcome)
    ctx.say("battle_end", "Hostiles back to the bin (14.0)", "14.0")
    if b.camp:
        camp_after_battle(ctx, b)
    card = sc.card[b.card] if b.card else None
    if outcome == "raider":
        if card is not None:
            if card.win_ops:
                gain_ops(ctx, card.win_ops, f"{card.id} won")
            if card.win_rp:
                rp_change(ctx, card.win_rp, f"{card.id} won")
        leader_roll(ctx, b.space)
    elif outcome == "hostile" and card is not None:
        if card.lose_ops:
            lose_ops(ctx, card.lose_ops, f"{card.id} lost")
        if card.lose_rp:
            rp_change(ctx, -card.lose_rp, f"{card.id} lost")
    m.last_battle = b
    m.battle = None


def camp_after_battle(ctx: Ctx, b: Battle) -> None:
    """8.0 (1): a camp's eliminated hostiles go to the bin; the others stay in their space."""
    m, sc = ctx.m, ctx.sc
    left = [h for h in m.camps.get(b.space, []) if h not in b.dead]
    where = sc.space_by_id[b.space].name
    if left:
        m.camps[b.space] = left
        ctx.say("camp", f"{len(left)} stay in the camp at {where} (8.0)", "8.0")
    else:
        m.camps.pop(b.space, None)
        ctx.say("camp", f"The camp at {where} is wiped out (8.0)", "8.0")


def place_camps(ctx: Ctx) -> None:
    """8.0 (1) Situation: the Mission card's camps get their hostiles from the bin."""
    m, sc = ctx.m, ctx.sc
    for camp in sc.mission[m.card].camps:
        where = sc.space_by_id[camp.space].name
        picked = pick_hostiles(ctx, camp.hostiles, f"{camp.name} at {where}")
        if picked:
            m.camps.setdefault(camp.space, []).extend(picked)
            ctx.say("camp", f"{camp.name} at {where}: {len(picked)} hostiles (8.0)", "8.0")


def leader_roll(ctx: Ctx, space: str) -> None:
    """20.2: after a win, a 6 brings a leader from the pool (not one lost this mission)."""
    m, sc = ctx.m, ctx.sc
    roll = ctx.dice.die(6, "leader roll after a won battle (20.2)")
    pool = [u.id for u in m.units if sc.unit_type[u.type].leader and u.space is None and not u.eliminated]
    if roll != 6:
        ctx.say("leader", f"🎲 {roll}: no leader (20.2 needs 6)", "20.2", die=roll)
        return
    if not pool:
        ctx.say("leader", "🎲 6, no leader left in the pool (20.2)", "20.2", die=roll)
        return
    chosen = unit(m, ctx.dice.pick(pool, "leader picked from the pool (20.2)"))
    here = [u.force for u in in_space(m, space) if u.force]
    target_force = m.force if m.force and members(m, m.force) and m.force in here else (here[0] if here else None)
    place(m, chosen, space, target_force)
    ctx.say("leader", f"🎲 6: leader {chosen.id} {chosen.name} joins (20.2)", "20.2", die=roll)
