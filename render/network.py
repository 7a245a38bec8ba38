"""The point-to-point snapshot: spaces, routes, forces, tracks and the battle panel.

Layout, top to bottom: the header strip; the tracks (alert, Ops left, RP) as rows of boxes;
the network scaled to the image width; the battle panel (one line against the other,
each unit's die and result, the Tactical Edge); the legend.

Spaces are drawn by type (a circle; a square for a staging area) with tags for airfields
and ports, so type does not rest on colour.  Route kinds differ by pattern: roads solid,
water dashed, air dotted.  Forces are chip stacks placed near their space, clear of every
other label, with a leader line back to the space.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Callable, Mapping, NamedTuple

from PIL import Image

from render.caches import held
from render.changes import change_entries, draw_change_tags
from render.chrome import (
    CHIP_LABEL,
    Chip,
    LegendEntry,
    draw_chip,
    draw_pill,
    header_height,
    mark_entries,
    pill_width,
    note_entries,
    side_entries,
    terrain_entries,
)
from render.layout import Box, Layout, Placer, Snapshot
from render.marks import draw_mark_labels, draw_mark_line, head_box, place_mark_labels
from render.registry import renderer
from render.scene import PanelFn, Scene, Sheet, for_focus, put_header
from render.style import (
    BIG,
    BODY,
    MARGIN,
    PALETTE,
    RGB,
    SCALE,
    SMALL,
    WIDTH,
    Canvas,
    Frame,
    SideBook,
    Surface,
    clean,
    colour,
    fit_text,
    fixed_palette,
    ink_on,
    shade,
    tint,
    wrap,
)
from render.vocab import StyleBook
from rules.core.views import (
    BattlePanel,
    BattleShot,
    ForceView,
    Mark,
    NetworkView,
    SpaceView,
    Track,
    UnitChip,
)

Point = tuple[float, float]

SPACE_R = 15.0
TRACK_ROW = 36.0
TRACK_BOX = 30.0
BATTLE_ROW = 56.0
FORCE_HEAD = 26.0
#: How far a force's box may be pushed from its space (rings of 10 px); beyond, it goes to
#: the strip under the map, named with its space.
FORCE_RINGS = 9


def unit_chip(unit: UnitChip, book: SideBook, width: float | None = None) -> Chip:
    """A force member's chip: name, and its detail (combat, gear) cut to fit."""
    detail = clean(unit.detail)
    if width is not None and detail:
        detail = fit_text(detail, SMALL, width)
    return Chip(id=unit.id, label=clean(unit.label) or unit.id, look=book.look(unit.faction),
                status=detail, eliminated=unit.eliminated)


def space_tags(space: SpaceView) -> list[str]:
    """Words for a space's type: staging area, airfield, port."""
    return [word for word, on in (("staging", space.staging), ("airfield", space.airfield),
                                  ("port", space.port)) if on]


# -- tracks -------------------------------------------------------------------------------------


def track_width(track: Track) -> float:
    """Width of one track row."""
    label_w = Canvas.text_size(clean(track.label), BODY)[0] + 12
    if track.maximum is None or track.maximum - track.minimum > 12:
        return label_w + pill_width(str(track.value), BIG) + 8
    return label_w + (track.maximum - track.minimum + 1) * (TRACK_BOX + 4)


def track_box(track: Track, x: float, cy: float) -> Box:
    """Where :func:`draw_track` draws (its label, then its boxes or its pill)."""
    w = track_width(track) - (8 if track.maximum is None or track.maximum - track.minimum > 12 else 4)
    return (x, cy - TRACK_BOX / 2, x + w, cy + TRACK_BOX / 2)


def draw_track(canvas: Canvas, track: Track, x: float, cy: float) -> Box:
    """A track as numbered boxes with the current value filled (or a number if open-ended)."""
    label = clean(track.label)
    canvas.text((x, cy), label, BODY, PALETTE["ink"], anchor="lm", bold=True)
    bx = x + Canvas.text_size(label, BODY)[0] + 12
    if track.maximum is None or track.maximum - track.minimum > 12:
        draw_pill(canvas, bx, cy, str(track.value), "objective_secondary", BIG)
        return (x, cy - TRACK_BOX / 2, bx + pill_width(str(track.value), BIG), cy + TRACK_BOX / 2)
    for v in range(track.minimum, track.maximum + 1):
        box = (bx, cy - TRACK_BOX / 2, bx + TRACK_BOX, cy + TRACK_BOX / 2)
        on = v == track.value
        canvas.rect(box, fill=PALETTE["header"] if on else PALETTE["paper"],
                    outline=PALETTE["ink"], width=2.5 if on else 1.2, radius=4)
        canvas.text((bx + TRACK_BOX / 2, cy), str(v), SMALL,
                    PALETTE["header_ink"] if on else PALETTE["ink_soft"], anchor="mm", bold=on)
        bx += TRACK_BOX + 4
    return (x, cy - TRACK_BOX / 2, bx - 4, cy + TRACK_BOX / 2)


