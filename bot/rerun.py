"""One recorded step run again under today's rules, and what a difference means (issue 42).

A step is applied again on the state it followed with the dice it recorded; what it gives
is compared with what it recorded (:func:`difference`: whether it still applies, the dice
it asks for, its events, its state, its seals).  Then the step's versions decide what a
difference is (:func:`verdict`):

* made under today's rules version: it must reproduce exactly, so a difference is a problem
  (a forged record, or a ruling changed without its version bumped);
* made under an older one: a rules change, said with the rule and both outcomes: "made
  under rr 3; today's rules (rr 4) give …: 7.3.3 changed in rr 4", never "forged";
* made under a newer one than this release knows, or before versioning: said as such.

The chain, the dice and the seals are checked before any of this (``bot/exportcheck.py``):
they never depend on the rules.  ``referee replay``, ``referee check-games`` and the corpus
of recorded games (``tests/fixtures/games``) all judge a step here.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel

from bot import versions
from bot.pipeline import apply_recorded
from rules.core.contract import GameSystem, Step
from rules.core.dice import DiceExhausted, RecordedDice, Roll
from rules.core.errors import RuleError

#: What a re-run step is: the same; a problem (made under today's rules, and different);
#: a rules change (made under older rules); made under rules newer than this release's;
#: made before versioning and different.
Kind = Literal["same", "problem", "changed", "newer", "unversioned"]
#: The longest outcome a report quotes (an event line or two).
OUTCOME_CHARS = 160


class Difference(BaseModel):
    """How a step run again differs from its record."""

    what: str
    #: The rule the first differing event cites (either side's), if any.
    rule: str | None = None
    recorded: str = ""
    today: str = ""


class Verdict(BaseModel):
    """What a re-run step is, and the sentence that says it (a problem's: what differs,
    as replay has always said it; :meth:`detail` adds the rule and both outcomes)."""

    seq: int
    kind: Kind
    text: str = ""
    rule: str | None = None
    recorded: str = ""
    today: str = ""

    def detail(self) -> str:
        """The rule and both outcomes, for a problem's second line."""
        rule = f"rule {self.rule} · " if self.rule else ""
        return f"{rule}recorded: {self.recorded!r} · today: {self.today!r}"


def outcome(events: list[dict[str, Any]]) -> str:
    """What a step's events say, in one short line (public lines only)."""
    text = " · ".join(str(e.get("text", "")) for e in events if e.get("to") is None) or "no events"
    return text if len(text) <= OUTCOME_CHARS else text[:OUTCOME_CHARS - 1] + "…"


def rerun(system: GameSystem[Any], document: dict[str, Any], entry: dict[str, Any],
          parent: dict[str, Any] | None, seals: dict[str, dict[str, Any]]) -> Difference | None:
    """Apply the recorded step ``entry`` again on its ``parent`` state (None for a setup)
    with its recorded dice; None when it gives exactly its record.  ``seals``: the newest
    recorded seal of each key on the steps run before (updated here with ``entry``'s), which
    gives a reveal's slot (issue 45: a seal keeps its items in keyed, shuffled slots)."""
    action = entry.get("action") or {}
    seals.update({str(s.get("key")): s for s in action.get("seals", []) if isinstance(s, dict)})
    dice = RecordedDice([Roll.model_validate(r) for r in entry["dice"]])
    state = system.state_model.model_validate(parent) if parent is not None else None
    recorded = list(entry.get("events") or [])
    try:
        step, _ = apply_recorded(system, document["scenario"], document.get("options", {}),
                                 state, entry["action"], entry["side"], dice)
    except (RuleError, DiceExhausted) as exc:
        return Difference(what=f"could not be applied again: {exc}", rule=_last_rule(recorded),
                          recorded=outcome(recorded), today=f"refused: {str(exc)[:OUTCOME_CHARS]}")
    return _compare(step, dice, entry, recorded, seals)


def _compare(step: Step, dice: RecordedDice, entry: dict[str, Any], recorded: list[dict[str, Any]],
             seals: dict[str, dict[str, Any]]) -> Difference | None:
    """How ``step`` (made again) differs from ``entry``'s record, if it does."""
    events = [e.record() for e in step.events]
    what = _what_differs(step, dice, entry, events, recorded, seals)
    if what is None:
        return None
    return Difference(what=what, rule=_first_rule(recorded, events), recorded=outcome(recorded),
                      today=outcome(events))


def _what_differs(step: Step, dice: RecordedDice, entry: dict[str, Any], events: list[dict[str, Any]],
                  recorded: list[dict[str, Any]], seals: dict[str, dict[str, Any]]) -> str | None:
    """The first part of the record ``step`` does not give again, in words."""
    if dice.position != len(dice.recorded):
        return f"used {dice.position} of its {len(dice.recorded)} recorded rolls"
    if json.loads(step.state.model_dump_json()) != _as_read_today(step, entry["state"]):
        return "the state differs from the recorded one"
    if events != recorded:
        return "the events differ from the recorded ones"
    return secret_problem(step, entry.get("action") or {}, seals)


def _as_read_today(step: Step, recorded: Any) -> Any:
    """The recorded state as today's code reads it when the game resumes: a field added since
    at its default, so a state a release before the field was added stored is compared on
    what it holds, not reported different at every step for a field it could not have.  A
    state today's model refuses is compared as stored."""
    try:
        return json.loads(type(step.state).model_validate(recorded).model_dump_json())
    except ValueError:
        return recorded


