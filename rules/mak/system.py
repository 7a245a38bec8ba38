"""Maschinen Krieger as a :class:`~rules.core.contract.GameSystem` (part 1: the ground war).

A turn (4.0): the air commitment phase (when aircraft fly: ``commit``, then ``commit`` alone when done, then the
dog-fight; the air orders are the mixin of ``air_orders.py``), the first player's phase, the second player's phase, the end of the turn.  In a phase the phase
player enters reinforcements, moves, fires, fires indirect and assaults, then ``end``s.  The
anti-phase player is asked for defensive attacks whenever a rule offers them (a target that
survived an attack from within 3 hexes and its stack, 5.4; a unit moving next to theirs,
7.2.4; an assault on their hex, 9.1-9.2): ``defend`` or ``pass``.  Where close quarters pin
some of those units, the phase player first names the unpinned ones (``unpin``, 9.4.3).
"""

from __future__ import annotations

import contextlib
from typing import Any, Literal

from pydantic import Field

from rules.core.contract import Action, GameOptions, GameSystem, Step, Turn
from rules.core.dice import Dice
from rules.core.errors import RuleError
from rules.core.orders import Ctx, order
from rules.core.views import HexMapView
from rules.mak import actions as A
from rules.core.playout import PlayoutHints
from rules.mak import artillery, cqc, hazards, land_orders, legal, pilots, resolve, victory
from rules.mak.air_actions import AIR_ACTIONS
from rules.mak.reveals import reveal_words
from rules.mak.air_orders import AirOrders, air_label, air_phase, air_status, begin_air_phase, setup_crews
from rules.mak.artillery import make_batteries
from rules.mak.combat import blast_area
from rules.mak.land_actions import LAND_ACTIONS
from rules.mak.land_orders import LandOrders
from rules.mak.transport import board_at_setup
from rules.mak.vehicles import enter_with
from rules.mak import special_actions as S
from rules.mak.data import SCENARIOS, scenario, units
from rules.mak.scenario import FORMAT as SCENARIO_FORMAT
from rules.mak.deployment import entry_hexes, parse_deploy
from rules.mak.battlefield import battlefield
from rules.mak.state import SIDE_NAMES, SIDES, MakState, Mark, Position, UnitState, other
from rules.mak.special import map_status
from rules.mak.special import boost_ways
from rules.mak.special_orders import SpecialOrders, boost_move, drop_in, labels, walk_note, wants_boost
from rules.mak.state import Minefield
from rules.mak.table import Table
from rules.mak.view import build_view
from rules.mak import concealment
from rules.mak import unseen
from rules.mak.unseen import masked
from rules.mak.secret_actions import SECRET_ACTIONS
from rules.mak.secret_orders import SecretOrders, setup_line, setup_sides

MakCtx = Ctx[MakState]


class MakOptions(GameOptions):
    """``/game new options:dice=product,turns=4``."""

    dice: Literal["sum", "product"] = Field(
        "sum", description="hit roll: sum of two dice (second game) or product (first game, 5.1.1)")
    turns: int | None = Field(None, ge=1, le=30, description="number of turns (default: the scenario's)")
    escape: bool = Field(False, description="pilots may escape damaged units (18.2, optional)")
    creation: bool = Field(False, description="recruit and train pilots (18.3, optional)")
    night: bool | None = Field(None, description="night combat, 19.3 (default: the scenario's)")
    concealment: bool = Field(False, description="concealment markers over units and stacks (15.0, optional)")
    markers: int | None = Field(None, ge=1, le=20,
                                description="concealment markers a side (15.4.2; default: our stand-in, 6)")


def _raise(problem: str | None) -> None:
    if problem:
        raise RuleError(problem)


