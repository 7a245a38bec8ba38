"""The corpus of recorded games, replayed on every run (issue 42).

``tests/fixtures/games/`` holds ten whole games of every system, exported at ``/game end``
by the code of the day (``tests/corpus/record.py``).  Each must replay exactly under today's
code: a change that makes any recorded order resolve otherwise fails here, naming the game,
the step and the rule its first differing event cites, until the system's rules version is
bumped (with its CHANGELOG line naming the rule) and the system's games are re-recorded.

The default run replays every game of up to :data:`FAST_STEPS` steps (a few seconds); the
long games played until the rules end them are replayed under the ``slow`` marker.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot import versions
from bot.checkgames import check_games
from bot.replay import load_export, replay
from rules.core import registry
from tests.corpus.record import FIXTURES, GAMES, CorpusRecorder, plans
from tests.golden.record import SYSTEMS, seeded_service

#: The longest game the default run replays (the longer ones: ``pytest -m slow``).
FAST_STEPS = 120
GAMES_FOUND = sorted(FIXTURES.glob("*.json.gz"))
DOCUMENTS = {p.name: load_export(p) for p in GAMES_FOUND}


def findings(name: str, document: dict[str, Any]) -> list[str]:
    """What is wrong with one recorded game under today's code, each naming the step and
    the rule, and what to do about it (empty: it replays exactly)."""
    system = registry.get(document["system"])
    report = replay(document)
    redo = (f"if the ruling changed on purpose, bump {system.key}'s rules_version (rules/{system.key}/system.py),"
            f" add its line to rules/{system.key}/CHANGELOG.md and re-record: python -m tests.corpus.record"
            f" {system.key}")
    found = [f"{name} {v.text} ({v.detail()}): made under today's rules ({versions.today(system)}), it must"
             f" reproduce exactly — {redo}" for v in report.verdicts if v.kind == "problem"]
    found += [f"{name} {p}" for p in report.problems if p not in {v.text for v in report.verdicts}]
    found += [f"{name} {p} — this game was recorded under older rules: re-record it"
              f" (python -m tests.corpus.record {system.key})" for p in report.explained]
    made = {m["rules"] for m in document["versions"]["steps_made_under"]}
    if made != {system.rules_version}:
        found.append(f"{name} was recorded under {sorted(made)}, not today's {versions.today(system)}: re-record it")
    return found


def short_games() -> list[str]:
    """The games the default run replays."""
    return [n for n, d in DOCUMENTS.items() if len(d["steps"]) <= FAST_STEPS]


def test_every_system_has_ten_whole_games_of_every_kind() -> None:
    """Ten games a system, each exported at /game end (its seed revealed), between them
    rerolls, rollbacks, undos, a scenario file, and Maschinen Krieger's sealed secrets."""
    for key in SYSTEMS:
        mine = {n: d for n, d in DOCUMENTS.items() if d["system"] == key}
        assert len(mine) >= GAMES, f"{key}: {len(mine)} recorded games (python -m tests.corpus.record {key})"
        assert len({d["seed_hash"] for d in mine.values()}) == len(mine), f"{key}: two games share a seed"
        assert all(d["seed"] and d["audit"][-1]["action"] == "end" for d in mine.values())
        # Recorded by the code of the day: chain /2 (issue 45), every step versioned.
        assert {d.get("chain_format") for d in mine.values()} == {"referee-chain/2"}, key
        assert all(s["versions"] for d in mine.values() for s in d["steps"]), key
        actions = {a["action"] for d in mine.values() for a in d["audit"]}
        assert {"reroll", "rollback", "undo"} <= actions, (key, actions)
        assert any(s["reverted_by"] for d in mine.values() for s in d["steps"]), key
        assert any(d["scenario_text"] for d in mine.values()), f"{key}: no game from a scenario file"
    sealed = [s for n, d in DOCUMENTS.items() if n.startswith("mak")
              for s in d["steps"] if (s["action"] or {}).get("seals")]
    assert sealed, "no Maschinen Krieger game seals a secret (air duty, minefields, concealment)"


