"""A key given twice in one mapping of a scenario file is refused with its line (issue 45): the
readers kept one of the two silently (JSON the last, YAML the last), so a club's file meant
something its writer could not see."""

from __future__ import annotations

import pytest

from bot.config import Settings
from bot.models import Invocation, Upload
from bot.service import Service
from rules.core import scenariofile
from rules.core.registry import get
from tests.scenarios.helpers import as_json, as_yaml, data


@pytest.mark.parametrize("text", [
    'title: Ours\nturns: 3\ntitle: Theirs\n',
    '{"title": "Ours",\n "turns": 3,\n "title": "Theirs"}',
])
def test_a_top_level_key_given_twice_is_refused_at_its_second_line(text: str) -> None:
    with pytest.raises(scenariofile.ScenarioError) as refused:
        scenariofile.read(text)
    assert str(refused.value) == ("title (line 3): 'title' is given twice in one mapping (first on "
                                  "line 1); give each field once.")


@pytest.mark.parametrize("encode", [as_yaml, as_json], ids=["yaml", "json"])
def test_a_nested_key_given_twice_names_its_path(encode) -> None:
    """The first ``x`` of the shipped skirmish file (its first named point's) written twice."""
    raw = encode(data("skirmish")).decode()
    marker = '"x": ' if encode is as_json else "x: "
    at = raw.index(marker)
    twice = f'{marker}0, ' if encode is as_json else f"{marker}0\n" + raw[:at].rsplit("\n", 1)[1]
    with pytest.raises(scenariofile.ScenarioError) as refused:
        scenariofile.check("skirmish", get("skirmish").scenario_format, raw[:at] + twice + raw[at:])
    assert "points[0].x (line" in str(refused.value) and "'x' is given twice" in str(refused.value)


async def test_game_new_refuses_the_file_and_starts_nothing(tmp_path) -> None:
    service = await Service.open(Settings(db=tmp_path / "c.sqlite3", snapshot_dir=tmp_path / "s"))
    try:
        raw = as_yaml(data("commando")) + b"turns: 2\n"
        reply = await service.handle(Invocation(
            channel_id="c1", guild_id="g", user_id="a", user_name="a", is_moderator=False,
            command=["game", "new"], interaction_id="d1",
            options={"system": "commando", "scenario-file": Upload(name="f.yaml", size=len(raw), data=raw)}))
        assert reply.error and "'turns' is given twice" in reply.text, reply.text
        assert await service.games.load("c1") is None
    finally:
        await service.close()
