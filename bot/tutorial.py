"""A guided first game (issue 40): ``/game tutorial system:`` and its lessons.

A tutorial is an ordinary game of the system, started with a dice seed fixed for it (so the
same orders roll the same dice every time, and the game is known for a tutorial by its seed
alone, after a restart too) and with every side held by the player who started it.  After
each of the first orders, the reply adds a lesson: two lines, what just happened and what to
type next.  The orders are typed (or tapped) as in any game; the lessons only explain.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, model_validator

from rules.core.dice import seed_hash


class Lesson(BaseModel):
    """What a reply adds once the game's head is at step ``seq``: two lines."""

    model_config = ConfigDict(extra="forbid")

    seq: int = Field(ge=0)
    happened: str = Field(min_length=1, max_length=300)
    next: str = Field(min_length=1, max_length=300)
    #: What ``next`` tells the player to type (an order, or an answer's number); none after
    #: the last lesson.  The tests play each tutorial by these lines, so a lesson that no
    #: longer matches the rules fails there, not in front of a newcomer.
    type: str | None = Field(default=None, max_length=200)

    def lines(self) -> list[str]:
        """The two lines, marked as the tutorial's."""
        return [f"🎓 {self.happened}", f"👉 {self.next}"]


#: Where each system's lessons are kept: ``bot/tutorials/<system>.yaml``.
TUTORIALS = Path(__file__).with_name("tutorials")


class Tutorial(BaseModel):
    """One system's tutorial file: its lessons, by the step they follow (each ``seq`` once)."""

    model_config = ConfigDict(extra="forbid")

    system: str
    lessons: list[Lesson] = Field(min_length=1)

    @model_validator(mode="after")
    def _one_lesson_a_step(self) -> "Tutorial":
        seqs = [lesson.seq for lesson in self.lessons]
        if len(set(seqs)) != len(seqs):
            raise ValueError(f"two lessons follow the same step in {self.system}'s tutorial")
        if any(lesson.type is None for lesson in self.lessons[:-1]):
            raise ValueError(f"every lesson but the last of {self.system}'s tutorial says what to type")
        return self

    def script(self, user: str) -> list[str]:
        """The console lines that play this tutorial as its lessons say, as ``user``."""
        return [f"@{user} /game tutorial system:{self.system}"] + \
            [f"@{user} {lesson.type}" for lesson in self.lessons if lesson.type]


def load_tutorials(folder: Path = TUTORIALS) -> dict[str, Tutorial]:
    """Every tutorial file of ``folder``, checked, by system key (the file's name)."""
    out: dict[str, Tutorial] = {}
    for path in sorted(folder.glob("*.yaml")):
        tutorial = Tutorial.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))
        if tutorial.system != path.stem:
            raise ValueError(f"{path.name} holds the tutorial of {tutorial.system}")
        out[tutorial.system] = tutorial
    return out


#: Each system's tutorial, by system key.
TUTORIALS_BY_SYSTEM: dict[str, Tutorial] = load_tutorials()
#: The lessons of each system that has a tutorial, by the step they follow.
LESSONS: dict[str, list[Lesson]] = {key: t.lessons for key, t in TUTORIALS_BY_SYSTEM.items()}


def systems() -> list[str]:
    """The systems that have a tutorial."""
    return sorted(LESSONS)


def tutorial_seed(system_key: str) -> tuple[bytes, str]:
    """The tutorial's fixed dice seed and its hash: the same dice every time."""
    seed = hashlib.sha256(f"referee tutorial {system_key}".encode()).digest()
    return seed, seed_hash(seed)


def lesson_for(system_key: str, seed: bytes, seq: int) -> Lesson | None:
    """The lesson a reply in a tutorial game (known by its seed) adds at head step ``seq``."""
    if system_key not in LESSONS or seed != tutorial_seed(system_key)[0]:
        return None
    return next((lesson for lesson in LESSONS[system_key] if lesson.seq == seq), None)


__all__ = ["LESSONS", "TUTORIALS_BY_SYSTEM", "Lesson", "Tutorial", "lesson_for", "load_tutorials",
           "systems", "tutorial_seed"]