class MaschinenKrieger(AirOrders, LandOrders, SpecialOrders, SecretOrders, GameSystem[MakState]):
    """Maschinen Krieger on geomorphic hex boards (the air war: ``AirOrders``; vehicles and
    artillery: ``LandOrders``; close quarters fought out, engineers, smoke, the AMU:
    ``SpecialOrders``; minefields laid at set-up and concealment: ``SecretOrders``)."""

    key = "mak"
    title = "Maschinen Krieger"
    sides = SIDES
    side_names = SIDE_NAMES
    scenarios = SCENARIOS
    scenario_format = SCENARIO_FORMAT
    actions = A.ACTIONS[:-1] + LAND_ACTIONS + A.ACTIONS[-1:] + AIR_ACTIONS + S.SPECIAL_ACTIONS + SECRET_ACTIONS
    #: 19.1 minefields, 15.0 concealment and the 10.1 duty chart are sealed choices: each side
    #: sees its own (``view_for``); the export of a running game holds no state.
    private_info = True
    #: What each group of ``/mak`` holds, as Discord lists it (at most 100 characters).
    group_descriptions = {
        "air": "The air war: assign aircraft, strike, flak, strafe, land (10.0)",
        "pilot": "Pilots: recruit, train (18.3), escape off the map (18.2)",
        "mines": "Lay your minefields at set-up, sealed (19.1)",
        "conceal": "Concealment markers: hide units, move markers, sealed (15.0)",
    }
    #: the conformance kit's 50 games are all of the full-rules scenario (the others are
    #: played by tests/mak/test_playouts.py)
    playout_hints = PlayoutHints(scenarios=("assault",), rare=frozenset({"move", "indirect"}), rare_weight=0.1)
    state_model = MakState
    options_model = MakOptions
    #: A side that lets its deadline pass (issue 19): makes no defensive attack (5.4: they are
    #: never required) and ends its phase (4.0) when stacking allows.
    idle_orders = {"defence": A.Pass(), "act": A.End(), "setup": A.End()}

    # -- setup -------------------------------------------------------------------------------

    def start(self, scenario_key: str, options: Any, dice: Dice) -> Step:
        """Set up ``scenario_key``: units placed or waiting by their deployment codes."""
        spec = scenario(scenario_key)
        field = battlefield(tuple(spec.boards))
        made: list[UnitState] = []
        for side in spec.sides:
            letter = side.key[0].upper()
            counts: dict[str, int] = {}
            for line in side.forces:
                deploy = parse_deploy(line.deploy)
                for _ in range(line.count):
                    counts[line.unit] = counts.get(line.unit, 0) + 1
                    u = UnitState(id=f"{letter}-{line.unit}{counts[line.unit]}", type=line.unit,
                                  side=side.key, deploy=line.deploy, airdrop=line.airdrop)
                    if deploy.setup:
                        u.hex = field.label(entry_hexes(field.layout, deploy)[0])
                        u.status = "on"
                    made.append(u)
                    if line.aboard:
                        board_at_setup(made, u, line.aboard)
        state = MakState(scenario=spec.key, title=spec.title, boards=spec.boards,
                         turns=options.turns or spec.turns, first=spec.first, active=spec.first,
                         method=options.dice, units=made, depots=dict(spec.depots),
                         positions={h: Position(rating=r) for h, r in spec.positions.items()},
                         batteries=[b for side in spec.sides for b in make_batteries(side.key, side.artillery)],
                         mines={h: Minefield(owner=m.owner, attack=m.attack) for h, m in spec.mines.items()},
                         night=spec.night if options.night is None else options.night, amu_rule=spec.amu,
                         mine_points={k: v for k, v in spec.mine_points.items() if v})
        if options.concealment:
            concealment.begin(state, options.markers)  # 15.0, 15.4.2
        for u in made:
            if u.on_map and u.hex in state.positions:
                state.positions[u.hex].holder = u.side
        setup_crews(state, spec, options.escape, options.creation)  # 10.6, 18.1.3
        ctx: MakCtx = Ctx(state=state, side=spec.first, dice=dice)
        night = " At night: manned units −2 (19.3)." if state.night else ""
        ctx.say("setup", f"{spec.title}: {state.turns} turns, {SIDE_NAMES[spec.first]} first; "
                         f"hit rolls by {options.dice} (5.1.1).{night} {spec.victory}", "3.1")
        state.setup = setup_sides(state)  # type: ignore[assignment]
        if state.setup:  # 19.1, 15.0: both sides lay and hide before the first phase
            ctx.say("setup", setup_line(state), "19.1")
        else:
            begin_play(ctx)
        return self.make_step(state, ctx.events, snapshot=True)

    # -- where the game stands -----------------------------------------------------------------

    def phase_of(self, state: MakState) -> str:
        if state.setup:
            return "setup"
        if state.exchange is not None:
            return "melee"
        air = air_phase(state)  # 10.1, 10.4.1
        if air is not None:
            return air
        if state.pin is not None:
            return "pin"
        if state.window is not None:
            return "defence"
        if state.assault is not None and state.assault.stage == "strike":
            return "strike"
        return "act"

    def phase_title(self, state: MakState) -> str:
        return {"pin": "Pinned units (9.4.3)", "defence": "Defensive attacks (5.4)",
                "strike": "Close quarters attack (9.1)", "air": "Air Commitment (10.1)", "melee": "Close quarters combat (9.3.2)",
                "flak": "Anti-aircraft attacks (10.4.1)", "strafe": "Air-to-ground attacks (10.4.1)",
                "setup": "Set-up (19.1, 15.0)"}.get(self.phase_of(state), f"{SIDE_NAMES[state.active]} phase")

    def waiting_on(self, state: MakState) -> list[str]:
        if state.over:
            return []
        if state.setup:
            return list(state.setup)
        if self.phase_of(state) == "air":
            return [s for s in SIDES if s not in state.air.committed]
        if self.phase_of(state) in ("defence", "flak"):
            return [other(state.active)]
        if self.phase_of(state) == "melee":
            return [cqc.stage_side(state)]
        return [state.active]

    def turn_part(self, state: MakState) -> str:
        """``Turn 1/6 · Air Commitment (10.1) · Mercenary and Strahl``: every side waited on
        (both at once while the aircraft are assigned, 10.1.1)."""
        if state.over:
            return f"Turn {state.turns}/{state.turns} · {self.game_over(state)}"
        who = " and ".join(SIDE_NAMES[s] for s in self.waiting_on(state))
        return f"Turn {state.turn}/{state.turns} · {self.phase_title(state)} · {who}"

    def game_over(self, state: MakState) -> str:
        """``game over: Mercenary win, 3 to 1 O.G.P.`` (the turn counter has passed the last
        turn, so the clock is not shown as turn 2/1)."""
        return f"game over: {self.result(state)}"

    def status(self, state: MakState) -> list[str]:
        clock = (f"game over after turn {state.turns}/{state.turns}: {self.result(state)}" if state.over
                 else f"turn {state.turn}/{state.turns}, {self.phase_title(state)}.")
        lines = [f"{state.title}: {clock}"]
        for side in SIDES:
            alive = [u for u in state.units if u.side == side and u.status != "destroyed"
                     and not concealment.hidden(state, u)]  # 15.4.1: under markers, unseen
            lines.append(f"{SIDE_NAMES[side]}: " + ", ".join(
                f"{u.id}@{_where(u)}" for u in alive))
        if state.concealment is not None:
            lines += concealment.status_lines(state)
        lines += air_status(state)  # 10.1, 18.1.3
        lines += map_status(state)  # 19.1-19.4, 16.2
        points = victory.ogp(state)
        lines.append("O.G.P.: " + ", ".join(f"{SIDE_NAMES[s]} {points[s].text()}" for s in SIDES) + ".")
        for b in state.batteries:
            lines.append(f"{b.id} ({SIDE_NAMES[b.side]}): {b.code}, {b.fired} of {b.total} rounds fired.")
        return lines

    def view(self, state: MakState) -> HexMapView:
        """The public picture: minefields only once found, concealed stacks as their markers."""
        return self._finished(state, build_view(state))

    def view_for(self, state: MakState, side: str) -> HexMapView:
        """What ``side`` sees: the public picture with its own secrets on top (its minefields
        not yet found, 19.1.1; its units under concealment markers, 15.4.1; its own duty
        chart while the assignments are secret, 10.1.1)."""
        return self._finished(state, build_view(state, viewer=side))

    def answers_in_public(self, state: MakState) -> bool:
        """Not with concealment on: an answer's label names the unit under a marker and its
        type (15.4.1); orders are built privately with /game act instead."""
        return state.concealment is None

    def secret_words(self, key: str, item: str) -> str:
        """A revealed minefield, marker or duty in players' words (19.1.1, 15.4.1, 10.1.1)."""
        return reveal_words(key, item)

    def _finished(self, state: MakState, view: HexMapView) -> HexMapView:
        if not state.over:
            return view
        header = view.header.model_copy(update={"phase": self.game_over(state)})
        return view.model_copy(update={"banner": self.result(state), "header": header})

    def score(self, state: MakState) -> dict[str, int]:
        """The operation goal points, O.G.P. = ① + ③ − ② (``victory.py``), and the AMUs the
        Strahl carried off the map (16.2.2)."""
        out = {s: v.total for s, v in victory.ogp(state).items()}
        out["strahl"] += state.amu_points
        return out

    def turn(self, state: MakState) -> Turn:
        """The turn as the picture's header shows it, without building the picture
        (issue 23): a game over shows its last turn (view.py)."""
        return Turn(number=state.turns if state.over else state.turn, waiting_on=self.waiting_on(state))

    def result(self, state: MakState) -> str | None:
        if not state.over:
            return None
        score = self.score(state)
        if score["merc"] == score["strahl"]:
            return f"A draw, {score['merc']} to {score['strahl']} O.G.P."
        winner = max(score, key=lambda s: score[s])
        return f"{SIDE_NAMES[winner]} win, {score[winner]} to {score[other(winner)]} O.G.P."

    def after_order(self, ctx: MakCtx, action: Action) -> None:
        """Number the order's marks (the snapshot draws the last order that drew any).
        (Concealment's lifts and masking end each order's resolution: ``unseen.guarded``.)"""
        if isinstance(action, (A.Enter, A.Move, A.Assault)) and any(
                f.owner != ctx.side and not f.revealed for f in ctx.state.mines.values()):
            # 19.1.2: a move over ground where an enemy minefield may lie told its player that
            # none was on its way; taking it back would let a path be tried for free (the
            # strict undo rule: no undo once new information came out).
            ctx.reveals = True
        for m in ctx.state.marks:
            if m.order == 0:
                m.order = ctx.state.orders + 1
        ctx.state.orders += 1
        ctx.state.marks = ctx.state.marks[-8:]
        for label, pos in ctx.state.positions.items():  # 12.3: a position left empty is free
            if pos.holder and not any(u.side == pos.holder for u in ctx.state.at(label)):
                pos.holder = None

    def label(self, state: MakState, side: str, action: str, field: str, value: str,
              partial: dict[str, Any]) -> str:
        as_unit = "unit" if field in ("observer", "requester", "rider") else field
        # "air strike": the labels know orders by path; a name no order has is labelled as given.
        with contextlib.suppress(RuleError):
            action = self.action_type(action).path()
        typed: dict[str, str] = {}
        if state.concealment is not None:
            marker = concealment.enemy_marker(state, side, value)
            if marker is not None:  # 15.4.1: a public counter: where it is, never what is under it
                return f"{marker} (?) {state.unit(state.concealment.markers[marker] or '').hex}"
            # 15.4.1: a hidden enemy unit's own id is labelled as a name no unit has
            value = unseen.blind_value(state, side, value, typed)
        text = labels(state, side, action, field, value, partial) or \
            land_orders.label(state, action, field, value, partial, side) or \
            _label(Table(state), side, action, as_unit, value, partial)
        # 15.4.1: a label never names an enemy unit under a concealment marker (but for the
        # names typed, given back as typed: masking them would say which marker they are under)
        named = {n.lower() for n in typed.values()}
        names = {u.id: concealment.public_name(state, u) for u in concealment.hidden_units(state)
                 if u.side != side and u.id.lower() not in named}
        return unseen.unblind(masked(text, names) if names else text, typed)

    # -- the orders ------------------------------------------------------------------------------

    def _enter_offers(self, state: MakState, side: str) -> list[Action]:
        t = Table(state)
        return [A.Enter(unit=u.id, at=h) for u in state.units if u.side == side and u.status == "waiting"
                and legal._busy(t, u) is None for h in legal.enter_hexes(t, u)]

    @order(A.Enter, phases="act", offers="_enter_offers")
    def enter(self, ctx: MakCtx, o: A.Enter) -> None:
        t = Table(ctx.state)
        _raise(legal.enter_problem(t, ctx.side, o))
        u = ctx.state.find(o.unit)
        assert u is not None
        if u.airdrop:
            drop_in(t, ctx, u, o.at)  # 12.2
            return
        cost = legal.enter_hexes(t, u)[o.at]
        resolve.finish_moving(ctx.state)
        u.status, u.hex, u.mp_spent, u.moved = "on", o.at, cost, True
        enter_with(ctx.state, u)  # 13.1: its riders come in with it
        ctx.state.moving = u.id
        ctx.state.marks.append(Mark(kind="move", hexes=[o.at], side=u.side, text=f"{u.id} enters"))
        ctx.say("enter", f"{u.id} enters at {o.at} ({cost:g} MP) (12.1)", "12.1")
        ctx.snapshot = True
        if o.at in ctx.state.mines and not hazards.mine_attack(t, ctx, u, o.at, "as it enters"):
            return  # 19.1.3: entering from off the map is entering the hex
        resolve.arrive(t, ctx, u)
        resolve.came_next_to_enemy(t, ctx, u)  # 5.4 3: as a move into the hex would

    def _move_offers(self, state: MakState, side: str) -> list[Action]:
        t = Table(state)
        blocker = legal.stuck(t)
        movers = [blocker] if blocker else [u for u in state.units if u.side == side]
        return ([A.Move(unit=u.id, to=h, through_mines=way.mines > 0)  # 19.1.2: said, never by chance
                 for u in movers for h, way in legal.move_ways(t, u).items()]
                + [A.Move(unit=u.id, to=h, boost=True, through_mines=mines > 0) for u in movers if u.side == side
                   for h, mines in sorted(boost_ways(t, u).items())])  # 19.5.3; 19.1.2 as a walk

    @order(A.Move, phases="act", offers="_move_offers")
    def move(self, ctx: MakCtx, o: A.Move) -> None:
        t = Table(ctx.state)
        u = ctx.state.find(o.unit)
        if wants_boost(t, ctx.side, u, o.to, o.boost):
            boost_move(t, ctx, u, o.to, o.through_mines)  # type: ignore[arg-type]
            return
        note = walk_note(t, u, o.to, o.boost)  # 19.5.3: boost:false honoured, and said
        problem = legal.move_problem(t, ctx.side, o)
        if problem:
            raise RuleError(problem + (f" {note}" if note and note.startswith("Its booster") else ""))
        if note:
            ctx.say("move", note, "19.5.3")
        resolve.move(t, ctx, ctx.state.unit(ctx.state.find(o.unit).id), o.to)  # type: ignore[union-attr]

    def _fire_offers(self, state: MakState, side: str) -> list[Action]:
        t = Table(state)
        if legal.stuck(t):
            return []
        return [A.Fire(unit=u, target=e, weapon=w)
                for u, e, w in legal.fire_offers(t, side, False, t.on_map(side), t.on_map(other(side)))]

    @order(A.Fire, phases="act", offers="_fire_offers")
    def fire(self, ctx: MakCtx, o: A.Fire) -> None:
        t = Table(ctx.state)
        _raise(legal.fire_problem(t, ctx.side, o.unit, o.target, o.weapon, defensive=False))
        u, e = ctx.state.find(o.unit), ctx.state.find(o.target)
        assert u is not None and e is not None
        resolve.finish_moving(ctx.state)
        weapon, _ = t.best_weapon(u, e, False, o.weapon)
        u.attacked = True
        if t.in_melee(u) and u.hex == e.hex:
            u.struck = True  # 9.3.2: close combat ends the unit's actions this phase
        # 5.4 2: the stack is taken before the attack; its other units answer even when the
        # target is destroyed (condition 1 needs the target alive, condition 2 does not)
        near = resolve.defensive_trigger(t.hex(u), t.hex(e))
        stack = t.in_hex(t.hex(e), e.side)
        resolve.fire(t, ctx, u, e, weapon, "fires at")
        if near:
            resolve.open_window(t, ctx, "attack", [u], [x for x in stack if x.on_map])  # 5.4 1-2, 5.4.1

    def _volley_offers(self, state: MakState, side: str) -> list[Action]:
        t = Table(state)
        return [] if legal.stuck(t) else list(legal.volley_offers(t, side))

    @order(A.Volley, phases="act", offers="_volley_offers")
    def volley(self, ctx: MakCtx, o: A.Volley) -> None:
        """5.3.3: resolved individually, in the order named; the defensive attacks after all
        of them (5.4.2).  5.3.4: "Attacks that have been announced must be executed. Even if
        ... the target unit is destroyed with the very first attack of a simultaneous attack
        ... the attacking player must check for ammunition expenditure, energy usage, and
        accidents" (Figure 5: "the SAFS is still considered to have attacked, and an attack
        roll should be made"): every named unit rolls and has made its one attack (5.3.1)."""
        t = Table(ctx.state)
        found = legal.volley_units(t, ctx.side, o)
        if isinstance(found, str):
            raise RuleError(found)
        e = ctx.state.find(o.target)
        assert e is not None
        resolve.finish_moving(ctx.state)
        ctx.say("volley", f"Simultaneous Attack on {e.id} by {', '.join(u.id for u in found)} (5.3.3)", "5.3.3")
        stack = t.in_hex(t.hex(e), e.side)  # 5.4 2: taken before the attacks
        near = resolve.defensive_trigger(t.hex(found[0]), t.hex(e))
        armed = [(u, t.best_weapon(u, e, False)[0]) for u in found]  # chosen while the target stands
        for u, weapon in armed:
            u.attacked = True
            if t.in_melee(u) and u.hex == e.hex:
                u.struck = True  # 9.3.2
            if e.on_map:
                resolve.fire(t, ctx, u, e, weapon, "fires at")
            elif weapon is not None:
                resolve.spent_attack(t, ctx, u, e, weapon)  # 5.3.4
        if near:  # 5.4 1 (the target alive) or 2 (its stack-mates, even if it is destroyed)
            resolve.open_window(t, ctx, "attack", found, [x for x in stack if x.on_map])  # 5.4.2

    def _indirect_offers(self, state: MakState, side: str) -> list[Action]:
        t = Table(state)
        out: list[Action] = []
        shooters = [u for u in t.on_map(side) if any(w.indirect for w in t.weapons(u, False))]
        hexes = sorted({e.hex for e in t.on_map(other(side)) if e.hex})
        spotters = t.on_map(side) + [a for a in state.units if a.side == side and a.status == "aloft"]  # 10.5
        for u in shooters:
            for h in hexes:
                for s in spotters:
                    o = A.Indirect(unit=u.id, at=h, spotter=s.id)
                    if legal.indirect_problem(t, side, o) is None:
                        out.append(o)
        return out + artillery.offers(state, side)  # 17.1: off-board batteries

    @order(A.Indirect, phases="act", offers="_indirect_offers")
    def indirect(self, ctx: MakCtx, o: A.Indirect) -> None:
        t = Table(ctx.state)
        if artillery.battery_of(ctx.state, o.unit) is not None:
            _raise(artillery.request_problem(t, ctx.side, o))  # 17.1: an artillery request
            artillery.request(t, ctx, o)
            return
        _raise(artillery.plain_indirect_problem(o) or legal.indirect_problem(t, ctx.side, o))
        u, spotter = ctx.state.find(o.unit), ctx.state.find(o.spotter)
        assert u is not None and spotter is not None
        resolve.finish_moving(ctx.state)
        _indirect(t, ctx, u, spotter, o.at)

    def _assault_offers(self, state: MakState, side: str) -> list[Action]:
        t = Table(state)
        return [A.Assault(unit=u.id, hex=h, through_mines=bool(resolve.charge_mines(t, u, h)))  # 19.1.2: said
                for u in t.on_map(side) for h in legal.assault_hexes(t, u)]

    @order(A.Assault, phases="act", offers="_assault_offers")
    def assault(self, ctx: MakCtx, o: A.Assault) -> None:
        t = Table(ctx.state)
        _raise(legal.assault_problem(t, ctx.side, o))
        u = ctx.state.find(o.unit)
        assert u is not None
        resolve.start_assault(t, ctx, u, o.hex)

    def _strike_offers(self, state: MakState, side: str) -> list[Action]:
        t = Table(state)
        if state.assault is None:
            return []
        u = state.unit(state.assault.unit)
        out: list[Action] = []
        for e in resolve.strike_targets(t, u):
            for unarmed in (False, True):
                o = A.Strike(target=e.id, unarmed=unarmed)
                if legal.strike_problem(t, side, o) is None:
                    out.append(o)
        return out

    @order(A.Strike, phases="strike", offers="_strike_offers")
    def strike(self, ctx: MakCtx, o: A.Strike) -> None:
        t = Table(ctx.state)
        _raise(legal.strike_problem(t, ctx.side, o))
        a = ctx.state.assault
        assert a is not None
        u, e = ctx.state.unit(a.unit), ctx.state.find(o.target)
        assert e is not None
        u.attacked = u.struck = True
        if o.unarmed or t.best_weapon(u, e, False)[0] is None:  # no weapon left: unarmed (9.5)
            # 9.5: "All unarmed combat is performed after resolution of attacks from opposing
            # units": the target's armed answer comes first, then the blow if both still stand
            a.stage, a.target = "unarmed", e.id
            ctx.say("strike", f"{u.id} will strike {e.id} unarmed, after {e.id}'s armed answer (9.5)", "9.5")
            resolve.open_window(t, ctx, "attack", [u], [e])
            if ctx.state.window is None and ctx.state.pin is None:
                resolve.advance_assault(t, ctx)
            return
        ctx.state.assault = None
        weapon = t.best_weapon(u, e, False)[0]
        alive = resolve.fire(t, ctx, u, e, weapon, "strikes")
        if alive:
            resolve.open_window(t, ctx, "attack", [u], [e])  # 9.2.2: only the unit attacked answers

    def _defend_offers(self, state: MakState, side: str) -> list[Action]:
        t = Table(state)
        if state.window is None:
            return []
        targets = [state.unit(x) for x in state.window.targets]
        return [A.Defend(unit=u, target=e, weapon=w)
                for u, e, w in legal.fire_offers(t, side, True, resolve.window_defenders(t), targets)]

    @order(A.Defend, phases="defence", offers="_defend_offers")
    def defend(self, ctx: MakCtx, o: A.Defend) -> None:
        t = Table(ctx.state)
        _raise(legal.defend_problem(t, ctx.side, o))
        u, e = ctx.state.find(o.unit), ctx.state.find(o.target)
        assert u is not None and e is not None and ctx.state.window is not None
        ctx.state.window.used.append(u.id)
        if ctx.state.assault is not None and ctx.state.assault.stage == "adjacent":
            ctx.state.assault.fired_adjacent.append(u.id)  # 9.2: case 1 excludes case 2
        weapon, _ = t.best_weapon(u, e, True, o.weapon)
        resolve.fire(t, ctx, u, e, weapon, "fires defensively at")
        if not resolve.window_defenders(t):
            resolve.close_window(t, ctx)

    @order(A.Pass, phases=("defence", "flak", "melee"), offers=lambda system, state, side: [A.Pass()])
    def pass_(self, ctx: MakCtx, o: A.Pass) -> None:
        if ctx.state.exchange is not None:
            cqc.hold(Table(ctx.state), ctx, ctx.side)  # 9.3.2: the rest make no attack
            return
        if ctx.state.air.strike is not None:
            self._pass_flak(ctx)  # 10.4.1 2
            return
        ctx.say("pass", f"{SIDE_NAMES[ctx.side]} make no more defensive attacks now (5.4)", "5.4")
        resolve.close_window(Table(ctx.state), ctx)

    def _unpin_offers(self, state: MakState, side: str) -> list[Action]:
        if state.pin is None:
            return []
        return [A.Unpin(unit=c) for c in state.pin.candidates if c not in state.pin.chosen]

    @order(A.Unpin, phases="pin", offers="_unpin_offers")
    def unpin(self, ctx: MakCtx, o: A.Unpin) -> None:
        pin = ctx.state.pin
        assert pin is not None
        names = {c.lower(): c for c in pin.candidates if c not in pin.chosen}
        uid = names.get(o.unit.strip().lower())
        if uid is None:
            raise RuleError(f"Name one of {', '.join(names.values())} as unpinned (9.4.3).")
        pin.chosen.append(uid)
        ctx.say("unpin", f"{uid} stays unpinned (9.4.3)", "9.4.3")
        if len(pin.chosen) >= pin.need:
            if ctx.state.window is not None:
                ctx.state.window.unpinned += pin.chosen
            ctx.state.pin = None
            resolve.settle_pin(Table(ctx.state), ctx)

    def _carry_offers(self, state: MakState, side: str) -> list[Action]:
        t = Table(state)
        out: list[Action] = []
        for u in t.on_map(side):
            for load in t.in_hex(t.hex(u), side):
                for drop in (False, True):
                    o = A.Carry(unit=u.id, load=load.id, drop=drop)
                    if load.id != u.id and legal.carry_problem(t, side, o) is None:
                        out.append(o)
        return out

    @order(A.Carry, phases="act", offers="_carry_offers")
    def carry(self, ctx: MakCtx, o: A.Carry) -> None:
        t = Table(ctx.state)
        _raise(legal.carry_problem(t, ctx.side, o))
        u, load = ctx.state.find(o.unit), ctx.state.find(o.load)
        assert u is not None and load is not None
        resolve.finish_moving(ctx.state, u.id)
        ctx.state.moving = u.id
        u.mp_spent += 1.0
        u.moved = True
        u.carrying = None if o.drop else load.id
        verb = "drops" if o.drop else "picks up"
        ctx.say("carry", f"{u.id} {verb} {load.id} (1 MP) (7.3.1)", "7.3.1")

    def _end_offers(self, state: MakState, side: str) -> list[Action]:
        if state.setup:
            return [A.End()]
        return [A.End()] if legal.end_problem(Table(state)) is None else []

    @order(A.End, phases=("act", "setup"), offers="_end_offers")
    def end(self, ctx: MakCtx, o: A.End) -> None:
        if ctx.state.setup:
            end_setup(ctx)
            return
        t = Table(ctx.state)
        _raise(legal.end_problem(t))
        ctx.say("end", f"{SIDE_NAMES[ctx.side]} ends its phase (4.0)", "4.0")
        for label, why in legal.over_limit(t, ctx.side):  # no unit there could leave
            ctx.say("end", f"{label} stays over the stacking limit ({why}): no unit there can "
                           f"still leave (8.2)", "8.2")
        resolve.end_phase(t, ctx)
        ctx.snapshot = True


