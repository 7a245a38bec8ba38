"""The point-to-point snapshot (Raiders): spaces, routes, forces, tracks and the battle panel.

Layout, top to bottom: the header strip; the tracks (alert, Ops left, RP) as rows of boxes;
the network scaled to the image width; the battle panel (raider line against hostile line,
each unit's die and result, the Tactical Edge); the legend.

Spaces are drawn by type (a circle; a square for a staging area) with tags for airfields
and ports, so type does not rest on colour.  Route kinds differ by pattern: roads solid,
water dashed, air dotted.  Forces are chip stacks placed near their space, clear of every
other label, with a leader line back to the space.
"""

from __future__ import annotations

import math

from render.chrome import (
    Chip,
    LegendEntry,
    draw_chip,
    draw_header,
    draw_legend,
    draw_pill,
    header_height,
    legend_height,
    mark_entries,
    pill_width,
    side_entries,
)
from render.layout import Box, Layout, Placer, Snapshot
from render.marks import draw_mark_label, draw_mark_line, head_box, mark_label_size
from render.style import (
    BIG,
    BODY,
    MARGIN,
    PALETTE,
    SMALL,
    WIDTH,
    Canvas,
    SideBook,
    clean,
    colour,
    fit_text,
    ink_on,
    shade,
    tint,
)
from rules.core.views import BattlePanel, ForceView, NetworkView, SpaceView, Track, UnitChip

Point = tuple[float, float]

SPACE_R = 15.0
TRACK_ROW = 36.0
TRACK_BOX = 30.0
BATTLE_ROW = 56.0
FORCE_HEAD = 26.0


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


def draw_die(canvas: Canvas, cx: float, cy: float, value: int | None, size: float = 34) -> None:
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


def battle_height(panel: BattlePanel | None) -> float:
    """Height of the battle panel."""
    if panel is None:
        return 0.0
    rows = max(len(panel.raiders), len(panel.hostiles), 1)
    return 14 + 40 + rows * BATTLE_ROW + 12


def draw_battle(canvas: Canvas, panel: BattlePanel, top: float, book: SideBook,
                space_name: str, layout: Layout) -> None:
    """Both lines side by side, each unit's die and what it did, and who holds the Edge."""
    height = battle_height(panel)
    box = (0.0, top, float(canvas.width), top + height)
    canvas.rect(box, fill=PALETTE["panel"])
    canvas.line([(0, top), (canvas.width, top)], PALETTE["grid"], 1.5)
    title = f"Battle: {clean(space_name)}, round {panel.round}"
    canvas.text((MARGIN, top + 14 + 14), title, BIG, PALETTE["ink"], anchor="lm", bold=True)
    edge = panel.tactical_edge
    if edge:
        look = book.look(edge)
        text = f"Tactical Edge: {clean(look.label)}"
        w = Canvas.text_size(text, BODY)[0]
        ex = canvas.width - MARGIN - w - 40
        canvas.rect((ex, top + 12, canvas.width - MARGIN, top + 44),
                    fill=PALETTE["objective_secondary"], outline=PALETTE["edge"], width=2, radius=6)
        canvas.badge(ex + 16, top + 28, 20, look)
        canvas.text((ex + 32, top + 28), text, BODY, PALETTE["ink"], anchor="lm", bold=True)
    shots = {shot.unit: shot for shot in panel.shots}
    half = canvas.width / 2
    for side, units in ((0, panel.raiders), (1, panel.hostiles)):
        x0 = MARGIN + side * half
        for row, unit in enumerate(units):
            y = top + 54 + row * BATTLE_ROW
            chip = unit_chip(unit, book, half - 2 * MARGIN - 190)
            draw_chip(canvas, chip, x0, y)
            layout.add("battle_unit", unit.id, (x0, y, x0 + chip.size[0], y + chip.size[1]),
                       parent="raiders" if side == 0 else "hostiles")
            shot = shots.get(unit.id)
            if shot is None:
                continue
            dx = x0 + half - 2 * MARGIN - 170
            cy = y + chip.size[1] / 2
            draw_die(canvas, dx + 17, cy, shot.die)
            words = clean(shot.result)
            if shot.target and shot.target not in words:
                words = f"{words} ({clean(shot.target)})" if words else clean(shot.target)
            lines = [fit_text(words, SMALL, 130)] if words else []
            for k, line in enumerate(lines):
                canvas.text((dx + 40, cy + k * 20), line, SMALL, PALETTE["ink"], anchor="lm",
                            bold="hit" in line.lower())
    canvas.line([(half, top + 50), (half, top + height - 8)], PALETTE["grid"], 2)
    layout.add("battle", panel.space, box)


