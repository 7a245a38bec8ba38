"""Maschinen Krieger scenario files (issue 27): the built-in cards' text and the cross-field
checks of a card a club writes.

The card itself is :class:`rules.mak.data.ScenarioSpec`; unit types, boards and charts are the
shipped catalogues (``data/units*.json``, ``data/boards.json``), which a scenario names by key
and number.  What pydantic cannot see alone is checked here: boards and unit types that exist,
deployment codes in the book's notation ("Understanding the Scenarios" a) that parse, set-up
hexes on the map and on terrain the unit may enter (7.1.8), entry zones that start on the
edge they name and run along it (12.0), and every hex a card names (positions 12.3, depots 11.3, minefields 19.1,
scenario points O.G.P. item 3) a hex of the boards in play.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from rules.core import scenariofile
from rules.core.errors import RuleError
from rules.core.hexes import HexNumber, MapLayout, parse_number
from rules.core.scenariofile import Loc, ScenarioFormat
from rules.mak.artillery import parse_battery
from rules.mak.battlefield import expand
from rules.mak.data import BoardSpec, ScenarioSpec, UnitStats, boards, builtin_text, charts, merged_type, units
from rules.mak.deployment import parse_deploy
from rules.mak.movement import stacking_problem
from rules.mak.reach import unreachable
from rules.mak.vehicles import capacity, ride_problem

_EDGES = {"N": "north", "S": "south", "E": "east", "W": "west"}


def _hex_problem(layout: MapLayout, text: str) -> str | None:
    """Why ``text`` is not a hex of this map (``5:2099 is not a hex of board 5``), or None."""
    try:
        number = parse_number(text)
    except RuleError as exc:
        return str(exc).rstrip(".") + "."
    in_play = [p.board for p in layout.boards]
    if number.board not in in_play:
        return f"{text} is on board {number.board}, which is not in play (boards: {in_play})."
    try:
        layout.hex_of(number)
    except RuleError:
        p = layout.placement(number.board)
        return (f"{text} is not a hex of board {number.board} (columns 01-{p.columns:02d}, "
                f"rows 01-{p.rows:02d}).")
    return None


def _deploy_problems(spec: ScenarioSpec, layout: MapLayout, loc: Loc, line: Any) -> list[tuple[Loc, str]]:
    """A force line's deployment code: it parses, names boards in play, sets up on a hex the
    unit may stand on (7.1.8), enters on an edge the map has (12.0)."""
    try:
        deploy = parse_deploy(line.deploy)
    except RuleError as exc:
        return [(loc + ("deploy",), str(exc))]
    missing = [b for b in deploy.boards if b not in spec.boards]
    if missing:
        return [(loc + ("deploy",), f"{line.deploy} names board {missing[0]}, which is not in "
                 f"play (boards: {spec.boards}).")]
    if deploy.setup:
        text = f"{deploy.boards[0]}:{deploy.hex}"
        problem = _hex_problem(layout, text)
        if problem:
            return [(loc + ("deploy",), problem)]
        return _stand_problems(spec, loc, line.unit, deploy.boards[0], deploy.hex or "0000")
    out: list[tuple[Loc, str]] = []
    edge = deploy.edge or "N"
    if not line.airdrop:
        out += _inner_edge_problems(spec, loc, line.deploy, deploy.boards, edge)
    along = "▷◁" if edge in "NS" else "▽△"
    if deploy.arrow and deploy.arrow not in along:
        out.append((loc + ("deploy",), f"{line.deploy}: along the {_EDGES[edge]} edge the zone "
                    f"runs {' or '.join(along)} (east/west on N and S edges, south/north on E and W)."))
    if deploy.hex:
        board = deploy.boards[0]
        problem = _hex_problem(layout, f"{board}:{deploy.hex}")
        p = layout.placement(board)
        col, row = int(deploy.hex[:2]), int(deploy.hex[2:])
        on_edge = {"N": row == 1, "S": row == p.rows, "W": col == 1, "E": col == p.columns}[edge]
        if problem or not on_edge:
            out.append((loc + ("deploy",), f"{line.deploy}: hex {deploy.hex} is not on the "
                        f"{_EDGES[edge]} edge of board {board}; the zone starts at an edge hex "
                        f"({_edge_span(edge, p.columns, p.rows)})."))
    return out


def _edge_span(edge: str, columns: int, rows: int) -> str:
    """The hexes of a board's edge as numbers: ``north edge: 0101-2001``."""
    first, last = {"N": ((1, 1), (columns, 1)), "S": ((1, rows), (columns, rows)),
                   "W": ((1, 1), (1, rows)), "E": ((columns, 1), (columns, rows))}[edge]
    return f"{_EDGES[edge]} edge: {first[0]:02d}{first[1]:02d}-{last[0]:02d}{last[1]:02d}"


