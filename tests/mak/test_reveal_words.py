"""A revealed secret reads as players' words in the public line, not as JSON (issue 28):
a minefield (19.1.1), an artillery mine round lost on an enemy field (19.1.6), a concealment
marker's unit (15.4.1) and an aircraft's duty (10.1.1); the record keeps the JSON."""

from __future__ import annotations

from bot import sealing
from rules.core import registry, secrets


def revealed(key: str, item: str) -> str:
    """The public line of one reveal of ``item`` (sealed ``key``) in a mak game."""
    action = {"reveals": [{"key": key, "index": 0, "why": "why (1.0)", "item": item,
                           "nonce": "00", "leaf": "00"}]}
    [line] = sealing.public_lines(registry.get("mak"), "merc", action)
    return line


def test_19_1_1_a_found_minefield_reads_as_its_hex_and_attack() -> None:
    line = revealed("mines:strahl", secrets.item(hex="5:0409", attack=7))
    assert line == "🔓 Revealed, why (1.0): a minefield in 5:0409, attack 7 (sealed mines:strahl)"


def test_19_1_6_a_mine_round_lost_on_an_enemy_field_says_so() -> None:
    line = revealed("mines:merc:art3", secrets.item(hex="5:0410", lost="an enemy minefield was there"))
    assert "the mines fired on 5:0410 were lost: an enemy minefield was there (19.1.6)" in line


def test_15_4_1_a_marker_reads_as_the_unit_it_was_over() -> None:
    assert ": M-Con1 was over M-AFS1 (sealed" in revealed("conceal:M-Con1:4", secrets.item(marker="M-Con1", unit="M-AFS1"))


def test_10_1_1_an_aircraft_reads_as_its_duty() -> None:
    assert ": M-Falke1: Ground Combat (sealed" in revealed("air:2:merc:5", secrets.item(mission="ground", unit="M-Falke1"))


def test_a_blank_pad_and_an_unknown_shape_never_fail() -> None:
    assert ": (blank) (sealed" in revealed("mines:strahl", secrets.BLANK)
    assert ": colour red (sealed" in revealed("mines:strahl", secrets.item(colour="red"))
    assert ": not json (sealed" in revealed("other:1", "not json")
