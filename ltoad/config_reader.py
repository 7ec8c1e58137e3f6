"""Reading ltoad.yaml's text into configfile's dataclasses: PyYAML's node tree (which keeps
each value's line and column), every key and type checked, errors at `file:line:column` with
the closest valid key or value."""

from __future__ import annotations

import difflib
import os

import yaml

from .configfile import ACTIVITIES, MODES, Config, Custom, Derivative, Location, Options
from .diagnostics import LtoadError


def read(text: str, path: str) -> Config:
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        where = Location(path, mark.line + 1, mark.column + 1) if mark else path
        raise LtoadError(f"{where}: invalid YAML: {e.problem or e.context}") from None
    if root is None:
        return Config(path=path)
    return _Reader(path).config(root)


_STRING = "tag:yaml.org,2002:str"
_KINDS = {yaml.MappingNode: "mapping", yaml.SequenceNode: "list"}


class _Reader:
    """Walks the YAML node tree, checking each value's type and key set."""

    def __init__(self, path: str):
        self.path = path

    def where(self, node: yaml.Node) -> Location:
        return Location(self.path, node.start_mark.line + 1, node.start_mark.column + 1)

    def fail(self, node: yaml.Node, message: str):
        raise LtoadError(f"{self.where(node)}: {message}")

    def mapping(self, node: yaml.Node, what: str, keys: tuple[str, ...],
                required: tuple[str, ...] = ()) -> dict[str, tuple[yaml.Node, yaml.Node]]:
        """The entries of a mapping node, by key; unknown keys name the closest valid one."""
        if not isinstance(node, yaml.MappingNode):
            self.fail(node, f"{what} must be a mapping with keys: {', '.join(keys)}")
        found: dict[str, tuple[yaml.Node, yaml.Node]] = {}
        for key_node, value_node in node.value:
            key = self.scalar(key_node, "a key")
            if key not in keys:
                close = difflib.get_close_matches(key, keys, n=1)
                hint = f"; did you mean '{close[0]}'?" if close else f" (valid: {', '.join(keys)})"
                self.fail(key_node, f"unknown key '{key}' in {what}{hint}")
            if key in found:
                self.fail(key_node, f"duplicate key '{key}' in {what}")
            found[key] = (key_node, value_node)
        for key in required:
            if key not in found:
                self.fail(node, f"{what} needs '{key}'")
        return found

    def scalar(self, node: yaml.Node, what: str) -> str:
        if not isinstance(node, yaml.ScalarNode):
            self.fail(node, f"{what} must be a single value, not a {_KINDS[type(node)]}")
        return node.value

    def name(self, node: yaml.Node, what: str) -> str:
        value = self.scalar(node, what)
        if node.tag != _STRING or not value.strip():
            self.fail(node, f"{what} must be a name, not '{value}'")
        return value

    def sequence(self, node: yaml.Node, what: str) -> list[yaml.Node]:
        if not isinstance(node, yaml.SequenceNode):
            self.fail(node, f"{what} must be a list")
        return list(node.value)

    def choice(self, node: yaml.Node, what: str, choices: tuple[str, ...]) -> str:
        value = self.scalar(node, what)
        if value not in choices:
            close = difflib.get_close_matches(value, choices, n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            self.fail(node, f"{what} '{value}' is not one of {', '.join(choices)}{hint}")
        return value

    def config(self, root: yaml.Node) -> Config:
        top = self.mapping(root, "the config", ("derivatives", "inactive", "custom", "options"))
        inactive = self.inactive(top["inactive"][1]) if "inactive" in top else ((), ())
        return Config(
            path=self.path,
            derivatives=tuple(self.derivative(n) for n in self._list(top, "derivatives")),
            inactive_functions=inactive[0], inactive_globals=inactive[1],
            custom=tuple(self.custom(n) for n in self._list(top, "custom")),
            options=self.options(top["options"][1]) if "options" in top else Options())

    def _list(self, entries, key: str) -> list[yaml.Node]:
        return self.sequence(entries[key][1], f"'{key}'") if key in entries else []

    def derivative(self, node: yaml.Node) -> Derivative:
        keys = ("name", "of", "mode", "args", "width")
        entry = self.mapping(node, "a derivative", keys, required=("name", "of"))
        args_node = entry["args"][1] if "args" in entry else node
        args = None
        if "args" in entry:
            args = tuple(self.choice(a, "activity", ACTIVITIES)
                         for a in self.sequence(args_node, "'args'"))
        mode = self.choice(entry["mode"][1], "mode", MODES) if "mode" in entry else "reverse"
        width = self.width(entry["width"][1], mode) if "width" in entry else 1
        return Derivative(self.name(entry["name"][1], "'name'"),
                          self.name(entry["of"][1], "'of'"), mode, args,
                          self.where(node), self.where(entry["of"][1]), self.where(args_node),
                          width)

    def width(self, node: yaml.Node, mode: str) -> int:
        value = self.scalar(node, "'width'")
        if not value.isdigit() or int(value) < 1:
            self.fail(node, f"'width' must be a positive integer, not '{value}'")
        if mode != "forward" and int(value) > 1:
            self.fail(node, "'width' needs 'mode: forward'")
        return int(value)

    def inactive(self, node: yaml.Node) -> tuple[tuple[str, ...], tuple[str, ...]]:
        entry = self.mapping(node, "'inactive'", ("functions", "globals"))
        return tuple(tuple(self.name(n, "a pattern") for n in self._list(entry, key))
                     for key in ("functions", "globals"))

    def custom(self, node: yaml.Node) -> Custom:
        keys = ("of", "augmented", "reverse")
        entry = self.mapping(node, "a custom derivative", keys, required=keys)
        of, augmented, reverse = (self.name(entry[k][1], f"'{k}'") for k in keys)
        return Custom(of, augmented, reverse, self.where(node))

    def options(self, node: yaml.Node) -> Options:
        entry = self.mapping(node, "'options'", ("opt_level", "report", "ad_before_opt"))
        level = None
        if "opt_level" in entry:
            level = int(self.choice(entry["opt_level"][1], "opt_level", ("0", "1", "2", "3")))
        report = None
        if "report" in entry:
            report = os.path.join(os.path.dirname(os.path.abspath(self.path)),
                                  self.name(entry["report"][1], "'report'"))
        before = False
        if "ad_before_opt" in entry:
            before = self.choice(entry["ad_before_opt"][1], "ad_before_opt",
                                 ("true", "false")) == "true"
        return Options(level, report, before)