def tracks_layout(tracks: list[Track], top: float) -> list[tuple[Track, float, float]]:
    """(track, x, centre y) for each track, flowing left to right and wrapping."""
    out = []
    x, y = float(MARGIN), top + TRACK_ROW / 2 + 6
    for track in tracks:
        w = track_width(track)
        if x > MARGIN and x + w > WIDTH - MARGIN:
            x, y = float(MARGIN), y + TRACK_ROW
        out.append((track, x, y))
        x += w + 28
    return out


# -- battle panel -------------------------------------------------------------------------------


def draw_die(canvas: Surface, cx: float, cy: float, value: int | None, size: float = 34) -> None:
    """A die face with pips (a number if it is not 1-6, a dash if not rolled yet)."""
    half = size / 2
    canvas.rect((cx - half, cy - half, cx + half, cy + half), fill=PALETTE["paper"],
                outline=PALETTE["ink"], width=2, radius=6)
    pips = {
        1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
        4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
        6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
    }
    if value in pips:
        for px, py in pips[value]:
            canvas.ellipse(cx + px * size * 0.26, cy + py * size * 0.26, size * 0.09,
                           fill=PALETTE["ink"])
    else:
        canvas.text((cx, cy), "-" if value is None else str(value), BODY, PALETTE["ink"], anchor="mm")


SHOT_W = 230.0  # the die and the result words beside each unit of a battle line


def _battle_columns(panel: BattlePanel, width: float) -> int:
    """Side by side when both lines fit with their dice and words, else one under the other."""
    return 2 if width >= 1000 and len(panel.lines) == 2 else 1


def _shot_words(shot: BattleShot) -> str:
    words = clean(shot.result)
    if shot.target and clean(shot.target) not in words:
        words = f"{words} ({clean(shot.target)})" if words else clean(shot.target)
    return words


def battle_rows(panel: BattlePanel, width: float) -> list[tuple[int, int, float]]:
    """(line index, unit index, row height) of each unit row, in drawing order.  A row is as
    tall as its result words need: they wrap, never cut short."""
    shots = {shot.unit: shot for shot in panel.shots}
    cols = _battle_columns(panel, width)
    words_w = SHOT_W - 44
    out = []
    for li, line in enumerate(panel.lines):
        for ui, unit in enumerate(line.units):
            shot = shots.get(unit.id)
            n = len(wrap(_shot_words(shot), SMALL, words_w)) if shot else 1
            out.append((li, ui, max(BATTLE_ROW, 12 + n * 21)))
    del cols
    return out


EARLIER_ROW = 22.0


def earlier_lines(panel: BattlePanel, width: float) -> list[str]:
    """The rounds fought earlier in the same order, wrapped to the panel (never cut)."""
    return [part for text in panel.earlier for part in wrap(clean(text), SMALL, width - 2 * MARGIN)]


def battle_height(panel: BattlePanel | None, width: float = WIDTH) -> float:
    """Height of the battle panel at ``width``."""
    if panel is None:
        return 0.0
    rows = battle_rows(panel, width)
    if _battle_columns(panel, width) == 2:
        per = [sum(h for li, _, h in rows if li == k) for k in range(2)]
        body = max(per + [BATTLE_ROW])
    else:
        body = sum(h for _, _, h in rows) + 30 * len(panel.lines) + (40 if panel.tactical_edge else 0)
    earlier = earlier_lines(panel, width)
    return 14 + 40 + body + 12 + (EARLIER_ROW * len(earlier) + 8 if earlier else 0)