#: 15.4.1: an order naming an unseen enemy unit is refused; the orders offered for a unit under
#: its own concealment marker name the marker.
MaschinenKrieger.order_rules = {k: unseen.guarded(r) for k, r in MaschinenKrieger.order_rules.items()}


def begin_play(ctx: MakCtx) -> None:
    """4.0 1: the Air Commitment phase when aircraft fly, else the first player's phase."""
    if not begin_air_phase(ctx):
        resolve.start_phase(Table(ctx.state), ctx)


def end_setup(ctx: MakCtx) -> None:
    """A side has laid and hidden what it will (19.1, 15.0); once both have, play begins.
    Minefields not laid by then are not laid (the rest of the total is lost, our reading)."""
    s = ctx.state
    s.setup.remove(ctx.side)  # type: ignore[arg-type]
    if s.mine_points.get(ctx.side, 0) >= 5 and ctx.side not in s.laid:
        s.laid.append(ctx.side)  # type: ignore[arg-type]
    ctx.say("setup", f"{SIDE_NAMES[ctx.side]} finished its set-up (19.1, 15.0)", "19.1")
    if not s.setup:
        begin_play(ctx)
        ctx.snapshot = True


def _indirect(t: Table, ctx: MakCtx, u: UnitState, spotter: UnitState, label: str) -> None:
    """5.5: one roll against each unit's Attack Target in the hex and the six around it."""
    weapon = next(w for w in t.weapons(u, False) if w.indirect)
    centre = t.hex_of(label)
    u.attacked = True
    spotter.spotted = True
    if spotter.status == "aloft":
        t.s.air.duty[spotter.id] = "used"  # 10.5: "move the aeronautical unit to the 'Used' space"
    hit_dice = ctx.dice.roll(2, 6, f"{u.id} indirect at {label}")
    ctx.say("indirect", f"{u.id} fires {weapon.type.value} indirect at {label}, spotted by {spotter.id}; "
                        f"🎲 {hit_dice[0]}+{hit_dice[1]} (5.5.3)", "5.5")
    for h in blast_area(centre):
        for e in [x for x in t.in_hex(h) if not x.aboard]:  # 13.1.3: one target with its vehicle
            at = t.target_of(u, weapon, e, indirect=True)
            text = resolve.blast_hit(t, ctx, e, at, (hit_dice[0], hit_dice[1]), outside=h != centre)
            if e.status == "destroyed":
                pilots.credit_kill(ctx.state, u, e)  # 18.3.3
            ctx.say("indirect", text, "5.5.3")
            if not e.on_map:
                hazards.after_destroyed(t, ctx, t.label(h), weapon.type)  # 19.4.1 (1)
    resolve._expend(t, ctx, u, weapon, (hit_dice[0], hit_dice[1]))
    ctx.state.marks.append(Mark(kind="blast", hexes=[label], side=u.side, text="indirect"))
    ctx.snapshot = True


