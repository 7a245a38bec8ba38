"""One self-contained HTML file of a whole game: the log, the dice and every snapshot,
stepped with the arrow keys, the buttons or a tap on the map (issue 19, item 5).

``referee export-html GAME`` writes it, and ``/game end`` attaches it.  The file needs no
network and no other file: the pictures are ``data:`` URIs, the script and style are inline,
and a Content-Security-Policy forbids any request (``default-src 'none'``), so it opens the
same offline, from a phone's downloads or years later.

Every snapshot is the whole map (:func:`render.snapshot`, 1280 px), with the box of it the
focus picture shows (:func:`render.with_focus_box`): a screen 700 CSS px wide or less (a
phone, 412 px) shows that part of the map at full scale, whose text reads there (the whole
map's showed ~4 px high: issue 25 point 14), and a button switches between the two.  The
part costs the page no picture data: it is drawn from the same tiles.  Held as PNGs, a whole
Tannenbruck game's 280-odd maps would take ~30 MB; cut into tiles that recur from one map to
the next (:mod:`render.tiles`, lossless WebP) they take ~5 MB.  A game too long for Discord's
upload limit keeps an even part of its maps (:data:`PAGE_BUDGET`), and says so.  The page shows a map by drawing its tiles
on a canvas, so any step can be shown directly.

The page honours ``#step=N`` (the map of step ``N``, or the last one drawn before it) and
keeps the address on the step shown, so a step can be linked.  What it shows is also in the
document for tests and screen readers: ``#where`` (step and map number), ``#caption`` (the
step's log line), the current log line (``aria-current``) and ``body[data-drawn]`` (the step
whose map the canvas holds once its tiles are drawn).
"""

from __future__ import annotations

import asyncio
import base64
import html
import re
from pathlib import Path
from typing import Any, TYPE_CHECKING, Sequence

from pydantic import BaseModel

from bot import replies
from bot.longdraw import LongDraws
from bot.replaycmds import caption, plain, shown_steps
from bot.store import BaseStore, GameRow, StepRow
from bot.stores import open_store
from rules.core import registry
from rules.core.contract import GameSystem

if TYPE_CHECKING:
    from render.tiles import Mosaic

#: What the page may load: nothing but its own inline script and style and data: images.
CSP = ("default-src 'none'; img-src data:; style-src 'unsafe-inline'; "
       "script-src 'unsafe-inline'")


class PageFrame(BaseModel):
    """A map as the page's script reads it: its step, its size and its tiles, and the part
    of it a narrow screen shows (``c``: x0, y0, x1, y1, the focus picture's board)."""

    seq: int
    w: int
    h: int
    t: list[int]
    caption: str
    c: list[int] | None = None


class PageData(BaseModel):
    """Everything the page's script needs: the tile size, the tiles and the frames."""

    tile: int
    tiles: list[str]
    frames: list[PageFrame]
    maps: int = 0  # the steps with a map: more than the frames if some were left out to fit


#: The most bytes of picture data a page holds: Discord takes files up to 10 MiB in a server
#: without boosts, and the final log goes in the same message.
PAGE_BUDGET = 8 * 1024 * 1024


def html_name(game: GameRow, *, final: bool = False) -> str:
    """``rr-game12.html`` (``-final`` once ended), beside the JSON export's name."""
    ended = final or game.status == "ended"
    return f"{game.system}-game{game.id}{'-final' if ended else ''}.html"


def build_data(system: GameSystem[Any], shown: Sequence[StepRow], budget: int = PAGE_BUDGET) -> PageData:
    """Draw the whole map of every shown step and cut it into shared tiles; a game whose
    tiles would pass ``budget`` bytes keeps every second (third ...) map and the last, and
    its page says so (every step stays in the log).  Blocking (Pillow): the bot runs it in
    its worker for long drawings (``bot/longdraw.py``)."""
    from render import with_focus_box  # noqa: PLC0415 - Pillow only when drawing
    from render.tiles import MosaicBuilder  # noqa: PLC0415

    builder = MosaicBuilder()
    crops = []
    for step in shown:
        shot, crop = with_focus_box(system.view(system.load_state(step.state_json)))
        builder.add(shot.png)
        crops.append(list(crop))
    kept = fitting(builder.mosaic, budget)
    mosaic = builder.mosaic.keeping(kept)
    frames = [PageFrame(seq=shown[k].seq, w=f.width, h=f.height, t=f.tiles, caption=caption(shown[k]),
                        c=crops[k])
              for k, f in zip(kept, mosaic.frames)]
    head = f"data:image/{mosaic.format};base64,"
    tiles = [head + base64.b64encode(t).decode("ascii") for t in mosaic.tiles]
    return PageData(tile=mosaic.tile, tiles=tiles, frames=frames, maps=len(shown))


