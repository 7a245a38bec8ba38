"""The conformance kit: every registered system (and the test-only ``duel``) held to one suite.

Nothing here names a system: a new package under ``rules/`` is played by these tests the day
it is added.  What each system must show, from its declarations alone:

* random legal playouts reach the end (over :data:`SEEDS` seeds), every order offered is
  accepted, ``apply`` never changes its input, every state survives a JSON round trip and
  holds only finite numbers (JSON has no NaN), and the sides waited on always have a legal
  order while the others have only anytime/read-only ones;
* re-applying each recorded order with its recorded dice reproduces every state (replay);
* autocomplete: filling each option of each legal order with a suggestion (the first one, and
  a random one) gives an order the rules accept, 100% of the time;
* garbage orders and options are refused with a RuleError, never another exception, and the
  state is unchanged.

Systems steer the random player with ``playout_hints`` only; the seeds are fixed so that a
failure names a seed that reproduces it (``play(system, seed)``).
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.commands import system_group
from rules.core import registry
from rules.core.contract import Action, GameSystem
from rules.core.dice import RecordedDice, SeededDice
from rules.core.errors import RuleError
from rules.core.finite import require_finite
from rules.core.playout import PlayedStep, Playout, play
from tests.platform.duel import DUEL
from tests.seeds import seed_split

registry.register(DUEL)
SYSTEMS = registry.load_all()
KEYS = sorted(SYSTEMS)
#: Seeds of the playouts: at least 50 per system in every run.
SEEDS = range(50)


def _check_step(system: GameSystem[Any], played: PlayedStep) -> None:
    """Round trip, only finite numbers, waiting_on against legal orders, events with text."""
    state = played.step.state
    # JSON has no NaN or infinity: the bot refuses to store one (rules/core/finite.py), so a
    # system that can compute one must be caught here, naming the field, not in a game.
    require_finite(state)
    require_finite(played.step.events, "events")
    assert system.load_state(state.model_dump_json()) == state, "state lost in a JSON round trip"
    assert all(e.text.strip() for e in played.step.events), "an event without a line"
    # A side waited on is checked by the driver itself (it needs a legal order to go on).
    for side in set(system.sides) - set(played.step.waiting_on):
        legal = system.legal_actions(state, side, read_only=False)
        assert all(a.anytime or a.read_only for a in legal), \
            f"{side} is not waited on but offered {[a.summary() for a in legal][:3]}"


_playouts: dict[tuple[str, int], Playout] = {}


def playout(key: str, seed: int) -> Playout:
    """One recorded game (kept for the replay and autocomplete tests of the same run)."""
    if (key, seed) not in _playouts:
        _playouts[(key, seed)] = play(SYSTEMS[key], seed, check=_check_step)
    return _playouts[(key, seed)]


@pytest.mark.parametrize("key", KEYS)
def test_declarations_can_be_expressed_by_every_front_end(key: str) -> None:
    """Every order option and game option maps to a front-end type (else TypeError at start)."""
    system = SYSTEMS[key]
    system.check_declarations()
    assert system.sides and system.scenarios and system.actions
    assert len({a.path() for a in system.actions}) == len(system.actions)


@pytest.mark.parametrize("key", KEYS)
def test_the_orders_fit_discords_command_limits(key: str) -> None:
    """Discord takes at most 25 subcommands or subcommand groups per command and 25
    subcommands per group (issue 28: ``/mak`` had reached 25); names are lower-case words
    of at most 32 characters, and a group is not also the name of a top-level order."""
    system = SYSTEMS[key]
    assert system_group(key).limit_problems() == []
    for action in system.actions:
        for word in filter(None, (action.group, action.name)):
            assert re.fullmatch(r"[-_a-z0-9]{1,32}", word), f"{action.path()!r} is not a Discord name"
    top = {a.name for a in system.actions if not a.group}
    assert not top & {a.group for a in system.actions}, "a group shares its name with an order"


@seed_split(3, len(SEEDS))
@pytest.mark.parametrize("key", KEYS)
def test_random_legal_playouts_reach_the_end(key: str, seeds: range) -> None:
    """50 seeds (the first 3 in the README's test line, the other 47 behind ``slow``):
    every offered order accepted, input never changed, each game ends."""
    lengths = []
    for seed in seeds:
        game = playout(key, seed) if seed < 5 else play(SYSTEMS[key], seed, check=_check_step,
                                                       keep_steps=False)
        assert game.final is not None and SYSTEMS[key].result(game.final) is not None
        lengths.append(game.orders)
    print(f"{key}: {len(lengths)} games, {min(lengths)}-{max(lengths)} orders")


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("seed", range(3))
def test_replaying_the_recorded_dice_reproduces_every_state(key: str, seed: int) -> None:
    """The log is enough: each order re-applied with its recorded rolls gives the same state."""
    system = SYSTEMS[key]
    game = playout(key, seed)
    again = system.setup(game.scenario, dict(system.playout_hints.options),
                         SeededDice(f"{key}-{seed}".encode()))
    assert again.state == game.opening.state
    for played in game.steps:
        step = system.apply(played.before, played.side, played.action, RecordedDice(played.rolls))
        assert step.state.model_dump_json() == played.step.state.model_dump_json(), played.action.summary()


def _fill(system: GameSystem[Any], state: Any, side: str, name: str, rng: random.Random | None,
          switched: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """Options of order ``name`` filled field by field from autocomplete (first or random),
    after the ``switched`` ones (a bool a player sets first: Discord offers no suggestion for
    it, so the suggestions that follow must fit it)."""
    model = system.action_type(name)
    partial: dict[str, Any] = dict(switched or {})
    for spec in model.options():
        if spec.kind not in ("id", "enum"):
            continue
        offered = [c for c in system.choices(state, side, name, spec.name, dict(partial)) if not c.info]
        assert len(offered) <= 25
        if not offered:
            if spec.required:
                return None  # nothing to suggest: the order is not offered through this path
            continue
        partial[spec.name] = (rng.choice(offered) if rng else offered[0]).value
    return partial


def _switches(system: GameSystem[Any], name: str, legal: list[Action]) -> list[dict[str, bool]]:
    """The bool options of order ``name`` some legal order sets (a forced march, a booster,
    an airstrike added): each one switched on alone."""
    flags = [spec.name for spec in system.action_type(name).options() if spec.kind == "bool"]
    return [{f: True} for f in flags if any(a.path() == name and getattr(a, f, False) is True for a in legal)]


@pytest.mark.parametrize("key", KEYS)
def test_every_autocomplete_suggestion_leads_to_an_accepted_order(key: str) -> None:
    """Filling every option with a suggestion (first, then random; and after switching on
    each bool option a legal order sets) is accepted: 100%."""
    system = SYSTEMS[key]
    rng = random.Random(7)
    sent = refused = 0
    failures: list[str] = []
    for seed in range(3):
        for played in playout(key, seed).steps[::3]:
            state, side = played.before, played.side
            legal = [a for a in system.legal_actions(state, side) if not a.read_only]
            for name in sorted({a.path() for a in legal}):
                for pick, switched in [(None, None), (rng, None)] + [
                        (rng, sw) for sw in _switches(system, name, legal)]:
                    options = _fill(system, state, side, name, pick, switched)
                    if options is None:
                        continue
                    sent += 1
                    try:
                        system.apply(state, side, system.parse(name, options), SeededDice(b"ac"))
                    except RuleError as exc:
                        refused += 1
                        failures.append(f"/{key} {name} {options}: {exc}")
    print(f"{key}: {sent - refused}/{sent} autocompleted orders accepted")
    assert sent > 0
    assert not failures, "\n".join(failures[:10])


def _words(system: GameSystem[Any], state: Any) -> list[str]:
    """Plausible option values: ids from legal orders, and junk."""
    values = {str(v) for a in system.legal_actions(state, system.sides[0]) for v in a.model_dump().values()}
    return sorted(values)[:40] + ["", " ", "0", "-1", "99999999999999999999", "x" * 300, "✖", "a,b", "None"]


@pytest.mark.parametrize("key", KEYS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_garbage_orders_are_refused_with_a_sentence_and_change_nothing(key: str, data: st.DataObject) -> None:
    """Any order name, any options, any side: a RuleError or a Step, never a crash or a change."""
    system = SYSTEMS[key]
    game = playout(key, 0)
    states = [game.opening.state] + [p.step.state for p in game.steps[:: max(1, len(game.steps) // 8)]]
    state = data.draw(st.sampled_from(states))
    words = _words(system, state)
    name = data.draw(st.sampled_from([a.path() for a in system.actions] + ["nonsense", ""]))
    fields = list(system.action_type(name).model_fields) if name in {a.path() for a in system.actions} else []
    keys = st.sampled_from(fields + ["junk"]) if fields else st.just("junk")
    options = data.draw(st.dictionaries(keys, st.sampled_from(words) | st.integers(-5, 99) | st.booleans(),
                                        max_size=4))
    side = data.draw(st.sampled_from(list(system.sides) + ["nobody"]))
    before = state.model_dump_json()
    try:
        action: Action = system.parse(name, options)
        system.apply(state, side, action, SeededDice(b"fuzz"))
    except RuleError as exc:
        assert str(exc).strip(), "an empty refusal"
    assert state.model_dump_json() == before


@pytest.mark.parametrize("key", KEYS)
@settings(max_examples=40, deadline=None)
@given(raw=st.text(max_size=40) | st.sampled_from(["turns=abc", '{"turns": 5}', "nonsense=1", "turns",
                                                   "turns=5", "single", "target=20"]))
def test_garbage_game_options_are_refused_with_the_known_ones(key: str, raw: str) -> None:
    """``/game new options:`` text: parsed into the system's model or refused, listing options."""
    system = SYSTEMS[key]
    try:
        parsed = system.parse_options(raw)
    except RuleError as exc:
        assert "option" in str(exc)
        return
    assert isinstance(parsed, system.options_model)
