"""The checker's one error type: bad input, reported as one message and exit status 1."""

from __future__ import annotations


class CheckError(Exception):
    """Input the checker cannot work with (a missing kernel, a kernel that does not compile, an
    unknown op or attribute, bad tiling values); the message says what and where."""
