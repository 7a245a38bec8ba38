"""A guided first game (issue 40): ``/game tutorial system:`` and its lessons.

A tutorial is an ordinary game of the system, started with a dice seed fixed for it (so the
same orders roll the same dice every time, and the game is known for a tutorial by its seed
alone, after a restart too) and with every side held by the player who started it.  After
each of the first orders, the reply adds a lesson: two lines, what just happened and what to
type next.  The orders are typed (or tapped) as in any game; the lessons only explain.
"""

from __future__ import annotations

import hashlib

from pydantic import BaseModel

from rules.core.dice import seed_hash


class Lesson(BaseModel):
    """What a reply adds once the game's head is at step ``seq``: two lines."""

    seq: int
    happened: str
    next: str

    def lines(self) -> list[str]:
        """The two lines, marked as the tutorial's."""
        return [f"🎓 {self.happened}", f"👉 {self.next}"]


#: The lessons of each system that has a tutorial, by the step they follow.
LESSONS: dict[str, list[Lesson]] = {
    "rr": [
        Lesson(seq=0, happened="A guided first game: you hold both sides, and its dice are the same every "
                               "time. The game begins with NATO's setup (11.0); the picture is the map.",
               next="Type /rr deploy-default to put NATO's units in their start areas."),
        Lesson(seq=1, happened="NATO's units are on the map, in the areas the scenario gives them (11.0).",
               next="Type /rr ready to end NATO's setup; the Soviets set up next."),
        Lesson(seq=2, happened="NATO is ready, so the Soviets set up now (11.0).",
               next="Type /rr deploy-default to put the Soviet units in their start areas."),
        Lesson(seq=3, happened="Both armies are on the map.",
               next="Type /rr ready: turn 1 begins, and each side rolls a die for the initiative (6.1)."),
        Lesson(seq=4, happened="Turn 1: NATO rolled the higher die, so NATO acts first; every unit has "
                               "action points (AP) to spend on moves and fire (6.1, 6.2).",
               next="Type 1 to move M48-2 to area 2 (the list below), or /game act to build an order from menus."),
        Lesson(seq=5, happened="That was your first order of the game: the reply says what it did, rules "
                               "and dice included.",
               next="Play on as you like: /game status shows the position, /game end ends the tutorial."),
    ],
}


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


__all__ = ["LESSONS", "Lesson", "lesson_for", "systems", "tutorial_seed"]