@pytest.mark.parametrize("name", short_games())
def test_recorded_game_replays_exactly(name: str) -> None:
    assert not findings(name, DOCUMENTS[name])


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(DOCUMENTS))
def test_every_recorded_game_replays_exactly(name: str) -> None:
    """Every game, the long ones played to their end included (``pytest -m slow``)."""
    assert not findings(name, DOCUMENTS[name])


def test_the_corpus_is_replayed_in_a_few_seconds() -> None:
    """The default run's share stays small: most games are short, a few are long (slow)."""
    steps = sum(len(DOCUMENTS[n]["steps"]) for n in short_games())
    assert len(short_games()) >= 0.8 * len(DOCUMENTS) and steps < 3_000, steps


# -- a changed ruling is named ---------------------------------------------------------------------

def _more_hits(monkeypatch: pytest.MonkeyPatch) -> None:
    """A deliberately changed ruling: every successful attack scores one hit more (7.3.3)."""
    from rules.rr import rolls  # noqa: PLC0415

    ruled = rolls.hits_for
    monkeypatch.setattr(rolls, "hits_for", lambda margin: min(3, ruled(margin) + 1) if margin > 0 else 0)


def _rr_version() -> int:
    """rr's rules version today (the corpus is recorded under it)."""
    return registry.get("rr").rules_version


def test_a_changed_ruling_fails_the_corpus_naming_the_step_and_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    _more_hits(monkeypatch)
    found = [f for n in short_games() if n.startswith("rr-") for f in findings(n, DOCUMENTS[n])]
    assert found, "no recorded rr game noticed that every attack scores one hit more"
    first = found[0]
    assert "#" in first and ("rule 7.3.3 ·" in first or "rule 7.3.5 ·" in first), first
    assert f"made under today's rules (rr {_rr_version()})" in first, first
    assert "bump rr's rules_version" in first and "CHANGELOG.md" in first