def _inner_edge_problems(spec: ScenarioSpec, loc: Loc, code: str, named: tuple[int, ...],
                         edge: str) -> list[tuple[Loc, str]]:
    """12.1: reinforcements enter the map from off it, so an entry zone lies on a map edge.
    Boards are laid west to east in the order listed: every north and south edge is a map
    edge, but a board's east edge touches the next board, and its west edge the one before."""
    west, east = spec.boards[0], spec.boards[-1]
    for board in named:
        inner = (edge == "E" and board != east) or (edge == "W" and board != west)
        if inner:
            touching = spec.boards[spec.boards.index(board) + (1 if edge == "E" else -1)]
            return [(loc + ("deploy",), f"{code}: board {board}'s {_EDGES[edge]} edge touches "
                     f"board {touching}, inside the map; reinforcements enter on a map edge "
                     f"(12.1): any board's north or south edge, board {west}'s west edge or "
                     f"board {east}'s east edge (boards are laid west to east in the order listed).")]
    return []


def catalogue(spec: ScenarioSpec) -> dict[str, UnitStats]:
    """The unit types a card may name: the shipped ones and its own (issue 46) whose stats
    are good (a bad one is named by :func:`_own_type_problems`)."""
    out = dict(units())
    for own in spec.unit_types:
        try:
            out[own.key] = merged_type(own)
        except (KeyError, ValidationError):
            continue
    return out


def _own_type_problems(spec: ScenarioSpec) -> list[tuple[Loc, str]]:
    """Issue 46: a card's own unit type has a key of its own, a shipped ``base`` (if any),
    and stats within the rulebook's ranges once merged (those of :class:`UnitStats`)."""
    shipped = units()
    out = scenariofile.duplicates([(("unit_types", i, "key"), t.key) for i, t in enumerate(spec.unit_types)],
                                  "unit type")
    for i, own in enumerate(spec.unit_types):
        loc: Loc = ("unit_types", i)
        if own.key in shipped:
            out.append((loc + ("key",), f"{own.key} is a shipped unit type; give yours a key of its "
                        f"own (say {own.key}2) with base: {own.key} to start from its stats."))
            continue
        if own.base and own.base not in shipped:
            out.append((loc + ("base",), f"'{own.base}' is not a shipped unit type;"
                        f"{scenariofile.did_you_mean(own.base, shipped)} types: "
                        f"{scenariofile.one_of(sorted(shipped), limit=30)}."))
            continue
        try:
            merged_type(own)
        except ValidationError as exc:
            for e in exc.errors(include_url=False):
                where = tuple(e["loc"])
                what = str(e["msg"]).removeprefix("Value error, ")
                if e["type"] == "missing":
                    what = ("missing; a type without base gives every stat (name, unit_class, "
                            "movement, move_form, defense, endurance)")
                out.append((loc + where, f"{what} (given {e.get('input')!r})." if e["type"] != "missing" else f"{what}."))
    return out


