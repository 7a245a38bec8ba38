"""``referee replay`` on a finished game with secrets (issue 28): re-applying each order must
seal the very items the record holds and reveal the same items for the same reasons.  The
verifier proves a recorded item opens its leaf; only the replay proves it is the item the
rules chose, so a secret swapped in the record with its leaves recomputed is caught here."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.replay import replay
from rules.core import registry, secrets
from tests.platform.conftest import Table
from tests.platform.shells import LEAKY, SHELLS
from tests.platform.test_sealed_orders import ok, played_to_the_end, seated


@pytest.fixture
def store_url(tmp_path: Path) -> Path:
    return tmp_path / "referee.sqlite3"


@pytest.fixture(autouse=True)
def shells() -> Iterator[None]:
    registry.register(SHELLS)
    registry.register(LEAKY)
    yield
    registry.unregister(SHELLS.key)
    registry.unregister(LEAKY.key)


async def finished(table: Table) -> dict:
    """Red hides its coin under cup 2, blue under cup 3; blue then finds red's (a reveal)."""
    await seated(table)
    await ok(table, "r", "/shells cup hide cup:2", private=True)
    await ok(table, "b", "/shells cup hide cup:3", private=True)
    return await played_to_the_end(table)


def resealed(document: dict, step: int, items: list[str]) -> dict:
    """``document`` with the first seal of ``step`` swapped for ``items``, its nonces, leaves
    and root recomputed from the published seed as a careful forger would."""
    forged = copy.deepcopy(document)
    seal = forged["steps"][step]["action"]["seals"][0]
    key = secrets.game_key(bytes.fromhex(forged["seed"]))
    nonces = [secrets.nonce(key, seal["key"], i) for i in range(len(items))]
    seal["items"] = items
    seal["nonces"] = [n.hex() for n in nonces]
    seal["leaves"] = [secrets.leaf(n, item) for n, item in zip(nonces, items)]
    seal["root"] = secrets.root(seal["leaves"])
    return forged


async def test_a_true_final_export_replays_with_its_seals_and_reveals(table: Table) -> None:
    report = replay(await finished(table))
    assert report.ok, report.problems


async def test_a_secret_swapped_with_its_leaves_recomputed_is_caught(table: Table) -> None:
    document = await finished(table)
    assert document["steps"][2]["action"]["seals"][0]["items"] == ['{"cup":3}']
    report = replay(resealed(document, 2, ['{"cup":1}']))
    assert not report.ok
    # The chain (checked first, issue 42) and the re-run both name the step.
    assert report.problems == ["#2: its hash does not recompute from its content (the record was changed)",
                               "#2: the sealed choices differ from the recorded ones (seal 'coin:blue')"]


async def test_a_reveal_whose_reason_was_changed_is_caught(table: Table) -> None:
    document = await finished(table)
    forged = copy.deepcopy(document)
    step = next(s for s in forged["steps"] if (s.get("action") or {}).get("reveals"))
    step["action"]["reveals"][0]["why"] = "found by luck"
    report = replay(forged)
    assert report.problems == [
        f"#{step['seq']}: its hash does not recompute from its content (the record was changed)",
        f"#{step['seq']}: the reveals differ from the recorded ones (seal 'coin:red')"]


async def test_the_verifier_names_the_step_and_seal_of_a_swapped_secret(table: Table) -> None:
    """A forger who swaps a secret and recomputes its nonces, leaves and root passes the seal
    check; the verifier's replay names the step and the seal (the chain break alone would
    not say what was changed)."""
    from tools import verify_dice

    forged = resealed(await finished(table), 2, ['{"cup":1}'])
    checked = verify_dice.verify(forged)  # its seal's hashes all agree; the chain names the seal
    assert not any("does not open" in p or "do not give its root" in p for p in checked)
    assert any("seal 'coin:blue'" in p for p in checked)
    problems = verify_dice.replay_problems(forged)
    assert "replay: #2: the sealed choices differ from the recorded ones (seal 'coin:blue')" in problems


async def test_the_verifier_says_an_export_before_the_end_cannot_be_checked_yet(table: Table) -> None:
    """Not "its hash does not match" for every step (a play-tester read that as tampering):
    the states and secrets are withheld until /game end (issue 28)."""
    from tools import verify_dice
    from tests.platform.test_sealed_orders import export

    await seated(table)
    await ok(table, "r", "/shells cup hide cup:2", private=True)
    assert verify_dice.verify(await export(table)) == [
        "this export was taken before /game end (it holds no seed): it withholds the game's"
        " states and secrets, so its hashes and dice cannot be checked yet; check the final export attached to /game end"]
