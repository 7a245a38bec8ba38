"""Maschinen Krieger as a :class:`~rules.core.contract.GameSystem` (part 1: the ground war).

A turn (4.0, ``turn.py``): the air commitment phase (when aircraft fly: ``commit``, then
``commit`` alone when done, then the dog-fight; ``air_orders.py``), the first player's phase,
the second player's phase, the end of the turn.  In a phase the phase player enters reinforcements, moves, fires, fires indirect and assaults, then ``end``s.  The
anti-phase player is asked for defensive attacks whenever a rule offers them (a target that
survived an attack from within 3 hexes and its stack, 5.4; a unit moving next to theirs,
7.2.4; an assault on their hex, 9.1-9.2): ``defend`` or ``pass``.  Where close quarters pin
some of those units, the phase player first names the unpinned ones (``unpin``, 9.4.3).

The orders are declared in the modules of ``order_modules``; this class holds the system's
metadata and the contract's questions (where the game stands, what each side sees).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from random import Random
from typing import Any, Literal

from pydantic import Field

from rules.core import evaluation
from rules.core.contract import Action, GameOptions, GameSystem, Step, Turn
from rules.core.dice import Dice
from rules.core.errors import RuleError
from rules.core.orders import Ctx, OrderRule
from rules.core.playout import PlayoutHints
from rules.core.views import HexMapView
from rules.mak import actions as A
from rules.mak import air_orders, concealment, cqc, ground_orders, land_orders, legal, resolve, secret_orders
from rules.mak import special_actions as S
from rules.mak import observe, special_orders, unseen, victory
from rules.mak.air_actions import AIR_ACTIONS
from rules.mak.air_orders import air_label, air_phase, air_status, setup_crews
from rules.mak.artillery import make_batteries
from rules.mak.battlefield import battlefield, field_key
from rules.mak.data import SCENARIOS, own_type_key, scenario, unit_stats
from rules.mak.deployment import entry_hexes, parse_deploy
from rules.mak.opening import begin_at, starting_state
from rules.mak.land_actions import LAND_ACTIONS
from rules.mak.minefields import may_lie_unfound
from rules.mak.refusals import refuse
from rules.mak.reveals import reveal_words
from rules.mak.scenario import FORMAT as SCENARIO_FORMAT
from rules.mak.secret_actions import SECRET_ACTIONS
from rules.mak.secret_orders import setup_line, setup_sides
from rules.mak.special import map_status
from rules.mak.special_orders import labels
from rules.mak.state import SIDE_NAMES, SIDES, MakState, Minefield, Position, UnitState, other
from rules.mak.table import Table
from rules.mak.transport import board_at_setup
from rules.mak.turn import begin_play
from rules.mak.unseen import masked
from rules.mak.view import build_view

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


class MaschinenKrieger(GameSystem[MakState]):
    """Maschinen Krieger on geomorphic hex boards: the troop phase's orders (``ground_orders``),
    the air war and the pilots (``air_orders``), vehicles (``land_orders``), close quarters
    fought out, engineers, smoke, the AMU (``special_orders``), minefields laid at set-up and
    concealment (``secret_orders``); concealment guards every order (``resolve_order``)."""

    key = "mak"
    title = "Maschinen Krieger"
    #: The rules version (rules/mak/CHANGELOG.md: bump it with a line there).
    rules_version = 2
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
    order_modules = (ground_orders, air_orders, land_orders, special_orders, secret_orders)

    # -- setup -------------------------------------------------------------------------------

    def start(self, scenario_key: str, options: Any, dice: Dice) -> Step:
        """Set up ``scenario_key``: units placed or waiting by their deployment codes."""
        spec = scenario(scenario_key)
        field = battlefield(tuple(spec.boards), field_key(spec.key))
        made: list[UnitState] = []
        for side in spec.sides:
            letter = side.key[0].upper()
            counts: dict[str, int] = {}
            for line in side.forces:
                deploy = parse_deploy(line.deploy)
                own = {t.key for t in spec.unit_types}
                kind = own_type_key(spec.key, line.unit) if line.unit in own else line.unit
                for _ in range(line.count):
                    counts[line.unit] = counts.get(line.unit, 0) + 1
                    u = UnitState(id=f"{letter}-{line.unit}{counts[line.unit]}", type=kind,
                                  side=side.key, deploy=line.deploy, airdrop=line.airdrop,
                                  **starting_state(line))
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
        begin_at(state, spec.start.turn, spec.start.phase)  # issue 46: a later turn or phase
        state.setup = setup_sides(state)  # type: ignore[assignment]
        if state.setup:  # 19.1, 15.0: both sides lay and hide before the first phase
            ctx.say("setup", setup_line(state), "19.1")
        else:
            begin_play(ctx)
        return self.make_step(state, ctx.events, snapshot=True)

    # -- where the game stands -----------------------------------------------------------------

    def in_setup(self, state: MakState) -> bool:
        """19.1, 15.0: minefields laid and concealment markers placed before the first phase."""
        return bool(state.setup)

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

    def observe(self, state: MakState, side: str) -> MakState:
        """What ``side`` may know (``observe.py``): the enemy's unfound minefields, secret air
        duties and which units its markers cover blanked (19.1.1, 10.1.1, 15.4.1)."""
        return observe.observe(state, side)

    def determinize(self, observed: MakState, side: str, rng: Random) -> MakState:
        """The enemy's secrets guessed again, consistently with the observation (``observe.py``)."""
        return observe.determinize(observed, side, rng)

    def answers_in_public(self, state: MakState) -> bool:
        """Not with concealment on: an answer's label names the unit under a marker and its
        type (15.4.1); orders are built privately with /game act instead."""
        return state.concealment is None

    #: A revealed minefield, marker or duty in players' words (19.1.1, 15.4.1, 10.1.1).
    secret_words = staticmethod(reveal_words)

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

    def evaluate(self, state: MakState, side: str) -> float:
        """The O.G.P. (:meth:`score`): the result once over, else the lead in points."""
        score = self.score(state)
        if state.over:
            tied = score["merc"] == score["strahl"]
            return evaluation.final(None if tied else max(score, key=lambda s: score[s]), side)
        return evaluation.lead(score[side], score[other(side)], 3.0)

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
        (Concealment's lifts and masking end each order's resolution: ``resolve_order``.)"""
        if isinstance(action, (A.Enter, A.Move, A.Assault)) and may_lie_unfound(ctx.state, other(ctx.side)):
            # 19.1.2: a move over ground where an enemy minefield may lie told its player that
            # none was on its way; taking it back would let a path be tried for free (the
            # strict undo rule: no undo once new information may have come out).  "May", by
            # what both sides know: whether one still lies unfound is the secret (issue 45).
            ctx.reveals = True
        for m in ctx.state.marks:
            if m.order == 0:
                m.order = ctx.state.orders + 1
        ctx.state.orders += 1
        ctx.state.marks = ctx.state.marks[-8:]
        for label, pos in ctx.state.positions.items():  # 12.3: a position left empty is free
            if pos.holder and not any(u.side == pos.holder for u in ctx.state.at(label)):
                pos.holder = None

    def resolve_order(self, rule: OrderRule, ctx: MakCtx, action: Action) -> None:
        """15.4.1: with concealment in use, an order naming an unseen enemy unit is refused
        before the rules look at it (their sentences would say where or what it is), and each
        order ends with concealment's lifts and masking (``unseen.after_order``)."""
        if ctx.state.concealment is None:
            rule.run(ctx, action)
            return
        refuse(unseen.unseen_problem(ctx.state, ctx.side, action) or unseen.as_unknown(rule, ctx, action))
        start = len(ctx.dice.rolls)  # the rolls of this order only (a Dice may serve many)
        rule.run(ctx, action)
        unseen.after_order(Table(ctx.state), ctx, action, start)

    def offers_of(self, rule: OrderRule, state: MakState, side: str) -> Iterable[Action]:
        """15.4.1: the orders offered for a unit under its own concealment marker name the
        marker (what its player types; sealed orders name the units, their options are never
        shown)."""
        offered = rule.offered(state, side)
        if state.concealment is None or rule.action.sealed:
            return offered
        return (unseen.as_marker(state, o) for o in offered)

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
        return _unit_label(t, action, field, value, partial)
    if field in ("to", "at") and action in ("move", "enter"):
        return _move_label(t, action, value, partial)
    if field == "hex" and action == "assault":
        return _assault_label(t, side, value, partial)
    return value