def draw_battle(canvas: Surface, panel: BattlePanel, top: float, book: SideBook,
                space_name: str, layout: Layout) -> None:
    """Both lines (side by side, or one under the other on a narrow picture), each unit's die
    and what it did, and who holds the Edge."""
    width = canvas.width
    height = battle_height(panel, width)
    box = (0.0, top, float(width), top + height)
    canvas.rect(box, fill=PALETTE["panel"])
    canvas.line([(0, top), (width, top)], PALETTE["grid"], 1.5)
    title = f"Battle: {clean(space_name)}, round {panel.round}"
    canvas.text((MARGIN, top + 14 + 14), fit_text(title, BIG, width - 2 * MARGIN), BIG,
                PALETTE["ink"], anchor="lm", bold=True)
    y_title = top + 44
    edge = panel.tactical_edge
    if edge:
        look = book.look(edge)
        text = f"Edge: {clean(look.label)}"
        w = Canvas.text_size(text, BODY)[0]
        two = _battle_columns(panel, width) == 2
        ex = width - MARGIN - w - 40 if two else MARGIN
        ey = top + 12 if two else top + 46
        canvas.rect((ex, ey, ex + w + 40, ey + 32),
                    fill=PALETTE["objective_secondary"], outline=PALETTE["edge"], width=2, radius=6)
        canvas.badge(ex + 16, ey + 16, 20, look)
        canvas.text((ex + 32, ey + 16), text, BODY, PALETTE["ink"], anchor="lm", bold=True)
        if not two:
            y_title = ey + 36
    shots = {shot.unit: shot for shot in panel.shots}
    cols = _battle_columns(panel, width)
    col_w = width / cols
    ys = [top + 54.0] * cols if cols == 2 else [y_title + 6]
    for li, ui, row_h in battle_rows(panel, width):
        line = panel.lines[li]
        col = li if cols == 2 else 0
        x0 = MARGIN + col * col_w
        if cols == 1 and ui == 0:
            head = f"{clean(line.label)}"
            canvas.text((x0, ys[col] + 12), head, BODY, PALETTE["ink"], anchor="lm", bold=True)
            ys[col] += 30
        unit = line.units[ui]
        y = ys[col]
        chip = unit_chip(unit, book, col_w - 2 * MARGIN - SHOT_W - 70)
        draw_chip(canvas, chip, x0, y)
        layout.add("battle_unit", unit.id, (x0, y, x0 + chip.size[0], y + chip.size[1]),
                   parent=line.faction, text=CHIP_LABEL)
        shot = shots.get(unit.id)
        if shot is not None:
            dx = x0 + col_w - 2 * MARGIN - SHOT_W
            cy = y + chip.size[1] / 2
            draw_die(canvas, dx + 17, y + 17 + 3, shot.die)
            lines = wrap(_shot_words(shot), SMALL, SHOT_W - 44)
            for k, text in enumerate(lines):
                canvas.text((dx + 40, y + 13 + k * 21), text, SMALL, PALETTE["ink"], anchor="lm",
                            bold="hit" in text.lower())
            del cy
        ys[col] += row_h
    earlier = earlier_lines(panel, width)
    bottom = top + height - 8 - (EARLIER_ROW * len(earlier) + 8 if earlier else 0)
    if cols == 2:
        canvas.line([(col_w, top + 50), (col_w, bottom)], PALETTE["grid"], 2)
    for k, text in enumerate(earlier):  # the dice of the rounds before, fought in this order
        canvas.text((MARGIN, bottom + 8 + EARLIER_ROW * (k + 0.5)), text, SMALL, PALETTE["ink"], anchor="lm")
    layout.add("battle", panel.space, box)


# -- the map ------------------------------------------------------------------------------------


def draw_space(canvas: Canvas, space: SpaceView, p: Point, book: StyleBook) -> None:
    """A space: circle, or square for a staging area; a runway bar for an airfield."""
    fill = colour(book.terrain(space.terrain).fill, "clear")
    edge = PALETTE["ink"]
    x, y = p
    r = SPACE_R
    if space.staging:
        canvas.rect((x - r, y - r, x + r, y + r), fill=fill, outline=edge, width=3, radius=3)
    else:
        canvas.ellipse(x, y, r, fill=fill, outline=edge, width=2.5)
    if space.airfield:
        canvas.line([(x - r + 5, y + r - 5), (x + r - 5, y - r + 5)], edge, 4)
    if space.port:
        canvas.ellipse(x, y, r - 6, outline=colour("water"), width=3)


