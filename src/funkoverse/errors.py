"""Errors meant for people: one clear line that names what is wrong."""


class UserError(Exception):
    """Bad input from a person or a file; its message is shown as is, on one line."""