def test_a_bumped_version_is_a_rules_change_not_a_forgery(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same changed ruling with rr's version bumped and its changelog line: the old
    games replay as made under today's version, with the rule and both outcomes, never as
    problems; the corpus still asks for them to be re-recorded."""
    from rules.rr.system import RaidAndRiposte  # noqa: PLC0415

    now = _rr_version()
    _more_hits(monkeypatch)
    monkeypatch.setattr(RaidAndRiposte, "rules_version", now + 1)
    text = versions.changelog_text(registry.get("rr")) + f"- rr {now + 1}: 7.3.3 every successful attack scores one hit more\n"
    monkeypatch.setattr(versions, "changelog_text", lambda system: text)
    name = next(n for n in short_games() if n.startswith("rr-") and findings(n, DOCUMENTS[n]))
    report = replay(DOCUMENTS[name])
    assert report.ok and not report.problems and report.explained
    said = report.explained[0]
    assert f"made under rr {now}; today's rules (rr {now + 1}) give" in said and "where it recorded" in said
    assert f"7.3.3 changed in rr {now + 1} (rr {now + 1}: 7.3.3 every successful attack scores one hit more)" in said
    assert "forged" not in said
    assert any("re-record it" in f for f in findings(name, DOCUMENTS[name]))


def test_check_games_names_the_rule_and_changes_nothing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A live rr game (the corpus's first, not ended) checked under the changed ruling:
    check-games lists its first differing step with the rule and both outcomes; nothing
    of the game is changed."""
    from bot.logcheck import table_rows  # noqa: PLC0415

    plan = plans("rr")[0]

    async def live() -> tuple[list[Any], list[Any], dict[str, list[str]], dict[str, list[str]]]:
        async with seeded_service("rr", "corpus-live") as (service, clock):
            await CorpusRecorder(service, plan, clock).play()
            db = service.settings.db
            assert isinstance(db, Path)
            clean = check_games(db)
            before = table_rows(db)
            _more_hits(monkeypatch)
            changed = check_games(db)
            return clean, changed, before, table_rows(db)

    clean, changed, before, after = asyncio.run(live())
    assert [c.first for c in clean] == [None]
    first = changed[0].first
    # 7.3.3 ranged fire or 7.3.5 assault: both score hits by the margin (hits_for).
    assert first is not None and first.rule in ("7.3.3", "7.3.5") and first.recorded and first.today
    assert first.recorded != first.today and "hits" in first.today
    assert f"#{first.seq}: the state differs from the recorded one (rule {first.rule} · recorded:" in changed[0].line()
    assert "made under today's rules" in changed[0].line()
    assert {k: v for k, v in before.items() if k != "bot_meta"} == {k: v for k, v in after.items() if k != "bot_meta"}


# -- an export from before versioning, and a relabelled one ------------------------------------------

EXPORTS = FIXTURES.parent / "exports"
BEFORE = EXPORTS / "rr-before-versioning.json.gz"
#: Exports made before versioning: by the code before issue 45 (``referee-log/1``, chain
#: ``/1``) and by main at 920d859, after it (``referee-log/2``, chain ``/2``, record counts,
#: Maschinen Krieger's seals in keyed slots), each a whole game ended with /game end.
BEFORE_ALL = (BEFORE, EXPORTS / "rr-before-versioning-chain2.json.gz", EXPORTS / "mak-before-versioning-chain2.json.gz")


@pytest.mark.parametrize("path", BEFORE_ALL, ids=lambda p: p.name)
def test_an_export_from_before_versioning_replays_with_a_clear_report(
        path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Made by main before this change (no versions anywhere in it): it replays exactly, and
    says it was made before versioning; the verifier passes it too."""
    from bot.upgradecli import run_replay  # noqa: PLC0415
    from tools import verify_dice  # noqa: PLC0415

    document = load_export(path)
    assert "versions" not in document and all("versions" not in s for s in document["steps"])
    assert run_replay(path, release=False) == 0
    out = capsys.readouterr().out
    assert out.startswith("Steps made before versioning; replayed by release") and "forged" not in out
    # Every step either reproduces or, where a ruling changed since the file was made, is
    # reported as a rules change ("△"), never as forged nor as a difference ("✗").
    assert "✗" not in out
    assert (f"{len(document['steps'])}/{len(document['steps'])} steps reproduced exactly." in out
            or ("resolve otherwise under today's rules (a rules change, not a forgery" in out
                or "resolves otherwise under today's rules (a rules change, not a forgery" in out)
            and all("made before versioning; today's rules" in line and "where it recorded" in line
                    for line in out.splitlines() if line.startswith("△")))
    assert verify_dice.verify(document) == []


def test_the_before_versioning_exports_are_of_both_chain_schemes() -> None:
    formats = {(load_export(p)["format"], load_export(p).get("chain_format")) for p in BEFORE_ALL}
    assert formats == {("referee-log/1", None), ("referee-log/2", "referee-chain/2")}
    assert any((s["action"] or {}).get("seals") for s in load_export(BEFORE_ALL[2])["steps"])


@pytest.mark.parametrize("path", BEFORE_ALL[:2], ids=lambda p: p.name)
def test_before_versioning_and_a_changed_ruling_is_no_forgery(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _more_hits(monkeypatch)
    report = replay(load_export(path))
    assert report.ok and report.explained and not report.problems
    from rules.rr import SYSTEM as RR  # noqa: PLC0415

    today = f"made before versioning; today's rules (rr {RR.rules_version}) give"
    assert all(e.split(": ", 1)[1].startswith(today)
               and "forged" not in e for e in report.explained)


def test_a_relabelled_rules_version_breaks_the_chain() -> None:
    """A step's versions are covered by its hash: claiming a step was made under older rules
    (so that its difference would read as a rules change) is caught before any re-run."""
    import copy  # noqa: PLC0415

    name = short_games()[0]
    forged = copy.deepcopy(DOCUMENTS[name])
    forged["steps"][1]["versions"]["rules"] = 0
    assert replay(forged).problems[0] == "#1: its hash does not recompute from its content (the record was changed)"


def test_a_changed_roll_of_a_final_export_is_named() -> None:
    import copy  # noqa: PLC0415

    name, seq = next((n, s["seq"]) for n in short_games() for s in DOCUMENTS[n]["steps"] if s["dice"])
    forged = copy.deepcopy(DOCUMENTS[name])
    roll = forged["steps"][seq]["dice"][0]
    roll["value"] = roll["value"] % roll["sides"] + 1
    problems = replay(forged).problems
    assert any(p.startswith(f"#{seq}: roll {roll['index']} (") and "the seed gives" in p for p in problems), problems