def _where(u: UnitState) -> str:
    """Where a unit is, for the status: its hex, in the air (10.0), aboard a Hornisse (10.6)
    or off the map."""
    return u.hex or {"aloft": "air", "aboard": "aboard", "withdrawn": "withdrawn"}.get(u.status, "off")


def _label(t: Table, side: str, action: str, field: str, value: str, partial: dict[str, Any]) -> str:
    """Autocomplete labels: units with type and hex, hexes with cost, targets with the roll."""
    air = air_label(t, action, field, value, partial, side)  # 10.0: aircraft, flak, strafing
    if air is not None:
        return air
    if field in ("unit", "target", "spotter"):
        u = t.s.find(value)
        if u is None:
            return value
        where = u.hex or "off map"
        text = f"{u.id} ({units()[u.type].name}) {where}"
        shooter = t.s.find(str(partial.get("unit") or ""))
        if field == "target" and shooter is not None and shooter.on_map and u.on_map:
            w, _ = t.best_weapon(shooter, u, action == "defend", str(partial.get("weapon") or ""))
            if w is not None:
                text += f" · needs {t.target_of(shooter, w, u).value} ({t.s.method})"
        return text
    if field in ("to", "at") and action in ("move", "enter"):
        u = t.s.find(str(partial.get("unit") or ""))
        if u is not None:
            costs = legal.move_targets(t, u) if action == "move" else legal.enter_hexes(t, u)
            if value in costs:
                crossed = legal.mines_on_way(t, u, value) if action == "move" else []
                mined = f" · through minefield {', '.join(crossed)}" if crossed else ""  # 19.1.2
                return f"{value} · {costs[value]:g} MP{mined}"
    if field == "hex" and action == "assault":
        u = t.s.find(str(partial.get("unit") or ""))
        ok = u is not None and u.side == side and value in legal.assault_hexes(t, u)
        between = resolve.charge_mines(t, u, value) if ok else []  # type: ignore[arg-type]
        if between:  # 19.1.2: the charge has no way round a known minefield
            return f"{value} · charge through minefield {between[0]}"
    return value