def page_of(system_key: str, shown: Sequence[StepRow]) -> PageData:
    """:func:`build_data` for the system ``system_key``: what the worker for long drawings
    runs (``bot/longdraw.py``; it takes the system by its key, which pickles)."""
    return build_data(registry.get(system_key), shown)


def fitting(mosaic: Mosaic, budget: int) -> list[int]:
    """The frames a page keeps within ``budget`` bytes: all of them, else every k-th and the
    last, for the smallest k that fits (the size counted as the page writes it: base64)."""
    count = len(mosaic.frames)
    step = 1
    while step < count:
        kept = sorted(set(range(0, count, step)) | {count - 1})
        if _page_bytes(mosaic, kept) <= budget:
            return kept
        step = step + 1 if step < 4 else step * 3 // 2
    return [count - 1] if count else []


def _page_bytes(mosaic: Mosaic, kept: list[int]) -> int:
    """About how many bytes the tiles and frames of ``kept`` take in the page."""
    used = {n for k in kept for n in mosaic.frames[k].tiles}
    tiles = sum(4 * -(-len(mosaic.tiles[n]) // 3) + 30 for n in used)
    return tiles + sum(5 * len(mosaic.frames[k].tiles) + 200 for k in kept)


def _log_item(step: StepRow) -> str:
    """One step of the log: its line, its events and its dice, one by one."""
    reverted = step.reverted_by is not None
    line = plain(replies.log_line(step))
    if reverted:  # the chat's ~~strike~~ becomes the page's own
        line = line.replace("~~", "")
    # A line meant for one side (issue 28) is on the page only once the game has ended
    # (export_html leaves it out before), marked with whose it was.
    events = "".join(f"<li>{html.escape(plain(e.text if e.to is None else f'🔒 {e.to}: {e.text}'))}</li>"
                     for e in step.events)
    dice = "".join(f"<li>die: {html.escape(r.label())}"
                   f"{f' · roll {r.index}' if r.index is not None else ''}</li>" for r in step.dice)
    parts = [f'<span class="line">{html.escape(line)}</span>']
    if events:
        parts.append(f'<ul class="events">{events}</ul>')
    if dice:
        parts.append(f'<ul class="dice">{dice}</ul>')
    cls = ' class="reverted"' if reverted else ""
    return f'<li id="step-{step.seq}" data-seq="{step.seq}"{cls}>{"".join(parts)}</li>'


def _facts(game: GameRow, system: GameSystem[Any]) -> str:
    """The game's header lines: what, which game, and how to check the dice."""
    lines = [f"Game #{game.id} · {html.escape(game.scenario)} · {html.escape(game.status)}",
             f"Dice seed hash: <code>{game.seed_hash}</code>"]
    if game.status == "ended":
        lines.append(f"Dice seed: <code>{game.seed.hex()}</code> ({game.dice_counter} rolls; "
                     "check them with tools/verify_dice.py and the .json.gz log)")
    state = system.load_state(game.state_json)
    result = system.result(state)
    if result:
        lines.append(f"Result: {html.escape(result)}")
    return "".join(f"<p>{line}</p>" for line in lines)


def page(game: GameRow, system: GameSystem[Any], steps: Sequence[StepRow], data: PageData) -> str:
    """The whole HTML document."""
    title = f"{system.title} — {game.scenario}, game #{game.id}"
    payload = data.model_dump_json().replace("<", "\\u003c")  # never a "</script>" inside
    log = "\n".join(_log_item(s) for s in steps)
    facts = _facts(game, system)
    if len(data.frames) < data.maps:
        facts += (f"<p>{len(data.frames)} of the {data.maps} maps kept (evenly, and the last) "
                  "to keep this file within Discord's upload limit; every step is in the log.</p>")
    values = {"CSP": CSP, "TITLE": html.escape(title), "FACTS": facts,
              "COUNT": str(len(data.frames)), "LOG": log, "DATA": payload, "SCRIPT": _SCRIPT}
    # One pass: what a player typed (in the log) is never read again as a placeholder.
    return re.sub(r"@([A-Z]+)@", lambda m: values[m.group(1)], _TEMPLATE)


async def export_html(store: BaseStore, game_id: int, draws: LongDraws | None = None) -> tuple[str, bytes]:
    """``(file name, HTML bytes)`` of a game: its log, dice and every snapshot, drawn by
    ``draws`` (the bot's worker for long drawings, ``bot/longdraw.py``: never in a thread of
    the bot, whose replies it would hold up), or here in a thread when none is given (the
    ``referee export-html`` command, a process of its own)."""
    game = await store.game(game_id)
    system = registry.get(game.system)
    steps = await store.steps(game_id)
    if game.status != "ended":
        # Before the end, no line meant for one side (issue 28); the maps are the public views.
        steps = [s.model_copy(update={"events": [e for e in s.events if e.to is None]}) for s in steps]
    shown = shown_steps(steps)
    if draws is not None:
        data = await draws.run(page_of, game.system, shown)
    else:
        data = await asyncio.to_thread(build_data, system, shown)
    return html_name(game), page(game, system, steps, data).encode("utf-8")


async def write_export(db: Path | str, game_id: int, out: Path | None) -> Path:
    """``referee export-html``: write the page of game ``game_id`` of the database ``db``
    (a SQLite file or a ``postgresql://`` URL, as ``REFEREE_DB``)."""
    store = await open_store(db)
    try:
        name, data = await export_html(store, game_id)
    finally:
        await store.close()
    target = out or Path(name)
    if target.is_dir():
        target = target / name
    target.write_bytes(data)
    return target


_TEMPLATE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="@CSP@">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>@TITLE@</title>
<style>
:root { color-scheme: light; --ink: #1f2a33; --paper: #f4f1ea; --accent: #2b5d8a; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.4 system-ui, sans-serif; color: var(--ink); background: var(--paper); }
header { background: #22303c; color: #fff; padding: 8px 12px; }
header h1 { font-size: 20px; margin: 0 0 4px; }
header p { margin: 2px 0; font-size: 14px; overflow-wrap: anywhere; }
main { display: grid; grid-template-columns: minmax(0, 1fr); gap: 8px; padding: 8px; }
@media (min-width: 1100px) { main { grid-template-columns: minmax(0, 3fr) minmax(300px, 1fr); } }
#where { font-weight: 600; }
#caption { margin: 4px 0; min-height: 2.8em; overflow-wrap: anywhere; }
#board { display: block; width: 100%; max-width: 1280px; height: auto; cursor: pointer;
         touch-action: manipulation; background: #ddd; }
nav { display: flex; gap: 6px; margin: 6px 0; }
nav button { flex: 1; font-size: 18px; padding: 10px 0; border-radius: 6px; border: 1px solid #889;
             background: #fff; color: var(--ink); }
.hint { font-size: 13px; color: #555; margin: 0; }
#view { font-size: 15px; padding: 6px 10px; margin: 0 0 6px; border-radius: 6px; border: 1px solid #889;
        background: #fff; color: var(--ink); }
#log { max-height: 80vh; overflow: auto; background: #fff; border: 1px solid #ccc; border-radius: 6px; }
#log h2 { font-size: 16px; margin: 8px; }
#log ol { list-style: none; margin: 0; padding: 0; }
#log li[data-seq] { padding: 4px 8px; border-top: 1px solid #eee; cursor: pointer; }
#log li[aria-current="step"] { background: #fff3c4; }
#log li.reverted .line { text-decoration: line-through; color: #777; }
#log ul { margin: 2px 0 0 16px; padding: 0; font-size: 13px; color: #444; }
#log ul li { border: 0; padding: 0; cursor: auto; list-style: disc; }
</style>
</head>
<body>
<header><h1>@TITLE@</h1>@FACTS@</header>
<main>
<section id="viewer" aria-label="Maps, step by step">
<div id="where" role="status" aria-live="polite">@COUNT@ maps</div>
<p id="caption"></p>
<canvas id="board" width="1280" height="1000" role="img" aria-label="The map at the step shown"></canvas>
<nav>
<button id="first" type="button" aria-label="First map">◀◀</button>
<button id="prev" type="button" aria-label="Previous map">◀ Back</button>
<button id="next" type="button" aria-label="Next map">Next ▶</button>
<button id="last" type="button" aria-label="Last map">▶▶</button>
</nav>
<button id="view" type="button" aria-pressed="false">Whole map</button>
<p class="hint">← → step through the maps (Home, End: first, last) · tap the left or right half
of the map · a line of the log shows its map · this file works offline.</p>
</section>
<section id="log" aria-label="Log"><h2>Log: every step, its events and its dice</h2>
<ol>
@LOG@
</ol>
</section>
</main>
<script id="data" type="application/json">@DATA@</script>
<script>@SCRIPT@</script>
</body>
</html>
"""

_SCRIPT = """
"use strict";
const data = JSON.parse(document.getElementById("data").textContent);
const board = document.getElementById("board");
const ctx = board.getContext("2d");
const decoded = new Map();
let current = -1;
let drawing = 0;
// A phone (700 CSS px or narrower: the whole map's text would show ~4 px high) sees the
// focus picture of each step, whose text reads there; the button switches.
let around = window.matchMedia("(max-width: 700px)").matches;
const viewButton = document.getElementById("view");
function noteView() {
  viewButton.textContent = around ? "Show the whole map" : "Show around the action";
  viewButton.setAttribute("aria-pressed", String(around));
  document.body.dataset.view = around ? "focus" : "whole";
}
noteView();

function tileImage(n) {
  if (!decoded.has(n)) {
    const img = new Image();
    img.src = data.tiles[n];
    decoded.set(n, img.decode().then(() => img));
  }
  return decoded.get(n);
}

function frameFor(seq) {
  let k = 0;
  data.frames.forEach((f, i) => { if (f.seq <= seq) k = i; });
  return k;
}

// The address names the step shown, written once stepping pauses: browsers ignore
// history.replaceState after about 200 calls in 10 s, and a held arrow key makes more.
let addressTimer = 0;
function noteAddress(seq) {
  clearTimeout(addressTimer);
  addressTimer = setTimeout(() => {
    try { history.replaceState(null, "", "#step=" + seq); } catch (e) { /* a sandboxed view */ }
  }, 300);
}

async function show(k) {
  if (!data.frames.length) return;
  k = Math.max(0, Math.min(data.frames.length - 1, k));
  const f = data.frames[k];
  current = k;
  const mine = ++drawing;
  document.body.dataset.drawn = "";
  document.getElementById("where").textContent =
    "Step #" + f.seq + " · map " + (k + 1) + " of " + data.frames.length;
  document.getElementById("caption").textContent = f.caption;
  const old = document.querySelector('#log li[aria-current="step"]');
  if (old) old.removeAttribute("aria-current");
  const line = document.getElementById("step-" + f.seq);
  if (line) {
    line.setAttribute("aria-current", "step");
    const log = document.getElementById("log");
    const top = line.offsetTop - log.offsetTop;
    if (top < log.scrollTop || top > log.scrollTop + log.clientHeight - line.offsetHeight) {
      log.scrollTop = top - log.clientHeight / 3;
    }
  }
  noteAddress(f.seq);
  // The part a phone sees (x0, y0, x1, y1), or the whole map.
  const c = around && f.c ? f.c : [0, 0, f.w, f.h];
  const images = await Promise.all(f.t.map(tileImage));
  if (mine !== drawing) return;  // a later step was asked for meanwhile
  const w = c[2] - c[0], h = c[3] - c[1];
  if (board.width !== w || board.height !== h) { board.width = w; board.height = h; }
  board.style.maxWidth = w + "px";
  const cols = Math.ceil(f.w / data.tile);
  images.forEach((img, i) => {
    ctx.drawImage(img, (i % cols) * data.tile - c[0], Math.floor(i / cols) * data.tile - c[1]);
  });
  document.body.dataset.drawn = String(f.seq);
}

function fromHash() {
  const m = /step=(\\d+)/.exec(location.hash);
  return m ? frameFor(Number(m[1])) : 0;
}

document.addEventListener("keydown", (e) => {
  const moves = { ArrowRight: 1, ArrowDown: 1, PageDown: 1, ArrowLeft: -1, ArrowUp: -1, PageUp: -1 };
  if (e.key in moves) { show(current + moves[e.key]); e.preventDefault(); }
  else if (e.key === "Home") { show(0); e.preventDefault(); }
  else if (e.key === "End") { show(data.frames.length - 1); e.preventDefault(); }
});
board.addEventListener("click", (e) => {
  const box = board.getBoundingClientRect();
  show(current + (e.clientX - box.left < box.width / 2 ? -1 : 1));
});
viewButton.addEventListener("click", () => { around = !around; noteView(); show(current); });
document.getElementById("first").addEventListener("click", () => show(0));
document.getElementById("prev").addEventListener("click", () => show(current - 1));
document.getElementById("next").addEventListener("click", () => show(current + 1));
document.getElementById("last").addEventListener("click", () => show(data.frames.length - 1));
document.querySelector("#log ol").addEventListener("click", (e) => {
  const item = e.target.closest("li[data-seq]");
  if (item) show(frameFor(Number(item.dataset.seq)));
});
window.addEventListener("hashchange", () => {
  const k = fromHash();
  if (k !== current) show(k);
});
show(fromHash());
"""


__all__ = ["CSP", "PAGE_BUDGET", "PageData", "PageFrame", "build_data", "export_html", "fitting",
           "html_name", "page", "page_of", "write_export"]
