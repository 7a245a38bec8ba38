"""Nothing leaks (issue 28): two games that differ only in a sealed choice look the same to
everyone else, byte for byte, until the rules reveal it.

For every registered system with ``private_info`` the cases come from the system's own
``tests/<system>/secret_cases.py`` (``CASES``; a system with secrets and no cases fails
here); Shells, the test-only system with a secret, is run too, and Leaky shells, the same
game with one deliberate leak, shows that the harness does catch a leak.  See
:mod:`tests.conformance.secretcase` for what is compared.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rules.core import registry
from rules.core.dice import seed_hash
from tests.conformance.secretcase import (
    SEED, SecretCase, decisions, first_difference, public_record, settings_for,
)
from tests.platform.shells import LEAKY, PEEKING, SHELLS

#: Shells: red hides its coin under cup 1 or cup 2; blue hides under 3; red lifts blue's
#: cup 1 (empty), blue lifts red's cup 3 (empty in both) — then blue lifts red's cup 1,
#: which finds the coin in game A only: the reveal.
SHELLS_CASE = SecretCase(
    name="shells: red's cup", scenario="standard",
    orders_a=[("red", "/shells cup hide cup:1"), ("blue", "/shells cup hide cup:3"),
              ("red", "/shells cup lift cup:1"), ("blue", "/shells cup lift cup:3"),
              ("red", "/shells pass"), ("blue", "/shells cup lift cup:1")],
    orders_b=[("red", "/shells cup hide cup:2"), ("blue", "/shells cup hide cup:3"),
              ("red", "/shells cup lift cup:1"), ("blue", "/shells cup lift cup:3"),
              ("red", "/shells pass"), ("blue", "/shells cup lift cup:1")],
    reveal_at=5,
)


@pytest.fixture(autouse=True)
def shells(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Shells registered for these tests only; both games of a case get one seed, so their
    dice and sealing keys are the same and only the sealed choice differs."""
    registry.register(SHELLS)
    registry.register(LEAKY)
    monkeypatch.setattr("bot.gamecmds.new_seed", lambda: (SEED, seed_hash(SEED)))
    yield
    registry.unregister(SHELLS.key)
    registry.unregister(LEAKY.key)


def system_cases() -> list[tuple[str, SecretCase | None]]:
    """Every registered system with secrets and its cases (None: it supplies none)."""
    out: list[tuple[str, SecretCase | None]] = []
    for key, system in registry.load_all().items():
        if not system.private_info or key in (SHELLS.key, LEAKY.key):
            continue
        try:
            module = importlib.import_module(f"tests.{key}.secret_cases")
        except ModuleNotFoundError:
            out.append((key, None))
            continue
        out += [(key, case) for case in module.CASES] or [(key, None)]
    return out


async def records(tmp_path: Path, case: SecretCase) -> tuple[list[Any], list[Any]]:
    """The public records of a case's two games."""
    a = await public_record(settings_for(tmp_path, "a"), case, case.orders_a)
    b = await public_record(settings_for(tmp_path, "b"), case, case.orders_b)
    return a, b


async def differs(tmp_path: Path, case: SecretCase) -> str | None:
    return first_difference(*await records(tmp_path, case))


def digests(record: list[Any]) -> list[str]:
    """The turn digests the bot posted on its own in a record."""
    return [entry[2][1][0] for entry in record
            if isinstance(entry, list) and len(entry) == 3 and entry[1] == "paced" and "digest" in entry[2][1][0]]


@pytest.mark.parametrize(("key", "case"), system_cases() or [pytest.param(None, None, marks=pytest.mark.skip(
    reason="no registered system keeps secrets yet"))])
async def test_a_sealed_choice_changes_nothing_anyone_else_sees_until_it_is_revealed(
        tmp_path: Path, key: str, case: SecretCase | None) -> None:
    assert case is not None, f"{key} keeps secrets but tests/{key}/secret_cases.py gives no CASES"
    a, b = await records(tmp_path, case)
    assert first_difference(a, b) is None
    assert bool(digests(a)) == case.digest, digests(a)  # a case past a turn's end compares its digest


async def test_shells_keeps_its_secret_until_the_lift_that_finds_it(tmp_path: Path) -> None:
    assert await differs(tmp_path, SHELLS_CASE) is None


async def test_the_harness_sees_the_reveal_once_it_is_compared(tmp_path: Path) -> None:
    """The same games compared one order further (the lift that finds red's coin in game A
    only) differ: the harness compares what it should."""
    further = SHELLS_CASE.model_copy(update={"reveal_at": 6})
    difference = await differs(tmp_path, further)
    assert difference is not None and "finds the coin" in difference


async def test_the_harness_catches_a_leak(tmp_path: Path) -> None:
    """Leaky shells prints red's cup in ``/game status``: the harness names it."""
    leaky = SHELLS_CASE.model_copy(update={
        "system": LEAKY.key,
        "orders_a": [(s, o.replace("/shells", "/leakyshells")) for s, o in SHELLS_CASE.orders_a],
        "orders_b": [(s, o.replace("/shells", "/leakyshells")) for s, o in SHELLS_CASE.orders_b]})
    difference = await differs(tmp_path, leaky)
    assert difference is not None and "Red's coin: cup 1" in difference and "/game status" in difference


# -- the computer does not peek (issue 43) ----------------------------------------------------


def decision_difference(case: SecretCase, system_key: str | None = None) -> str | None:
    """Where the computer's decisions alone in a case's two games part."""
    return first_difference(decisions(case, case.orders_a, system_key, observations=False),
                            decisions(case, case.orders_b, system_key, observations=False))


@pytest.mark.parametrize(("key", "case"), [c for c in system_cases() if c[1] is not None])
def test_the_computer_decides_the_same_in_both_games_until_the_reveal(key: str, case: SecretCase) -> None:
    a = decisions(case, case.orders_a)
    assert a, f"{case.name}: the side without the secret is never asked to decide"
    assert first_difference(a, decisions(case, case.orders_b)) is None


def test_the_computer_in_shells_does_not_know_where_the_coin_is() -> None:
    assert decision_difference(SHELLS_CASE) is None


def test_the_harness_catches_a_computer_that_peeks() -> None:
    """Peeking shells gives the computer the whole state: told where red's coin is, blue
    already decides otherwise in the two games (its first decision: where to hide), and the
    harness names the difference."""
    registry.register(PEEKING)
    try:
        difference = decision_difference(SHELLS_CASE, PEEKING.key)
    finally:
        registry.unregister(PEEKING.key)
    assert difference is not None and difference.startswith('entry 0: [1, "blue"'), difference
