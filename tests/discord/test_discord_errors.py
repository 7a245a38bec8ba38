"""Every failure becomes one sentence: rule errors as written, ours as an incident id."""

from __future__ import annotations

import logging
import re

from discord import AppCommandOptionType, app_commands
from discord.app_commands.transformers import IdentityTransformer

from bot import incidents
from bot.discord.errors import apology, explain
from rules.core.errors import RuleError


def test_a_rule_error_is_shown_as_written():
    sentence = "VDV-1 has no AP left; units with AP in area 7: VDV-2."
    assert explain(RuleError(sentence)) == sentence


def test_a_value_discord_could_not_convert_names_the_value_and_the_type():
    error = app_commands.TransformerError(
        "12x", AppCommandOptionType.integer, IdentityTransformer(AppCommandOptionType.integer)
    )
    assert explain(error) == (
        "'12x' is not a valid integer here; pick a value from the list Discord offers."
    )


def test_checks_get_a_plain_sentence():
    assert "server channel" in explain(app_commands.NoPrivateMessage())
    assert explain(app_commands.CheckFailure()) == "You cannot use this command here."


def test_an_unexpected_error_is_logged_under_the_incident_id(caplog):
    try:
        {}["missing"]
    except KeyError as exc:
        error = exc
    with caplog.at_level(logging.ERROR, logger="referee.discord"):
        text = explain(error, "rr move")
    incident = re.search(r"incident ([0-9a-f]{6})", text).group(1)
    assert text == apology(incident)
    (record,) = caplog.records
    assert incident in record.getMessage() and "/rr move" in record.getMessage()
    assert record.exc_info[0] is KeyError


def test_one_incident_helper_logs_the_id_the_player_reads(caplog):
    """Issue 39: the apology is written once (bot/incidents.py); the service's says nothing
    was changed, the front end's (which cannot know) does not."""
    logger = logging.getLogger("referee.test")
    with caplog.at_level(logging.ERROR, logger="referee.test"):
        try:
            raise KeyError("boom")
        except KeyError:
            said = incidents.report(logger, "incident %s while handling %s", ["game", "status"],
                                    nothing_changed=True)
    incident = said.split("(incident ")[1][:6]
    assert said == (f"Sorry, something went wrong on our side (incident {incident}). "
                    "Nothing was changed; a moderator can quote this id.")
    assert caplog.records[-1].getMessage() == f"incident {incident} while handling ['game', 'status']"
    assert caplog.records[-1].exc_info is not None
    assert incidents.apology(incident).endswith("The moderators can quote this id.")