def _state_problems(spec: ScenarioSpec, known: dict[str, UnitStats]) -> list[tuple[Loc, str]]:
    """Issue 46: a force line's start-of-game states fit its type: no M or A result for a
    flying unit (5.1.2: it is destroyed instead), broken morale for infantry only (14.3),
    rounds fired of a weapon it carries and not more than it carries (11.2.4), booster uses
    for a unit with a booster (19.5.3)."""
    out: list[tuple[Loc, str]] = []
    for s, side in enumerate(spec.sides):
        for f, line in enumerate(side.forces):
            stats = known.get(line.unit)
            if stats is None:
                continue
            loc: Loc = ("sides", s, "forces", f)
            if (line.immobilized or line.disarmed) and stats.aeronautical:
                field = "immobilized" if line.immobilized else "disarmed"
                out.append((loc + (field,), f"a {stats.name} flies: an M or A result destroys a "
                            "flying unit (5.1.2), so it cannot start immobilised or disarmed."))
            if line.morale != "ok" and not stats.infantry:
                out.append((loc + ("morale",), f"morale is an infantry squad's (14.3); a "
                            f"{stats.name} has none to break."))
            for weapon, spent in line.fired.items():
                carried = [w for w in stats.weapons if w.type == weapon]
                limit = max((w.rounds or 0) for w in carried) if carried else 0
                if not carried:
                    out.append((loc + ("fired", weapon.value), f"a {stats.name} carries no "
                                f"{weapon.value} weapon; its weapons: "
                                f"{', '.join(w.type.value for w in stats.weapons) or 'none'}."))
                elif limit and spent > limit:
                    out.append((loc + ("fired", weapon.value), f"a {stats.name} carries "
                                f"{limit} {weapon.value} rounds (11.2.4); {spent} cannot have been fired."))
                elif not limit:
                    out.append((loc + ("fired", weapon.value), f"a {stats.name}'s {weapon.value} "
                                "has unlimited rounds; nothing to count as fired (11.2.4)."))
            if line.boosts and stats.booster is None:
                out.append((loc + ("boosts",), f"a {stats.name} has no booster (19.5.3)."))
    if spec.start.turn > spec.turns:
        out.append((("start", "turn"), f"the game has {spec.turns} turns; it cannot begin on "
                    f"turn {spec.start.turn}."))
    return out


def _transport_problems(spec: ScenarioSpec) -> list[tuple[Loc, str]]:
    """13.1: a force set up ``aboard`` a vehicle type rides the first vehicle of that type of
    its side with room (as the set-up places them, counter by counter): one that may not ride
    it (13.1.1, 13.1.5), or finds no room left, is named at its ``aboard``."""
    known = catalogue(spec)
    out: list[tuple[Loc, str]] = []
    for s, side in enumerate(spec.sides):
        room = [[line.unit, capacity(known[line.unit])] for line in side.forces if line.unit in known
                for _ in range(line.count) if capacity(known[line.unit])]
        for f, line in enumerate(side.forces):
            if not line.aboard or line.aboard not in known or line.unit not in known:
                continue
            vehicle, rider = known[line.aboard], known[line.unit]
            problem = ride_problem(vehicle, rider)
            if problem is not None:
                out.append((("sides", s, "forces", f, "aboard"), f"{problem}."))
                continue
            for n in range(line.count):
                seat = next((v for v in room if v[0] == line.aboard and v[1] >= rider.points), None)
                if seat is None:
                    carriers = sum(1 for v in room if v[0] == line.aboard)
                    out.append((("sides", s, "forces", f, "aboard"), f"the {line.count} {line.unit} "
                                f"need {rider.points} stack points each aboard, but only {n} find "
                                f"room in the side's {carriers} {line.aboard} ({capacity(vehicle)} "
                                "points each, 13.1.5); add vehicles or set some up on the map."))
                    break
                seat[1] -= rider.points
    return out