def _unit_label(t: Table, action: str, field: str, value: str, partial: dict[str, Any]) -> str:
    """A unit with its type and hex; a target with the roll the chosen shooter needs."""
    u = t.s.find(value)
    if u is None:
        return value
    where = u.hex or "off map"
    text = f"{u.id} ({unit_stats(u.type).name}) {where}"
    shooter = t.s.find(str(partial.get("unit") or ""))
    if field == "target" and shooter is not None and shooter.on_map and u.on_map:
        w, _ = t.best_weapon(shooter, u, action == "defend", str(partial.get("weapon") or ""))
        if w is not None:
            text += f" · needs {t.target_of(shooter, w, u).value} ({t.s.method})"
    return text


def _move_label(t: Table, action: str, value: str, partial: dict[str, Any]) -> str:
    """A hex to move or enter with its cost in MP and the minefields on the way (19.1.2)."""
    u = t.s.find(str(partial.get("unit") or ""))
    if u is None:
        return value
    costs = legal.move_targets(t, u) if action == "move" else legal.enter_hexes(t, u)
    if value not in costs:
        return value
    crossed = legal.mines_on_way(t, u, value) if action == "move" else []
    mined = f" · through minefield {', '.join(crossed)}" if crossed else ""  # 19.1.2
    return f"{value} · {costs[value]:g} MP{mined}"


def _assault_label(t: Table, side: str, value: str, partial: dict[str, Any]) -> str:
    """19.1.2: a hex to assault, with the known minefield the charge has no way round."""
    u = t.s.find(str(partial.get("unit") or ""))
    if u is None or u.side != side or value not in legal.assault_hexes(t, u):
        return value
    between = resolve.charge_mines(t, u, value)
    return f"{value} · charge through minefield {between[0]}" if between else value