def place_names(view: NetworkView, pos: dict[str, Point],
                placer: Placer) -> tuple[dict[str, Box], dict[str, Box]]:
    """Each space's name (below, above, right or left of it) and objective tile."""
    name_boxes: dict[str, Box] = {}
    for space in view.spaces:
        name = clean(space.name) or space.id
        w, h = Canvas.text_size(name, BODY)
        x, y = pos[space.id]
        size = (w + 8, h + 2)
        cands = [(x - size[0] / 2, y + SPACE_R + 3, x + size[0] / 2, y + SPACE_R + 3 + size[1]),
                 (x - size[0] / 2, y - SPACE_R - 3 - size[1], x + size[0] / 2, y - SPACE_R - 3),
                 (x + SPACE_R + 4, y - size[1] / 2, x + SPACE_R + 4 + size[0], y + size[1] / 2),
                 (x - SPACE_R - 4 - size[0], y - size[1] / 2, x - SPACE_R - 4, y + size[1] / 2)]
        box = placer.place(cands) or placer.place_near((x, y + SPACE_R + 14), size)
        name_boxes[space.id] = box
    tag_boxes: dict[str, Box] = {}
    for space in view.spaces:
        if space.objective is None:
            continue
        text = "?" if space.objective == "?" else clean(space.objective)
        w = Canvas.text_size(text, BODY)[0] + 14
        x, y = pos[space.id]
        size = (max(w, 28), 28)
        cands = [(x + SPACE_R + 2, y - SPACE_R - 26, x + SPACE_R + 2 + size[0], y - SPACE_R + 2),
                 (x - SPACE_R - 2 - size[0], y - SPACE_R - 26, x - SPACE_R - 2, y - SPACE_R + 2)]
        tag_boxes[space.id] = placer.place(cands) or placer.place_near((x, y - SPACE_R - 20), size)
    return name_boxes, tag_boxes


def render_network(view: NetworkView) -> Snapshot:
    """Draw a :class:`NetworkView` (the full picture)."""
    return network_scene(view).snapshot()


def draw_routes(canvas: Canvas, view: NetworkView, pos: dict[str, Point]) -> None:
    """Roads solid, tracks dashed (pattern as well as weight), water and air routes."""
    for route in view.routes:
        if route.a not in pos or route.b not in pos:
            continue
        a, b = pos[route.a], pos[route.b]
        if route.kind == "water":
            canvas.dashed([a, b], shade(PALETTE["water"], 0.2), 5, dash=14, gap=8)
        elif route.kind == "air":
            canvas.dashed([a, b], PALETTE["ink_soft"], 3, dash=4, gap=7)
        elif route.kind == "road":
            canvas.line([a, b], shade(PALETTE["road"], 0.3), 8)
            canvas.line([a, b], PALETTE["road"], 5)
        else:
            # Tracks and any other kind: a thinner dashed line, so it differs from a road
            # in pattern as well as weight.
            canvas.dashed([a, b], shade(PALETTE["road"], 0.15), 3, dash=9, gap=6)


@held(maxsize=8)
def _static_routes(key: str, map_top: float) -> tuple[Image.Image, int]:
    """The map's ground and routes at drawing scale, from final row ``y0`` down (cached by
    the map and where it starts): ``(image, y0)``."""
    shown = json.loads(key)
    # The key holds only what this layer shows (see :func:`static_key`): the spaces' other
    # fields are filled with blanks, which draw_routes never reads.
    shown["spaces"] = [{**space, "name": "", "terrain": ""} for space in shown["spaces"]]
    view = NetworkView.model_validate({**shown, "header": {"title": ""}})
    scale = (WIDTH - 2 * MARGIN) / view.width
    map_box: Box = (MARGIN, map_top, WIDTH - MARGIN, map_top + view.height * scale)
    pos = {s.id: (MARGIN + s.position[0] * scale, map_top + s.position[1] * scale) for s in view.spaces}
    y0 = math.floor(map_top) - 4
    canvas = Canvas(WIDTH, math.ceil(map_box[3]) + 4 - y0, origin=(0.0, float(y0)))
    canvas.rect(map_box, fill=tint(PALETTE["clear"], 0.4), outline=PALETTE["grid"], width=1.5)
    draw_routes(canvas, view, pos)
    return canvas.image, y0