def _stacking_problems(spec: ScenarioSpec) -> list[tuple[Loc, str]]:
    """8.2: "When a phase ends ... the number of stacking points in a hex must not exceed 4"
    (and 8.2.3's NeuSpotters): the first phase ends before the second player's units can
    move, so a side's ground units set up in one hex must be within the limit.  Named at
    the deployment of the force line that goes over it."""
    known = catalogue(spec)
    out: list[tuple[Loc, str]] = []
    for s, side in enumerate(spec.sides):
        stacks: dict[str, list[UnitStats]] = {}
        for f, line in enumerate(side.forces):
            stats = known.get(line.unit)
            if stats is None or stats.aeronautical or line.aboard or not _set_up_hex(line.deploy):
                continue  # 8.2.4: flying units stack apart; 13.1: riders ride inside
            here = stacks.setdefault(line.deploy, [])
            was = stacking_problem(here)
            here += [stats] * line.count
            why = stacking_problem(here)
            if why and not was:
                out.append((("sides", s, "forces", f, "deploy"), f"{side.key}'s {len(here)} units set up "
                            f"in {line.deploy} break the stacking limit: {why}; set some up in "
                            "another hex."))
    return out


def _set_up_hex(code: str) -> bool:
    """Whether a deployment code sets a unit up in one hex (not an entry zone, 12.0)."""
    try:
        return parse_deploy(code).setup
    except RuleError:
        return False  # named by the deployment check


def _stand_problems(spec: ScenarioSpec, loc: Loc, unit_type: str, board: int,
                    number: str) -> list[tuple[Loc, str]]:
    """7.1.8: a unit set up on terrain its movement form may not enter."""
    stats = catalogue(spec).get(unit_type)
    if stats is None or stats.aeronautical:
        return []
    col, row = int(number[:2]), int(number[2:])
    terrain = "clear"
    for key, areas in _boards_of(spec)[board].terrain.items():
        for area in areas:
            if (col, row) in expand(area):
                terrain = key
    cost = charts().terrain_of(terrain).cost.get(stats.move_form)
    if cost is None:
        return [(loc + ("deploy",), f"{HexNumber(board, col, row).label()} is {terrain}, which a "
                 f"{stats.name} ({stats.move_form.value}) cannot enter (7.1.8); set it up elsewhere.")]
    return []


def _boards_of(spec: ScenarioSpec) -> dict[int, BoardSpec]:
    """The boards a card may lay: the shipped ones and its own (issue 46)."""
    return {**boards(), **{b.number: b for b in spec.own_boards}}


def _own_board_problems(spec: ScenarioSpec) -> list[tuple[Loc, str]]:
    """Issue 46: a card's own board has a number of its own (1-20, no shipped board's), and
    every terrain and hexside it names is a line of the Terrain Effects chart; the boards in
    play are all of one size, since they are laid side by side (west to east)."""
    shipped = boards()
    out = scenariofile.duplicates([(("own_boards", i, "number"), str(b.number))
                                   for i, b in enumerate(spec.own_boards)], "board number")
    terrain = {row.key for row in charts().terrain}
    sides = {row.key for row in charts().hexsides}
    for i, board in enumerate(spec.own_boards):
        loc: Loc = ("own_boards", i)
        if board.number in shipped or not 1 <= board.number <= 20:
            out.append((loc + ("number",), f"board {board.number} is "
                        f"{'a shipped board' if board.number in shipped else 'not 1-20'}; number "
                        f"yours 1-20 but not {', '.join(map(str, sorted(shipped)))} (the deployment "
                        "codes circle it: ⑦)."))
        for key, areas in board.terrain.items():
            if key not in terrain:
                out.append((loc + ("terrain", key), f"'{key}' is not a terrain of the chart;"
                            f"{scenariofile.did_you_mean(key, terrain)} terrain: "
                            f"{scenariofile.one_of(sorted(terrain), limit=30)}."))
            out += [(loc + ("terrain", key, j), why) for j, area in enumerate(areas)
                    if (why := _area_problem(area, board))]
        for field in ("elevation", "partial", "roads"):
            out += [(loc + (field, j), why) for j, area in enumerate(getattr(board, field))
                    if (why := _area_problem(area, board))]
        for j, line in enumerate(board.hexsides):
            parts = line.split()
            if len(parts) != 3 or parts[2] not in sides:
                out.append((loc + ("hexsides", j), f"'{line}' is not a hexside such as '0807 SE "
                            f"ridge'; kinds: {', '.join(sorted(sides))}."))
    known = _boards_of(spec)
    sizes = {(known[n].columns, known[n].rows) for n in spec.boards if n in known}
    if len(sizes) > 1:
        out.append((("boards",), "the boards in play are laid side by side, so they must be of "
                    f"one size; these are {', '.join(f'{c}x{r}' for c, r in sorted(sizes))}."))
    return out


