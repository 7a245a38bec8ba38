"""The kit's sealed choices (issue 28): commitments, reveals, the order contract's new names.

The commitment scheme is the one ``docs/hidden-information.md`` gives, so these tests pin it
with values computed by hand from hashlib (the verifier re-implements it; a test in
tests/platform holds the two to one answer).
"""

from __future__ import annotations

import hashlib
import hmac

import pytest

from rules.core.answers import acting_orders, quick_answers
from rules.core.contract import Action, Event, Step
from rules.core.dice import ScriptedDice
from rules.core.errors import RuleError
from rules.core.secrets import (
    BLANK, Seal, Unseal, commit, game_key, item, leaf, nonce, opens, places, reveal, root, short_root,
)
from tests.platform.duel import DUEL
from tests.platform.shells import SHELLS, Hide, Lift, ShellsState

KEY = game_key(b"\x01" * 32)


def test_the_game_key_and_nonces_are_keyed_hashes_of_the_dice_seed():
    seed = b"\x01" * 32
    assert KEY == hmac.new(seed, b"seal", hashlib.sha256).digest()
    assert nonce(KEY, "mines:strahl", 2) == hmac.new(KEY, b"mines:strahl:2", hashlib.sha256).digest()
    assert nonce(KEY, "mines:strahl", 2) != nonce(KEY, "mines:strahl", 3)
    assert nonce(KEY, "mines:strahl", 0) != nonce(game_key(b"\x02" * 32), "mines:strahl", 0)


def test_a_leaf_commits_to_nonce_and_item_and_the_root_to_the_leaves():
    n = nonce(KEY, "k", 0)
    text = item(hex="0409", attack=7)
    assert text == '{"attack":7,"hex":"0409"}'  # canonical: keys sorted, no spaces
    assert leaf(n, text) == hashlib.sha256(n + text.encode()).hexdigest()
    leaves = [leaf(n, text), leaf(nonce(KEY, "k", 1), BLANK)]
    assert root(leaves) == hashlib.sha256("".join(leaves).encode()).hexdigest()
    assert short_root(root(leaves)) == root(leaves)[:8] + "…"


def test_padding_hides_how_many_items_a_seal_holds():
    """19.1: the minefields' number is not public; blanks pad the leaves to ``pad_to``."""
    one = commit(KEY, Seal(key="mines:a", side="a", what="laid", items=[item(hex="0101", attack=5)], pad_to=4))
    three = commit(KEY, Seal(key="mines:b", side="a", what="laid",
                             items=[item(hex=f"010{i}", attack=5) for i in range(3)], pad_to=4))
    assert len(one.leaves) == len(three.leaves) == 4
    assert sorted(one.items) == [BLANK] * 3 + [item(hex="0101", attack=5)]
    assert set(one.public()) == {"key", "side", "what", "leaves", "root"}  # no items, no nonces


def test_a_reveal_opens_its_leaf_and_a_forged_one_does_not():
    sealed = commit(KEY, Seal(key="coin:red", side="red", what="hid", items=[item(cup=2), item(cup=3)]))
    shown = reveal(sealed, Unseal(key="coin:red", index=1, why="found"))
    assert shown.item == '{"cup":3}' and opens(shown, sealed.leaves)
    forged = shown.model_dump() | {"item": item(cup=1)}
    assert not opens(forged, sealed.leaves)
    assert not opens(shown.model_dump() | {"index": 1 - shown.index}, sealed.leaves)
    assert not opens(shown.model_dump() | {"nonce": "zz"}, sealed.leaves)
    with pytest.raises(ValueError):
        reveal(sealed, Unseal(key="coin:red", index=5, why="found"))