def static_key(view: NetworkView) -> str:
    """What the map's static layer shows, as its cache key: the map's size, the routes and
    where each space is.  Not the spaces' names, terrain or objectives, which are drawn
    over it: an objective revealed or taken made a new key, and the whole layer (at
    drawing scale) was drawn again for one focus picture in seven (issue 41)."""
    return view.model_dump_json(include={"width": True, "height": True, "routes": True,
                                         "spaces": {"__all__": {"id", "position"}}})


@held(maxsize=8)
def _static_small(key: str, map_top: float) -> Image.Image:
    """:func:`_static_routes` reduced to final size (pasted under every picture of the map)."""
    return _static_routes(key, map_top)[0].reduce(SCALE)


@held(maxsize=8)
def _network_palette(key: str, map_top: float, colours: tuple[RGB, ...]) -> Image.Image:
    """The fixed palette of a map's pictures (see :func:`render.style.fixed_palette`)."""
    return fixed_palette(_static_small(key, map_top), colours)


@dataclass(frozen=True)
class NetBoard:
    """Where the tracks and the network lie in the picture (final pixels)."""

    book: StyleBook
    tracks: list[tuple[Track, float, float]]
    top: float
    scale: float
    box: Box
    pos: dict[str, Point]

    def points(self, mark: Mark) -> list[Point]:
        """A mark's points on the board."""
        return [(MARGIN + px * self.scale, self.top + py * self.scale) for px, py in mark.points]


class ForceBlock(NamedTuple):
    """A force's block: its chips under a head naming it, at ``box``."""

    force: ForceView
    chips: list[Chip]
    box: Box
    head: str


@dataclass(frozen=True)
class ForcePlan:
    """The forces' blocks (by their space, else in the strip under the map) and where the
    battle panel starts, under the strip."""

    blocks: list[ForceBlock]
    battle_top: float