def _area_problem(area: str, board: BoardSpec) -> str | None:
    """Why a board's hex or rectangle (``0405..0709``) is not on it, or None."""
    try:
        cells = expand(area)
    except (ValueError, IndexError):
        return f"'{area}' is not a hex (0405) or a rectangle (0405..0709)."
    bad = [c for c in cells if not (1 <= c[0] <= board.columns and 1 <= c[1] <= board.rows)]
    if bad:
        return (f"'{area}' leaves board {board.number} (columns 01-{board.columns:02d}, rows "
                f"01-{board.rows:02d}).")
    return None


def _side_key_problems(spec: ScenarioSpec) -> list[tuple[Loc, str]]:
    """A card has the two sides merc and strahl, once each."""
    out: list[tuple[Loc, str]] = []
    keys = [side.key for side in spec.sides]
    for s, key in enumerate(keys):
        if keys.index(key) != s:
            out.append((("sides", s, "key"), f"the side {key} is given twice; a card has the two "
                        "sides merc and strahl, once each."))
    if sorted(set(keys)) != ["merc", "strahl"]:
        missing = sorted({"merc", "strahl"} - set(keys))
        out.append((("sides",), f"a card has the two sides merc and strahl; "
                    f"{' and '.join(missing) or 'none'} missing."))
    return out


def problems(spec: ScenarioSpec) -> list[tuple[Loc, str]]:
    """Every cross-field problem of a card, with its path."""
    known_boards, known_units = _boards_of(spec), catalogue(spec)
    out: list[tuple[Loc, str]] = _own_type_problems(spec) + _own_board_problems(spec)
    if out:
        return out  # the units and the map are made of these
    for i, number in enumerate(spec.boards):
        if number not in known_boards:
            out.append((("boards", i), f"there is no board {number}; boards: "
                        f"{', '.join(map(str, sorted(known_boards)))}."))
    out += scenariofile.duplicates([(("boards", i), str(b)) for i, b in enumerate(spec.boards)], "board")
    if out:
        return out  # the map is made of the boards: nothing else can be placed
    out += _side_key_problems(spec)
    if out:
        return out  # forces are read side by side
    first = known_boards[spec.boards[0]]
    layout = MapLayout.side_by_side(spec.boards, columns=first.columns, rows=first.rows)
    for s, side in enumerate(spec.sides):
        for f, line in enumerate(side.forces):
            loc: Loc = ("sides", s, "forces", f)
            for field in ("unit", "rider", "aboard"):
                value = getattr(line, field)
                if value and value not in known_units:
                    out.append((loc + (field,), f"'{value}' is not a unit type;"
                                f"{scenariofile.did_you_mean(value, known_units)} types: "
                                f"{scenariofile.one_of(sorted(known_units), limit=30)}."))
            if line.unit in known_units:
                out += _deploy_problems(spec, layout, loc, line)
    out += _transport_problems(spec) + _stacking_problems(spec) + _state_problems(spec, known_units)
    for s, side in enumerate(spec.sides):
        for j, code in enumerate(side.artillery):
            try:
                parse_battery(code)
            except RuleError as exc:
                out.append((("sides", s, "artillery", j), str(exc)))
    for field in ("positions", "depots", "mines"):
        for hex_text in getattr(spec, field):
            problem = _hex_problem(layout, hex_text)
            if problem:
                out.append(((field, hex_text), problem))
    for i, point in enumerate(spec.points):
        problem = _hex_problem(layout, point.hex)
        if problem:
            out.append((("points", i, "hex"), problem))
    return out


