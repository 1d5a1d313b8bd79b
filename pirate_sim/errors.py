"""The one base class of problems a user can fix (bad input, unusable output): the CLI
prints such an error as one line and exits 2, never with a traceback."""


class UserError(Exception):
    """A problem with the user's input or files, fully described by its message."""
