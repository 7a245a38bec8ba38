"""The exported page of a whole Tannenbruck game in headless Chromium (Debian's
``chromium``; ``.ci/run`` installs it): it opens from a file with no network, steps through
every snapshot with the arrow keys, back again, by tapping and by its buttons, honours
``#step=N``, and the canvas shows exactly the map of the step it names."""

from __future__ import annotations

import base64
import io
import shutil
import time
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from tests.replay.cdp import Browser, chromium
from tests.replay.conftest import PlayedGame
from tests.replay.pages import focus_picture, page_data, picture

pytestmark = pytest.mark.skipif(
    chromium() is None,
    reason="headless Chromium is not installed (apt-get install chromium; .ci/run does it)",
)

WHERE = "document.getElementById('where').textContent"
DRAWN = "document.body && document.body.dataset.drawn"
CURRENT = "document.querySelector('#log li[aria-current=\"step\"]').dataset.seq"


@pytest.fixture(scope="module")
def page_file(whole: PlayedGame, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The page ``/game end`` attached, saved as a file."""
    assert whole.page is not None
    [page] = [a for a in whole.page.attachments if a.filename.endswith(".html")]
    path = tmp_path_factory.mktemp("page") / page.filename
    path.write_bytes(page.data)
    return path


@pytest.fixture
def browser(page_file: Path, tmp_path: Path):
    opened: list[Browser] = []

    def open_at(fragment: str = "", size: tuple[int, int] = (1280, 1400)) -> Browser:
        b = Browser(page_file.as_uri() + fragment, tmp_path / f"profile{len(opened)}", size)
        opened.append(b)
        b.wait_for(DRAWN)
        return b

    yield open_at
    for b in opened:
        b.close()


def drawn(b: Browser, expected: int, timeout: float = 10.0) -> int:
    """The step whose map the canvas holds, once its tiles are drawn: waits (up to
    ``timeout``) for ``expected``, since a key or tap is handled after it is sent."""
    deadline = time.monotonic() + timeout
    seen = int(b.wait_for(DRAWN))
    while seen != expected and time.monotonic() < deadline:
        time.sleep(0.02)
        seen = int(b.wait_for(DRAWN))
    return seen


def canvas_picture(b: Browser) -> Image.Image:
    uri = b.eval("document.getElementById('board').toDataURL('image/png')")
    return Image.open(io.BytesIO(base64.b64decode(uri.partition(",")[2]))).convert("RGB")


@pytest.mark.parametrize("stepped", [
    pytest.param(20, id="first-20-maps"),
    pytest.param(None, id="every-map", marks=pytest.mark.slow),
])
def test_arrow_keys_step_through_every_snapshot_and_back(browser, page_file, stepped):
    """ArrowRight through the maps (the first 20 in the README's test line, then End; every
    one of the game's maps behind ``slow``), then back."""
    seqs = [f.seq for f in page_data(page_file.read_text("utf-8")).frames]
    b = browser()
    assert drawn(b, seqs[0]) == seqs[0]
    assert b.eval(WHERE) == f"Step #{seqs[0]} · map 1 of {len(seqs)}"
    for k, seq in enumerate(seqs[1:stepped], start=2):
        b.key("ArrowRight")
        assert drawn(b, seq) == seq, f"map {k}"
    if stepped is not None:
        b.key("End")
        assert drawn(b, seqs[-1]) == seqs[-1]
    assert b.eval(WHERE) == f"Step #{seqs[-1]} · map {len(seqs)} of {len(seqs)}"
    # The address follows once stepping pauses (browsers throttle history.replaceState).
    assert b.wait_for(f"location.hash === '#step={seqs[-1]}'")
    assert b.eval(CURRENT) == str(seqs[-1])  # the log follows
    b.key("ArrowRight")  # past the end: stays on the last map
    assert drawn(b, seqs[-1]) == seqs[-1]
    for seq in reversed(seqs[-4:-1]):
        b.key("ArrowLeft")
        assert drawn(b, seq) == seq
    b.key("Home")
    assert drawn(b, seqs[0]) == seqs[0]
    b.key("ArrowLeft")
    assert drawn(b, seqs[0]) == seqs[0]
    b.key("End")
    assert drawn(b, seqs[-1]) == seqs[-1]


def test_a_tap_on_either_half_of_the_map_and_the_buttons_step(browser, page_file):
    seqs = [f.seq for f in page_data(page_file.read_text("utf-8")).frames]
    b = browser()
    left, top, width, height = b.eval(
        "(() => { const r = document.getElementById('board').getBoundingClientRect();"
        " return [r.left, r.top, r.width, r.height]; })()")
    b.tap(left + width * 0.8, top + height / 2)
    assert drawn(b, seqs[1]) == seqs[1]
    b.tap(left + width * 0.8, top + height / 2)
    assert drawn(b, seqs[2]) == seqs[2]
    b.tap(left + width * 0.2, top + height / 2)
    assert drawn(b, seqs[1]) == seqs[1]
    b.eval("document.getElementById('last').click()")
    assert drawn(b, seqs[-1]) == seqs[-1]
    b.eval("document.getElementById('prev').click()")
    assert drawn(b, seqs[-2]) == seqs[-2]
    b.eval("document.getElementById('first').click()")
    assert drawn(b, seqs[0]) == seqs[0]
    b.eval("document.getElementById('next').click()")
    assert drawn(b, seqs[1]) == seqs[1]


def test_a_link_to_a_step_opens_on_its_map_and_the_canvas_shows_exactly_that_map(
        browser, page_file, tmp_path):
    data = page_data(page_file.read_text("utf-8"))
    middle = len(data.frames) // 2
    seq = data.frames[middle].seq
    b = browser(f"#step={seq}")
    assert drawn(b, seq) == seq
    assert b.eval(WHERE) == f"Step #{seq} · map {middle + 1} of {len(data.frames)}"
    assert b.eval("document.getElementById('caption').textContent").startswith(f"#{seq} ")
    assert ImageChops.difference(canvas_picture(b), picture(data, middle)).getbbox() is None
    # A step that drew no map opens on the last map before it.
    quiet = next((f.seq + 1 for f, g in zip(data.frames, data.frames[1:]) if g.seq > f.seq + 1), None)
    if quiet is not None:
        b.eval(f"location.hash = '#step={quiet}'")
        assert drawn(b, quiet - 1) == quiet - 1
    shot = b.screenshot()
    image = Image.open(io.BytesIO(shot))
    assert image.size[0] >= 1000 and len(image.getcolors(1 << 20) or []) > 50  # not blank
    shutil.copy(page_file, tmp_path / page_file.name)
    (tmp_path / "screenshot.png").write_bytes(shot)


def test_the_page_made_no_request(browser):
    b = browser()
    names = b.eval("performance.getEntriesByType('resource').map(e => e.name)")
    assert [n for n in names if not n.startswith("data:")] == []


def test_a_phone_sees_the_focus_picture_and_may_switch_to_the_whole_map(browser, page_file):
    """Issue 25 point 14: on a 412 px screen the 1280 px map showed its text ~4 px high; the
    page shows each step's focus picture there (at most 750 px wide: 17 px text shows at 9 px
    or more), and a button switches to the whole map and back."""
    data = page_data(page_file.read_text("utf-8"))
    last = len(data.frames) - 1
    seq = data.frames[last].seq
    b = browser(f"#step={seq}", size=(412, 915))
    # A phone's screen exactly (a desktop window has a least width), then the page afresh.
    b.send("Emulation.setDeviceMetricsOverride", {"width": 412, "height": 915,
                                                   "deviceScaleFactor": 2.625, "mobile": True})
    b.send("Page.reload")
    b.wait_for(f"window.innerWidth === 412 && document.body && document.body.dataset.drawn === '{seq}'")
    assert b.eval("document.body.dataset.view") == "focus"
    assert ImageChops.difference(canvas_picture(b), focus_picture(data, last)).getbbox() is None
    shown, pixels = b.eval("(() => { const c = document.getElementById('board');"
                           " return [c.getBoundingClientRect().width, c.width]; })()")
    assert shown <= 412 and pixels <= 750
    assert 17 * shown / pixels >= 8.9  # the smallest text, in CSS pixels on the phone
    b.eval("document.getElementById('view').click()")
    b.wait_for("document.body.dataset.view === 'whole' && document.getElementById('board').width === 1280")
    assert drawn(b, seq) == seq
    assert ImageChops.difference(canvas_picture(b), picture(data, last)).getbbox() is None
    # A wide screen opens on the whole map.
    wide = browser(f"#step={seq}")
    assert drawn(wide, seq) == seq and wide.eval("document.body.dataset.view") == "whole"