#: 7.1.2: the movement form letter after a counter's movement allowance, in words.
MOVE_FORMS = {"W": "walks", "C": "crawler", "H": "hover", "T": "wheels", "I": "on foot, 14.1",
              "B": "booster", "F": "flies (10.0)"}


def describe(stats: UnitStats) -> str:
    """What a unit type is, in one line (the schema's hint and the docs' table): its class
    (2.2), movement allowance and form (7.1.2), and what it may do beyond moving and firing."""
    kind = ("aeronautical" if stats.aeronautical else "infantry squad" if stats.infantry
            else "vehicle" if stats.vehicle else "suit" if stats.unit_class == 1 else "on foot")
    move = "flies missions, no MP (10.0)" if stats.aeronautical else (
        f"{stats.movement} {'hex' if stats.move_form.value == 'I' else 'MP'} "
        f"({MOVE_FORMS[stats.move_form.value]})")
    extra = [word for word, on in (
        ("unmanned (16.0)", stats.unmanned), ("HQ, requests artillery (17.1.2)", stats.command),
        ("engineers (14.4)", stats.engineer), ("recon (17.1.2)", stats.recon),
        (f"carries {capacity(stats)} stack points (13.1.5)", capacity(stats)),
        ("carries a rider (10.6)", stats.rider),
        (f"booster {stats.booster}B (19.5.3)", stats.booster)) if on]
    return ", ".join([f"{stats.name}: Type {'I' * stats.unit_class} {kind}", move, *extra])


def unit_type_table() -> str:
    """The unit types as the Markdown table of docs/scenarios.md (a test keeps them equal)."""
    rows = ["| type | what it is | movement (7.1.2) and more |", "|---|---|---|"]
    for key, stats in sorted(units().items()):
        name, rest = describe(stats).split(": ", 1)
        kind, more = rest.split(", ", 1)
        rows.append(f"| `{key}` | {name}, {kind} | {more} |")
    return "\n".join(rows)


def _schema_extra(schema: dict[str, Any]) -> None:
    """The unit types and boards as enums (with a line on each type), so an editor completes
    ``unit: AF`` to ``AFS`` and says what it is; the checks still give the sentence."""
    known = units()
    types = sorted(known)
    hints = [describe(known[t]) for t in types]
    carriers = sorted(k for k, u in known.items() if capacity(u))
    forces = schema["$defs"]["Deployment"]["properties"]
    forces["unit"] = {"title": "Unit", "type": "string", "enum": types, "enumDescriptions": hints,
                      "description": "A unit type; docs/scenarios.md lists each with its movement."}
    forces["rider"] = {"title": "Rider", "default": None, "anyOf": [
        {"type": "string", "enum": types, "enumDescriptions": hints}, {"type": "null"}],
        "description": "10.6: the unit a PK41 Hornisse carries as it enters."}
    forces["aboard"] = {"title": "Aboard", "type": "string", "default": "", "enum": ["", *carriers],
                        "description": "13.1: a transport type this force sets up in."}
    forces["deploy"]["description"] = ("The book's notation: 1⑤N▷1801 enters on turn 1 by board 5's "
                                       "north edge from hex 1801 east; ⑤0606 sets up in hex 0606.")
    boards_in_play = sorted(boards())
    schema["properties"]["boards"]["items"] = {"type": "integer", "enum": boards_in_play}


#: The file format of a Maschinen Krieger scenario card (issue 27).
FORMAT = ScenarioFormat(
    model=ScenarioSpec, builtin=builtin_text, problems=problems,
    units=lambda data: scenariofile.count(data, "sides.forces"),
    schema_extra=_schema_extra,
    reachable=lambda spec: unreachable(spec, catalogue(spec)),  # issue 46: hold points
)
