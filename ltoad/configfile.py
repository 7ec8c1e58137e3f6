"""ltoad.yaml: derivatives, inactive code and custom derivatives declared next to the build.

The file is found by `-Wl,--ltoad-config=FILE`, else `LTOAD_CONFIG`, else the nearest
`ltoad.yaml` from the working directory upward. It is read (config_reader.py) into the plain
dataclasses here; every error names `file:line:column`. Names in `of:` are checked later, against the linked program
(ltoad/ad/config_requests.py).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from .diagnostics import LtoadError

FILE_NAME = "ltoad.yaml"
ACTIVITIES = ("dup", "dupnoneed", "const", "out")
MODES = ("reverse", "forward")


@dataclass(frozen=True)
class Location:
    path: str
    line: int        # 1-based
    column: int      # 1-based

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


@dataclass(frozen=True)
class Derivative:
    name: str                            # the symbol ltoad defines
    of: str                              # the function, as the user spelled it
    mode: str
    args: tuple[str, ...] | None         # None: defaults by parameter type
    where: Location
    of_where: Location
    args_where: Location
    width: int = 1                       # forward mode: directions per call


@dataclass(frozen=True)
class Custom:
    of: str
    augmented: str
    reverse: str
    where: Location


@dataclass(frozen=True)
class Options:
    opt_level: int | None = None
    report: str | None = None
    ad_before_opt: bool = False


@dataclass(frozen=True)
class Config:
    path: str | None = None
    derivatives: tuple[Derivative, ...] = ()
    inactive_functions: tuple[str, ...] = ()
    inactive_globals: tuple[str, ...] = ()
    custom: tuple[Custom, ...] = ()
    options: Options = field(default_factory=Options)


EMPTY = Config()


def find(explicit: str | None = None, start: str | None = None) -> str | None:
    """The config file a link uses: explicit path, LTOAD_CONFIG, or nearest ltoad.yaml upward."""
    chosen = explicit or os.environ.get("LTOAD_CONFIG")
    if chosen:
        return chosen
    directory = os.path.abspath(start or os.getcwd())
    while True:
        candidate = os.path.join(directory, FILE_NAME)
        if os.path.isfile(candidate):
            return candidate
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


def load(path: str | None) -> Config:
    """Read and validate a config file (None: the empty config)."""
    if path is None:
        return EMPTY
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise LtoadError(f"cannot read config '{path}': {e.strerror}") from None
    return parse(text, path)


def parse(text: str, path: str) -> Config:
    """A config from its text (PyYAML is imported only by links that have a config)."""
    from .config_reader import read
    return read(text, path)
