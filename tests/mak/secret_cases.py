"""Maschinen Krieger's cases for the kit's non-interference test (issue 28,
``tests/conformance/test_secrets.py``): two games that differ only in a sealed choice must give
byte-identical public output (replies, pings, pictures, status, log, the other side's
autocomplete, the export) up to the order at ``reveal_at``, the first whose rules reveal it.

* a minefield layout (19.1): the Strahl lay theirs next to the Mercenaries' start, or far
  away; the Mercenaries move an engineer elsewhere, both sides end turn 1 (its digest is
  posted), then the Mercenaries walk an AFS into the hex where one layout has a minefield
  (19.1.2: revealed as it enters);
* a minefield found, and one more or not (19.1.1, issue 45): the Strahl lay one minefield,
  or the same one after another; the Mercenaries walk into the one both layouts share (the
  same reveal in both games), then move again: whether a minefield is still unfound must
  not show, neither in the reveal's words (no item number: "item 2" said there were two), nor
  in the later move's ``reveals`` flag in the export, nor in what ``/game undo`` answers;
* a concealment choice (15.4.1): the Mercenary marker goes on one AFS of a stack of two, or
  on the other; turn 1 is played to its digest; the marker then moves off, leaving the other
  AFS in the open (seen again);
* concealed units moving (15.4.1): two markers over two AFS, M-Con1 over one and M-Con2 over
  the other, or the other way round; each marker then moves off by itself: the public reads
  "M-Con1 moves …" in both games, and the same turn digest; nothing is revealed;
* the duty chart (10.1.1): the Mercenaries send M-Falke1 to air combat, or to ground combat;
  the assignments are compared when both sides are done.
"""

from __future__ import annotations

from tests.conformance.secretcase import SecretCase

def _case(name: str, scenario: str, options: str, a: str, b: str, before: list[tuple[str, str]],
          secret_side: str, after: list[tuple[str, str]], digest: bool = False) -> SecretCase:
    """Two games: ``before``, then ``secret_side`` gives ``a`` or ``b``, then ``after``; the
    last order of ``after`` is the one that reveals."""
    return SecretCase(name=name, scenario=scenario, options=options,
                      orders_a=before + [(secret_side, a)] + after, orders_b=before + [(secret_side, b)] + after,
                      reveal_at=len(before) + len(after), digest=digest)


#: Both markers move off the stack, each on its own, and the turn ends (its digest: nothing
#: is revealed, the markers moved).
_MARKERS_MOVE = [("strahl", "/mak end"), ("merc", "/mak end"), ("merc", "/mak move unit:M-Con1 to:5:0927"),
                 ("merc", "/mak move unit:M-Con2 to:5:0928"), ("merc", "/mak end"), ("strahl", "/mak end")]

#: Turn 1 played out to its end (the turn digest is posted, the next side pinged), then turn 2
#: begins: what a case compares before the order that reveals.
_TURN_1 = [("merc", "/mak move unit:M-EngSQ1 to:5:0928"), ("merc", "/mak end"), ("strahl", "/mak end")]

#: Turn 1, then M-AFS1 walks into the minefield both layouts have (19.1.2: revealed, the
#: same in both games) and M-EngSQ1 moves on: nothing else is revealed.
_FOUND_THEN_MOVE = [("merc", "/mak end"), ("strahl", "/mak end"), *_TURN_1,
                    ("merc", "/mak move unit:M-AFS1 to:5:0827"), ("merc", "/mak move unit:M-EngSQ1 to:5:0929")]

CASES: list[SecretCase] = [
    _case("minefield layout (19.1)", "minefields", "",
          '/mak mines lay fields:"5:0827=13 5:0620=9 5:0621=8"', '/mak mines lay fields:"5:0720=6"',
          [("merc", '/mak mines lay fields:"5:0815=10 5:0816=10"')], "strahl",
          [("merc", "/mak end"), ("strahl", "/mak end"), *_TURN_1, ("merc", "/mak move unit:M-AFS1 to:5:0827")], digest=True),
    SecretCase(
        name="a minefield found, and another still hidden or not (19.1.1)", scenario="minefields",
        orders_a=[("merc", '/mak mines lay fields:"5:0815=10 5:0816=10"'),
                  ("strahl", '/mak mines lay fields:"5:0827=13"'), *_FOUND_THEN_MOVE],
        orders_b=[("merc", '/mak mines lay fields:"5:0815=10 5:0816=10"'),
                  ("strahl", '/mak mines lay fields:"5:0720=6 5:0827=13"'), *_FOUND_THEN_MOVE],
        reveal_at=2 + len(_FOUND_THEN_MOVE), digest=True),
    _case("which unit a concealment marker covers (15.4.1)", "minefields", "concealment",
          "/mak conceal hide unit:M-AFS1", "/mak conceal hide unit:M-AFS2", [], "merc",
          [("strahl", "/mak end"), ("merc", "/mak end"), *_TURN_1, ("merc", "/mak move unit:M-Con1 to:5:0827")], digest=True),
    _case("an aircraft's duty (10.1.1)", "air", "",
          "/mak air commit unit:M-Falke1 mission:air", "/mak air commit unit:M-Falke1 mission:ground", [], "merc",
          [("merc", "/mak air commit"), ("strahl", "/mak air commit unit:S-PK401 mission:air"),
           ("strahl", "/mak air commit")]),
    SecretCase(
        name="which concealed unit moves (15.4.1)", scenario="minefields", options="concealment",
        orders_a=[("merc", "/mak conceal hide unit:M-AFS1"), ("merc", "/mak conceal hide unit:M-AFS2"),
                  *_MARKERS_MOVE],
        orders_b=[("merc", "/mak conceal hide unit:M-AFS2"), ("merc", "/mak conceal hide unit:M-AFS1"),
                  *_MARKERS_MOVE],
        reveal_at=2 + len(_MARKERS_MOVE), digest=True,
    ),
]
