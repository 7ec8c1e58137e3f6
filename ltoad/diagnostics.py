"""Errors and log lines in compiler style: `ltoad: error: ...`, `ltoad: ...` decisions."""

import os
import sys


class LtoadError(Exception):
    """A user-facing failure: printed as one `ltoad: error:` line, exit status 1."""


def verbose() -> bool:
    """True when LTOAD_VERBOSE asks for each decision to be logged."""
    return os.environ.get("LTOAD_VERBOSE", "") not in ("", "0")


def log(message: str) -> None:
    """Print one decision line to stderr when LTOAD_VERBOSE is set."""
    if verbose():
        print(f"ltoad: {message}", file=sys.stderr, flush=True)


# Every warning of this process, in order (the link report lists them).
WARNINGS: list[str] = []


def warn(message: str) -> None:
    WARNINGS.append(f"ltoad: warning: {message}")
    print(f"ltoad: warning: {message}", file=sys.stderr, flush=True)


def report_error(error: BaseException) -> int:
    """Print an error as one compiler-style line and return the exit status."""
    print(f"ltoad: error: {error}", file=sys.stderr, flush=True)
    return 1


def report_internal_error(error: BaseException) -> int:
    """A bug in ltoad itself: one line, and the traceback only when LTOAD_DEBUG is set."""
    if os.environ.get("LTOAD_DEBUG"):
        import traceback
        traceback.print_exception(error)
    print(f"ltoad: error: internal error: {type(error).__name__}: {error} "
          "(set LTOAD_DEBUG=1 for a traceback, and please report it)", file=sys.stderr, flush=True)
    return 1
