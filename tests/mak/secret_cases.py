"""Maschinen Krieger's cases for the kit's non-interference test (issue 28,
``tests/conformance/test_secrets.py``): two games that differ only in a sealed choice must give
byte-identical public output (replies, pings, pictures, status, log, the other side's
autocomplete, the export) up to the order at ``reveal_at``, the first whose rules reveal it.

* a minefield layout (19.1): the Strahl lay theirs next to the Mercenaries' start, or far
  away; the Mercenaries move an engineer elsewhere, then walk an AFS into the hex where one
  layout has a minefield (19.1.2: revealed as it enters);
* a concealment choice (15.4.1): the Mercenary marker goes on one AFS of a stack of two, or
  on the other; the marker then moves off, leaving the other AFS in the open (seen again);
* the duty chart (10.1.1): the Mercenaries send M-Falke1 to air combat, or to ground combat;
  the assignments are compared when both sides are done.
"""

from __future__ import annotations

from tests.conformance.secretcase import SecretCase

CASES: list[SecretCase] = [
    SecretCase(
        scenario="minefields",
        options="",
        name="minefield layout (19.1)",
        orders_a=[("merc", '/mak mines lay fields:"5:0815=10 5:0816=10"'),
                  ("strahl", '/mak mines lay fields:"5:0827=13 5:0620=9 5:0621=8"'),
                  ("merc", "/mak end"), ("strahl", "/mak end"),
                  ("merc", "/mak move unit:M-EngSQ1 to:5:0928"),
                  ("merc", "/mak move unit:M-AFS1 to:5:0827")],
        orders_b=[("merc", '/mak mines lay fields:"5:0815=10 5:0816=10"'),
                  ("strahl", '/mak mines lay fields:"5:0720=6"'),
                  ("merc", "/mak end"), ("strahl", "/mak end"),
                  ("merc", "/mak move unit:M-EngSQ1 to:5:0928"),
                  ("merc", "/mak move unit:M-AFS1 to:5:0827")],
        reveal_at=5,
    ),
    SecretCase(
        scenario="minefields",
        options="concealment",
        name="which unit a concealment marker covers (15.4.1)",
        orders_a=[("merc", "/mak conceal hide unit:M-AFS1"),
                  ("strahl", "/mak end"), ("merc", "/mak end"),
                  ("merc", "/mak move unit:M-EngSQ1 to:5:0928"),
                  ("merc", "/mak move unit:M-Con1 to:5:0827")],
        orders_b=[("merc", "/mak conceal hide unit:M-AFS2"),
                  ("strahl", "/mak end"), ("merc", "/mak end"),
                  ("merc", "/mak move unit:M-EngSQ1 to:5:0928"),
                  ("merc", "/mak move unit:M-Con1 to:5:0827")],
        reveal_at=3,
    ),
    SecretCase(
        scenario="air",
        name="an aircraft's duty (10.1.1)",
        orders_a=[("merc", "/mak air commit unit:M-Falke1 mission:air"), ("merc", "/mak air commit"),
                  ("strahl", "/mak air commit unit:S-PK401 mission:air"), ("strahl", "/mak air commit")],
        orders_b=[("merc", "/mak air commit unit:M-Falke1 mission:ground"), ("merc", "/mak air commit"),
                  ("strahl", "/mak air commit unit:S-PK401 mission:air"), ("strahl", "/mak air commit")],
        reveal_at=3,
    ),
]
