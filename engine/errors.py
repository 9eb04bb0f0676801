"""Errors the engine raises when a command or a content pack is refused."""


class RuleError(Exception):
    """A command broke a rule. The message is written for the player who sent it."""


class PackError(Exception):
    """A content pack failed validation. Carries every problem found, each with its place."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("\n".join(problems))