def test_a_revealed_items_slot_says_nothing_of_how_many_were_sealed():
    """Issue 45: the items are shuffled into their slots by a keyed permutation of the seal's
    size alone, so the slot a reveal opens (its ``index`` in the record) is the same for
    the first of one minefield or of three, and is not the rules' numbering: "item 2" no
    longer says that two were laid."""
    def first_slot(key: str, count: int) -> int:
        sealed = commit(KEY, Seal(key=key, side="a", what="laid", pad_to=6,
                                  items=[item(hex=f"010{i}", attack=5) for i in range(count)]))
        shown = reveal(sealed, Unseal(key=key, index=0, why="found"))
        assert opens(shown, sealed.leaves) and shown.item == item(hex="0100", attack=5)
        return shown.index

    slots = {key: first_slot(key, 1) for key in (f"mines:{n}" for n in range(40))}
    assert all(first_slot(key, 3) == slot for key, slot in slots.items())
    assert set(slots.values()) == set(range(6))  # every slot, not the rules' first
    assert sorted(places(KEY, "mines:0", 6)) == list(range(6))


def test_an_order_seals_and_a_later_one_unseals_through_the_ctx():
    state = SHELLS.setup("standard", None, ScriptedDice([])).state
    step = SHELLS.apply(state, "red", Hide(cup=2), ScriptedDice([]))
    assert step.seals == [Seal(key="coin:red", side="red", what="hid its coin", items=['{"cup":2}'])]
    assert not step.unseals and not step.reveals
    assert [e.to for e in step.events] == ["red"]  # the hider's own line only
    step = SHELLS.apply(step.state, "blue", Hide(cup=1), ScriptedDice([]))
    missed = SHELLS.apply(step.state, "red", Lift(cup=3), ScriptedDice([]))
    assert not missed.unseals and not missed.reveals
    found = SHELLS.apply(missed.state, "blue", Lift(cup=2), ScriptedDice([]))
    assert found.unseals == [Unseal(key="coin:red", index=0, why="found under cup 2 (S2)")]
    assert found.reveals and found.game_over  # new information: undo stops here


def test_a_step_and_an_event_of_a_system_without_secrets_carry_none():
    step = DUEL.setup("standard", None, ScriptedDice([])).state
    assert Step(state=step).seals == [] and Event(kind="k", text="t").to is None
    assert not DUEL.private_info and SHELLS.private_info
    assert DUEL.view_for(step, "red") == DUEL.view(step)


def test_view_for_adds_only_the_sides_own_secret():
    state = ShellsState(hidden={"red": 2, "blue": 3})
    public = SHELLS.view(state)
    red = SHELLS.view_for(state, "red")
    assert [c.area for c in red.counters if c.id == "coin"] == ["red-2"]
    assert not any(c.id == "coin" for c in public.counters)
    assert SHELLS.view_for(state, "blue") != red


def test_orders_are_found_by_their_path_and_a_unique_leaf_name():
    assert Hide.path() == "cup hide" and Action.path.__doc__
    assert SHELLS.action_type("cup hide") is Hide and SHELLS.action_type("cup  lift") is Lift
    assert SHELLS.action_type("lift") is Lift  # one order has that leaf: found by it alone
    assert SHELLS.parse("cup hide", {"cup": "2"}) == Hide(cup=2)
    with pytest.raises(RuleError, match="orders: cup hide, cup lift, pass"):
        SHELLS.action_type("jump")
    assert Hide(cup=2).summary() == "cup hide cup:2"


def test_a_leaf_name_two_groups_share_must_be_given_with_its_group():
    class AirStrike(Action):
        """Strike from the air."""
        name, group = "strike", "air"

    class CloseStrike(Action):
        """Strike at close quarters."""
        name = "strike"

    class Twice(type(SHELLS)):  # type: ignore[misc]
        key = "twice"
        actions = (AirStrike, CloseStrike)

    system = Twice()
    assert system.action_type("strike") is CloseStrike  # the top-level order is its path
    assert system.action_type("air strike") is AirStrike
    with pytest.raises(RuleError, match="no order 'cqc strike'"):
        system.action_type("cqc strike")


def test_numbered_answers_never_offer_a_sealed_order():
    state = SHELLS.setup("standard", None, ScriptedDice([])).state
    assert SHELLS.legal_actions(state, "red")  # the rules offer hide...
    assert acting_orders(SHELLS, state, "red") == []  # ...but never as a button to press
    assert quick_answers(SHELLS, state, "red") == []
    lift = ShellsState(hidden={"red": 1, "blue": 2})
    assert [a.order for a in quick_answers(SHELLS, lift, "red")] == ["cup lift"] * 3 + ["pass"]
