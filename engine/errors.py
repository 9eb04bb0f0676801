"""Errors the engine raises when a command or a content pack is refused."""


class RuleError(Exception):
    """A command broke a rule. The message is written for the player who sent it; `term`
    names the glossary entry of the rule ('awaymissions/move'), when one applies."""

    def __init__(self, message: str = "", term: str | None = None):
        super().__init__(message)
        self.term = term


class PackError(Exception):
    """A content pack failed validation. Carries every problem found, each with its place."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("\n".join(problems))