@renderer("network")
def network_scene(view: NetworkView) -> Scene:
    """Lay out and draw a :class:`NetworkView`; see the module docstring for the layout.

    The stages: the board; the names, tiles and forces placed clear of the spaces and the
    arrowheads; the picture composed from them."""
    board = _layout_board(view)
    # Fixed things first: the spaces themselves; then names, objective tiles, forces.
    placer = Placer(board.box, [(x - SPACE_R - 2, y - SPACE_R - 2, x + SPACE_R + 2, y + SPACE_R + 2)
                                for x, y in board.pos.values()])
    # Names and forces keep clear of where the last move's arrowheads land.
    for mark in view.marks:
        pts = trim_end(board.points(mark), SPACE_R - 4)
        if len(pts) > 1:
            placer.claim(head_box(pts[-2], pts[-1], length=26, half=10))
    name_boxes, tag_boxes = place_names(view, board.pos, placer)
    names = {s.id: clean(s.name) or s.id for s in view.spaces}
    forces = _place_forces(view, board, placer, names)
    sheet = Sheet.open(legend(view, board.book), forces.battle_top + battle_height(view.battle))
    canvas, layout = sheet.frame, sheet.layout
    put_header(canvas, view.header, layout)
    for track, x, y in board.tracks:
        tbox = track_box(track, x, y)
        canvas.piece(("track", track.model_dump_json()), tbox, lambda c: draw_track(c, track, x, y))
        layout.add("track", clean(track.label), tbox)
    # The map's ground and routes are drawn once per map and position (cached, at drawing
    # scale) and pasted: the same pixels as drawing them here.
    key = static_key(view)
    canvas.put(_static_small(key, board.top), 0, _static_routes(key, board.top)[1])
    for mark in view.marks:
        draw_mark_line(canvas, mark, trim_end(board.points(mark), SPACE_R - 4), part="line", book=board.book)
    _draw_spaces(canvas, layout, view, board, name_boxes, tag_boxes)
    _draw_forces(canvas, layout, view, board, forces)
    # Heads over names and forces: where a force went must show.
    for mark in view.marks:
        draw_mark_line(canvas, mark, trim_end(board.points(mark), SPACE_R - 4), part="head", book=board.book)
    labels = place_mark_labels(view.marks, [board.points(m) for m in view.marks], placer,
                               lambda pts: pts[len(pts) // 2], rings=20)
    draw_mark_labels(canvas, labels, board.book, layout)
    if view.battle is not None and not for_focus():  # a focus picture draws its own
        draw_battle(canvas, view.battle, forces.battle_top, board.book,
                    names.get(view.battle.space, view.battle.space), layout)
    scene = sheet.close(view.header, view.banner, board.book, board.box, focus_boxes(view, layout, board.pos),
                        panel=battle_panel_fn(view, board.book, names), extras=strip_extras(view, layout))
    scene.frame.palette = _network_palette(key, board.top, board.book.colours())
    return scene


def _layout_board(view: NetworkView) -> NetBoard:
    """The tracks under the header, then the network scaled to the picture's width."""
    book = StyleBook.of(view)
    for force in view.forces:
        book.look(force.faction)
    top = header_height(view.header, WIDTH)
    placed_tracks = tracks_layout(view.tracks, top)
    tracks_h = (max(y for _, _, y in placed_tracks) - top + TRACK_ROW / 2 + 6) if placed_tracks else 0
    map_top = top + tracks_h + MARGIN
    scale = (WIDTH - 2 * MARGIN) / view.width
    map_box: Box = (MARGIN, map_top, WIDTH - MARGIN, map_top + view.height * scale)
    pos = {s.id: (MARGIN + s.position[0] * scale, map_top + s.position[1] * scale) for s in view.spaces}
    return NetBoard(book, placed_tracks, map_top, scale, map_box, pos)


def _force_size(chips: list[Chip], head: str) -> tuple[float, float]:
    """A force block's size: its widest chip or head, its chips' heights and the head's."""
    w = max([c.size[0] for c in chips] + [Canvas.text_size(head, BODY)[0] + 12])
    return w, sum(c.size[1] for c in chips) + FORCE_HEAD


def _place_forces(view: NetworkView, board: NetBoard, placer: Placer, names: dict[str, str]) -> ForcePlan:
    """Each force near its own space or not on the map at all (a force drawn beside another
    space reads as being there): the strip under the map, named with its space."""
    blocks: list[ForceBlock] = []
    overflow: list[tuple[ForceView, list[Chip], str]] = []
    for force in view.forces:
        if not force.units:
            continue
        chips = [unit_chip(u, board.book, 300) for u in force.units]
        if force.space not in board.pos:
            overflow.append((force, chips, f"{clean(force.id)} at {clean(force.space)}"))
            continue
        # The force's id heads its block: it is what a player types (move force:F1).
        head = clean(force.id)
        w, h = _force_size(chips, head)
        x, y = board.pos[force.space]
        box = placer.search((x + SPACE_R + 12 + w / 2, y + h / 2 - 10), (w, h), step=10,
                            rings=FORCE_RINGS)
        if placer.free(box):
            blocks.append(ForceBlock(force, chips, placer.claim(box), head))
        else:
            # No room near its space: the force goes to the strip under the map rather than
            # on top of another label.
            overflow.append((force, chips, f"{head} at {names[force.space]}"))
    strip_top = board.box[3] + MARGIN
    x, row_top, row_h = float(MARGIN), strip_top, 0.0
    for force, chips, head in overflow:
        w, h = _force_size(chips, head)
        if x > MARGIN and x + w > WIDTH - MARGIN:
            x, row_top, row_h = float(MARGIN), row_top + row_h + 8, 0.0
        blocks.append(ForceBlock(force, chips, (x, row_top, x + w, row_top + h), head))
        x += w + 10
        row_h = max(row_h, h)
    return ForcePlan(blocks, (row_top + row_h + MARGIN) if overflow else strip_top)


def _draw_spaces(canvas: Frame, layout: Layout, view: NetworkView, board: NetBoard,
                 name_boxes: dict[str, Box], tag_boxes: dict[str, Box]) -> None:
    """The spaces (cached pieces), then their names and objective tiles."""
    for space in view.spaces:
        x, y = board.pos[space.id]
        fill = colour(board.book.terrain(space.terrain).fill, "clear")
        extent = (x - SPACE_R, y - SPACE_R, x + SPACE_R, y + SPACE_R)
        canvas.piece(("space", space.staging, space.airfield, space.port, fill), extent,
                     lambda c: draw_space(c, space, (x, y), board.book))
        layout.add("space", space.id, extent)
    for space in view.spaces:
        box = name_boxes[space.id]
        name, bold = clean(space.name) or space.id, bool(space_tags(space))

        def draw_name(c: Canvas) -> None:
            c.rect(box, fill=PALETTE["paper"], radius=4)
            c.text_in(box, name, BODY, PALETTE["ink"], bold=bold)

        canvas.piece(("name", name, bold), box, draw_name)
        layout.add("label", f"space-{space.id}", box, parent=space.id, text=BODY)
        if space.id in tag_boxes:
            canvas.piece(("tile", space.model_dump_json()), tag_boxes[space.id],
                         lambda c: draw_objective_tile(c, space, tag_boxes[space.id]))
            layout.add("objective", space.id, tag_boxes[space.id], parent=space.id)


def _draw_forces(canvas: Frame, layout: Layout, view: NetworkView, board: NetBoard, forces: ForcePlan) -> None:
    """Leader lines from the spaces, then each force's block (changed units framed, their
    tags over every block)."""
    for block in forces.blocks:
        if block.force.space not in board.pos or block.box[1] >= board.box[3]:
            continue
        x, y = board.pos[block.force.space]
        box = block.box
        anchor_x = box[0] if box[0] > x else box[2]
        canvas.line([(x, y), (anchor_x, min(max(y, box[1] + 8), box[3] - 8))],
                    shade(board.book.look(block.force.faction).rgb, 0.3), 2.5)
    changed = {c.id: c.what for c in view.changes}
    tags: list[tuple[str, Box]] = []
    for block in forces.blocks:
        tags += _draw_force(canvas, layout, block, board, changed)
    draw_change_tags(canvas, tags, changed, layout)


def _draw_force(canvas: Frame, layout: Layout, block: ForceBlock, board: NetBoard,
                changed: Mapping[str, str]) -> list[tuple[str, Box]]:
    """One force's head and chips; returns the changed units' boxes (tagged later)."""
    force, chips, box, head = block
    look = board.book.look(force.faction)
    in_strip = box[1] >= board.box[3]
    canvas.rect((box[0], box[1], box[2], box[1] + FORCE_HEAD), fill=shade(look.rgb, 0.1), radius=5)
    canvas.text((box[0] + 6, box[1] + FORCE_HEAD / 2), head, BODY,
                ink_on(shade(look.rgb, 0.1)), anchor="lm", bold=True)
    tags: list[tuple[str, Box]] = []
    cy = box[1] + FORCE_HEAD
    for chip, unit in zip(chips, force.units):
        draw_chip(canvas, chip, box[0], cy)
        ubox = (box[0], cy, box[0] + chip.size[0], cy + chip.size[1])
        if unit.id in changed:
            canvas.rect((box[0] - 2, cy - 1, box[0] + chip.size[0] + 2, cy + chip.size[1] + 1),
                        outline=PALETTE["changed"], width=3, radius=6)
            tags.append((unit.id, ubox))
        layout.add("unit", unit.id, ubox, parent=force.space, in_panel=in_strip, text=CHIP_LABEL)
        cy += chip.size[1]
    layout.add("force", force.id, box, parent=force.space, in_panel=in_strip)
    return tags


def focus_spaces(view: NetworkView) -> list[str]:
    """The spaces of the action, most important first: the battle's space, then each move
    mark's end and start (the latest mark first)."""
    spaces: list[str] = []
    if view.battle is not None:
        spaces.append(view.battle.space)
    at = {p: sid for sid, p in ((s.id, s.position) for s in view.spaces)}
    for mark in reversed(view.marks):
        for p in (mark.points[-1:] + mark.points[:1]):
            sid = at.get((p[0], p[1]))
            if sid and sid not in spaces:
                spaces.append(sid)
    return spaces


def strip_extras(view: NetworkView, layout: Layout) -> list[Box]:
    """The forces of the action's space drawn in the strip under the map (no room by their
    space): the focus picture shows them under its crop, or it would show only an arrow."""
    first = focus_spaces(view)[:1]
    return [i.box for i in layout.items if i.kind == "force" and i.in_panel and i.parent in first]


def focus_boxes(view: NetworkView, layout: Layout, pos: dict[str, Point]) -> list[Box]:
    """What the focus picture shows, most important first: the space the last move reached
    (or the battle's space) with its forces, the move's start, then changed units."""
    spaces = focus_spaces(view)
    spaces += [f for f in view.focus if f in pos and f not in spaces]
    changed = {c.id for c in view.changes}
    boxes: list[Box] = []
    for sid in spaces:
        x, y = pos[sid]
        x0, y0, x1, y1 = x - SPACE_R, y - SPACE_R, x + SPACE_R, y + SPACE_R
        for item in layout.items:
            if item.parent == sid and not item.in_panel and item.kind in ("force", "label", "objective"):
                x0, y0 = min(x0, item.box[0]), min(y0, item.box[1])
                x1, y1 = max(x1, item.box[2]), max(y1, item.box[3])
        boxes.append((x0, y0, x1, y1))
    boxes += [i.box for i in layout.items if i.kind == "unit" and i.id in changed and not i.in_panel]
    return boxes


def battle_panel_fn(view: NetworkView, book: StyleBook, names: dict[str, str]) -> PanelFn | None:
    """The battle panel laid out for a narrow focus picture (the lines one under the other)."""
    panel = view.battle
    if panel is None:
        return None

    def make(width: int, crop: Box) -> tuple[float, Callable[[Frame, float, Layout], None]]:
        del crop  # the battle shows whatever part of the map is cut
        height = battle_height(panel, width)

        def draw(frame: Frame, top: float, layout: Layout) -> None:
            # On the picture itself, as the whole picture draws its battle: texts from masks
            # reduced once and cached, shapes in patches of their own size.  A drawing-scale
            # canvas of the whole panel, filled, drawn and reduced for every picture, was the
            # most of a battle picture's panel (issue 41).
            draw_battle(frame, panel, top, book, names.get(panel.space, panel.space), layout)

        return height, draw

    return make


def trim_end(points: list[Point], cut: float) -> list[Point]:
    """The polyline with its last segment shortened by ``cut`` (an arrowhead stops at the
    edge of the space it points to, not under it)."""
    if len(points) < 2:
        return points
    (ax, ay), (bx, by) = points[-2], points[-1]
    length = math.dist(points[-2], points[-1])
    if length <= 2 * cut:
        return points
    t = (length - cut) / length
    return points[:-1] + [(ax + (bx - ax) * t, ay + (by - ay) * t)]


def draw_objective_tile(canvas: Surface, space: SpaceView, box: Box) -> None:
    """An objective marker: a gold tile, ``?`` face down, its name once revealed, crossed when done."""
    face_down = space.objective == "?"
    fill = PALETTE["objective_main"] if face_down else PALETTE["objective_secondary"]
    canvas.rect(box, fill=fill, outline=PALETTE["ink"], width=2, radius=4)
    text = "?" if face_down else clean(space.objective or "")
    canvas.text_in(box, text, BODY, PALETTE["ink"], bold=True)
    if space.objective_done:
        canvas.line([(box[0] + 3, box[3] - 3), (box[2] - 3, box[1] + 3)], PALETTE["fire"], 3)
        canvas.line([(box[0] + 3, box[1] + 3), (box[2] - 3, box[3] - 3)], PALETTE["fire"], 3)


def legend(view: NetworkView, book: StyleBook) -> list[LegendEntry]:
    """Sides, space types, route kinds, terrain, objective tiles, marks, and the view's notes."""
    entries = side_entries(book)
    entries += change_entries(view.changes)
    kinds = {r.kind for r in view.routes}
    if "road" in kinds:
        entries.append(LegendEntry("line", "road", style="road"))
    if kinds - {"road", "water", "air"}:
        entries.append(LegendEntry("line", "/".join(sorted(kinds - {"road", "water", "air"})),
                                   style="track"))
    if "water" in kinds:
        entries.append(LegendEntry("line", "water", style="dashed"))
    if "air" in kinds:
        entries.append(LegendEntry("line", "air", style="dotted"))
    if any(s.staging for s in view.spaces):
        entries.append(LegendEntry("text", "square = staging"))
    if any(s.airfield for s in view.spaces):
        entries.append(LegendEntry("text", "bar = airfield"))
    if any(s.port for s in view.spaces):
        entries.append(LegendEntry("text", "ring = port"))
    entries += terrain_entries((s.terrain for s in view.spaces), book)
    if any(s.objective for s in view.spaces):
        entries.append(LegendEntry("pill", "objective face down", key="objective_main", pill="?"))
    entries += mark_entries(view.marks, book)
    entries += note_entries(view.legend)
    return entries