# -- the map ------------------------------------------------------------------------------------


def draw_space(canvas: Canvas, space: SpaceView, p: Point) -> None:
    """A space: circle, or square for a staging area; a runway bar for an airfield."""
    fill = colour(space.terrain, "clear")
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


def render_network(view: NetworkView) -> Snapshot:
    """Draw a :class:`NetworkView`; see the module docstring for the layout."""
    book = SideBook(view.sides)
    for force in view.forces:
        book.look(force.faction)
    top = header_height(view.header, WIDTH)
    placed_tracks = tracks_layout(view.tracks, top)
    tracks_h = (max(y for _, _, y in placed_tracks) - top + TRACK_ROW / 2 + 6) if placed_tracks else 0
    map_top = top + tracks_h + MARGIN
    scale = (WIDTH - 2 * MARGIN) / view.width
    map_h = view.height * scale
    map_box: Box = (MARGIN, map_top, WIDTH - MARGIN, map_top + map_h)
    pos = {s.id: (MARGIN + s.position[0] * scale, map_top + s.position[1] * scale) for s in view.spaces}

    # Fixed things first: the spaces themselves; then names, objective tiles, forces.
    placer = Placer(map_box, [(x - SPACE_R - 2, y - SPACE_R - 2, x + SPACE_R + 2, y + SPACE_R + 2)
                              for x, y in pos.values()])
    # Names and forces keep clear of where the last move's arrowheads land.
    for mark in view.marks:
        pts = trim_end([(MARGIN + px * scale, map_top + py * scale) for px, py in mark.points],
                       SPACE_R - 4)
        if len(pts) > 1:
            placer.claim(head_box(pts[-2], pts[-1], length=26, half=10))
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
    names = {s.id: clean(s.name) or s.id for s in view.spaces}
    force_places: list[tuple[ForceView, list[Chip], Box, str]] = []
    overflow: list[tuple[ForceView, list[Chip], str]] = []
    for force in view.forces:
        if not force.units:
            continue
        chips = [unit_chip(u, book, 300) for u in force.units]
        if force.space not in pos:
            overflow.append((force, chips, f"{clean(force.id)} at {clean(force.space)}"))
            continue
        # The force's id heads its block: it is what a player types (move force:F1).
        head = clean(force.id)
        w = max([c.size[0] for c in chips] + [Canvas.text_size(head, BODY)[0] + 12])
        h = sum(c.size[1] for c in chips) + FORCE_HEAD
        x, y = pos[force.space]
        box = placer.search((x + SPACE_R + 12 + w / 2, y + h / 2 - 10), (w, h), step=12, rings=32)
        if placer.free(box):
            force_places.append((force, chips, placer.claim(box), head))
        else:
            # No room near its space: the force goes to the strip under the map, named
            # with its space, rather than on top of another label.
            overflow.append((force, chips, f"{head} at {names[force.space]}"))
    strip_top = map_box[3] + MARGIN
    x, row_top, row_h = float(MARGIN), strip_top, 0.0
    for force, chips, head in overflow:
        w = max([c.size[0] for c in chips] + [Canvas.text_size(head, BODY)[0] + 12])
        h = sum(c.size[1] for c in chips) + FORCE_HEAD
        if x > MARGIN and x + w > WIDTH - MARGIN:
            x, row_top, row_h = float(MARGIN), row_top + row_h + 8, 0.0
        force_places.append((force, chips, (x, row_top, x + w, row_top + h), head))
        x += w + 10
        row_h = max(row_h, h)
    battle_top = (row_top + row_h + MARGIN) if overflow else strip_top
    entries = legend(view, book)
    legend_top = battle_top + battle_height(view.battle)
    height = math.ceil(legend_top + legend_height(entries, WIDTH))

    canvas = Canvas(WIDTH, height)
    layout = Layout(width=WIDTH, height=height)
    draw_header(canvas, view.header, layout)
    for track, x, y in placed_tracks:
        layout.add("track", clean(track.label), draw_track(canvas, track, x, y))
    canvas.rect(map_box, fill=tint(PALETTE["clear"], 0.4), outline=PALETTE["grid"], width=1.5)
    for route in view.routes:
        if route.a not in pos or route.b not in pos:
            continue
        a, b = pos[route.a], pos[route.b]
        if route.kind == "water":
            canvas.dashed([a, b], shade(PALETTE["water"], 0.2), 5, dash=14, gap=8)
        elif route.kind == "air":
            canvas.dashed([a, b], PALETTE["ink_soft"], 3, dash=4, gap=7)
        else:
            canvas.line([a, b], PALETTE["road"], 6)
    for mark in view.marks:
        pts = [(MARGIN + px * scale, map_top + py * scale) for px, py in mark.points]
        draw_mark_line(canvas, mark, trim_end(pts, SPACE_R - 4), part="line")
    for space in view.spaces:
        draw_space(canvas, space, pos[space.id])
        x, y = pos[space.id]
        layout.add("space", space.id, (x - SPACE_R, y - SPACE_R, x + SPACE_R, y + SPACE_R))
    for space in view.spaces:
        box = name_boxes[space.id]
        canvas.rect(box, fill=PALETTE["paper"], radius=4)
        canvas.text_in(box, clean(space.name) or space.id, BODY, PALETTE["ink"],
                       bold=bool(space_tags(space)))
        layout.add("label", f"space-{space.id}", box, parent=space.id)
        if space.id in tag_boxes:
            draw_objective_tile(canvas, space, tag_boxes[space.id])
            layout.add("objective", space.id, tag_boxes[space.id], parent=space.id)
    for force, chips, box, _ in force_places:
        if force.space not in pos or box[1] >= map_box[3]:
            continue
        x, y = pos[force.space]
        anchor_x = box[0] if box[0] > x else box[2]
        canvas.line([(x, y), (anchor_x, min(max(y, box[1] + 8), box[3] - 8))],
                    shade(book.look(force.faction).rgb, 0.3), 2.5)
    for force, chips, box, head in force_places:
        look = book.look(force.faction)
        in_strip = box[1] >= map_box[3]
        canvas.rect((box[0], box[1], box[2], box[1] + FORCE_HEAD), fill=shade(look.rgb, 0.1), radius=5)
        canvas.text((box[0] + 6, box[1] + FORCE_HEAD / 2), head, BODY,
                    ink_on(shade(look.rgb, 0.1)), anchor="lm", bold=True)
        cy = box[1] + FORCE_HEAD
        for chip, unit in zip(chips, force.units):
            draw_chip(canvas, chip, box[0], cy)
            layout.add("unit", unit.id, (box[0], cy, box[0] + chip.size[0], cy + chip.size[1]),
                       parent=force.space, in_panel=in_strip)
            cy += chip.size[1]
        layout.add("force", force.id, box, parent=force.space, in_panel=in_strip)
    # Heads over names and forces: where a force went must show.
    for mark in view.marks:
        pts = [(MARGIN + px * scale, map_top + py * scale) for px, py in mark.points]
        draw_mark_line(canvas, mark, trim_end(pts, SPACE_R - 4), part="head")
    for i, mark in enumerate(view.marks):
        text = clean(mark.text)
        pts = [(MARGIN + px * scale, map_top + py * scale) for px, py in mark.points]
        if text and pts:
            lbox = placer.place_near(pts[len(pts) // 2], mark_label_size(text), step=10, rings=20)
            draw_mark_label(canvas, mark, text, lbox)
            layout.add("label", f"mark-{i}", lbox, parent=mark.kind)
    if view.battle is not None:
        draw_battle(canvas, view.battle, battle_top, book,
                    names.get(view.battle.space, view.battle.space), layout)
    draw_legend(canvas, entries, legend_top, book, layout)
    return Snapshot(png=canvas.png(), width=WIDTH, height=height, layout=layout)


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


def draw_objective_tile(canvas: Canvas, space: SpaceView, box: Box) -> None:
    """An objective marker: a gold tile, ``?`` face down, its name once revealed, crossed when done."""
    face_down = space.objective == "?"
    fill = PALETTE["objective_main"] if face_down else PALETTE["objective_secondary"]
    canvas.rect(box, fill=fill, outline=PALETTE["ink"], width=2, radius=4)
    text = "?" if face_down else clean(space.objective or "")
    canvas.text_in(box, text, BODY, PALETTE["ink"], bold=True)
    if space.objective_done:
        canvas.line([(box[0] + 3, box[3] - 3), (box[2] - 3, box[1] + 3)], PALETTE["fire"], 3)
        canvas.line([(box[0] + 3, box[1] + 3), (box[2] - 3, box[3] - 3)], PALETTE["fire"], 3)


def legend(view: NetworkView, book: SideBook) -> list[LegendEntry]:
    """Sides, space types, route kinds, objective tiles, marks, and the view's notes."""
    entries = side_entries(book)
    entries.append(LegendEntry("line", "road", style="road"))
    kinds = {r.kind for r in view.routes}
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
    if any(s.objective for s in view.spaces):
        entries.append(LegendEntry("pill", "objective face down", key="objective_main", pill="?"))
    entries += mark_entries(view.marks)
    entries += [LegendEntry("text", clean(t)) for t in view.legend if clean(t)]
    return entries