def _first_rule(recorded: list[dict[str, Any]], again: list[dict[str, Any]]) -> str | None:
    """The rule of the first event that differs (today's, else the recorded one's), or of
    the last event either side has when they agree line for line (the state differs)."""
    for mine, theirs in zip(again, recorded):
        if mine != theirs:
            return mine.get("rule") or theirs.get("rule")
    longer = again[len(recorded):] or recorded[len(again):]
    if longer:
        return longer[0].get("rule")
    return _last_rule(again or recorded)


def _last_rule(events: list[dict[str, Any]]) -> str | None:
    return next((str(e["rule"]) for e in reversed(events) if e.get("rule")), None)


def verdict(system: GameSystem[Any], entry: dict[str, Any], found: Difference | None) -> Verdict:
    """What a re-run step is, from its versions (``entry["versions"]``) and ``found``."""
    seq = entry["seq"]
    if found is None:
        return Verdict(seq=seq, kind="same")
    made = entry.get("versions") or {}
    rules = made.get("rules") if isinstance(made.get("rules"), int) else None
    fields = {"seq": seq, "rule": found.rule, "recorded": found.recorded, "today": found.today}
    now = versions.today(system)
    if rules == system.rules_version:
        return Verdict(kind="problem", text=f"#{seq}: {found.what}", **fields)
    if rules is None:
        return Verdict(kind="unversioned", text=f"#{seq}: made before versioning; today's rules ({now})"
                                                f" give {found.today!r} where it recorded {found.recorded!r}"
                                                f"{_why(system, None, found.rule)}", **fields)
    made_under = versions.label(system.key, rules)
    if rules > system.rules_version:
        return Verdict(kind="newer", text=f"#{seq}: made under {made_under}, newer than this release's"
                                          f" {now}: replay it with the release that made it"
                                          f" ({made.get('release')}; referee replay --release)", **fields)
    return Verdict(kind="changed", text=f"#{seq}: made under {made_under}; today's rules ({now}) give"
                                        f" {found.today!r} where it recorded {found.recorded!r}"
                                        f"{_why(system, rules, found.rule)}", **fields)


def _why(system: GameSystem[Any], rules: int | None, rule: str | None) -> str:
    """``: 7.3.3 changed in rr 4 (rr 4: 7.3.3 retreat …)``, from the changelog; or the
    changelog lines since, when none names the rule."""
    named = versions.changed_rule(system, rules, rule)
    if named is not None:
        return f": {named.rule} changed in {versions.label(system.key, named.version)} ({named.line()})"
    since = versions.changes_after(system, rules)
    cited = f"{rule} " if rule else ""
    if not since:
        return f": {cited}resolves otherwise, and the rules changelog names no change since"
    return f": {cited}resolves otherwise; the rules changed since in " + "; ".join(c.line() for c in since)


def secret_problem(step: Step, action: dict[str, Any], seals: dict[str, dict[str, Any]]) -> str | None:
    """Whether the seals and reveals the order makes again are the recorded ones (issue 28):
    the same keys, owners, public words and padded items sealed, the same items revealed for
    the same reasons.  The verifier checks that each recorded item opens its leaf; this checks
    that the items are the ones the rules chose, so a record whose secret was swapped (and
    its leaves recomputed) does not pass.  A recorded seal keeps its items in their shuffled
    slots (issue 45); ``seals`` (the newest recorded seal of each key, this step's included)
    gives a reveal's slot."""
    again = [(s.key, s.side, s.what, s.padded()) for s in step.seals]
    recorded = [(s.get("key"), s.get("side"), s.get("what"), _in_rules_order(s)) for s in action.get("seals", [])]
    if again != recorded:
        return f"the sealed choices differ from the recorded ones ({_first_key(again, recorded)})"
    opened = [(u.key, _slot(seals.get(u.key), u.index), u.why) for u in step.unseals]
    revealed = [(r.get("key"), r.get("index"), r.get("why")) for r in action.get("reveals", [])]
    if opened != revealed:
        return f"the reveals differ from the recorded ones ({_first_key(opened, revealed)})"
    return None


def _in_rules_order(seal: dict[str, Any]) -> Any:
    """A recorded seal's items in the order the rules gave them (un-shuffled by its
    ``slots``; a record without them, or a malformed one, as it is)."""
    items, slots = seal.get("items"), seal.get("slots")
    if not isinstance(items, list) or not isinstance(slots, list) or sorted(slots) != list(range(len(items))):
        return items
    return [items[slot] for slot in slots]


def _slot(seal: dict[str, Any] | None, index: int) -> int:
    """The slot the rules' item ``index`` of a recorded seal sits in."""
    slots = (seal or {}).get("slots")
    return slots[index] if isinstance(slots, list) and 0 <= index < len(slots) else index


def _first_key(again: list[tuple[Any, ...]], recorded: list[tuple[Any, ...]]) -> str:
    """The seal named by the first entry that differs, for the report."""
    for mine, theirs in zip(again, recorded):
        if mine != theirs:
            return f"seal {str(theirs[0])[:40]!r}"
    return f"{len(again)} made again, {len(recorded)} recorded"


__all__ = ["Difference", "Kind", "Verdict", "outcome", "rerun", "secret_problem", "verdict"]
