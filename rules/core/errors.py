"""The one exception a rules engine raises at a player."""


class RuleError(Exception):
    """An order the rules refuse.

    The message is shown to the player as it is, so it must be one plain sentence that says
    what is wrong and what is allowed, e.g. "VDV-1 has no AP left; units with AP in area 7:
    VDV-2, BMD-1."  Raising it must never leave a changed state behind: engines work on copies.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message
