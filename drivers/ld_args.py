"""The ld.lld command line as ltoad-ld reads it: a flag table, inputs in order, link settings.

Only what changes ltoad's work is interpreted (inputs, libraries, output, optimization level,
what must stay exported); every other flag is kept verbatim for ld.lld. ltoad's own options
(`--ltoad-*`, passed with `-Wl,`) are removed from the argv handed on.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ltoad.diagnostics import LtoadError

# Options whose value is the next argument when not joined with '=' (leading dashes removed).
TAKES_VALUE = {
    "o", "output", "L", "library-path", "l", "library", "e", "entry", "u", "undefined",
    "m", "T", "script", "z", "h", "soname", "rpath", "R", "dynamic-linker", "y", "trace-symbol",
    "version-script", "dynamic-list", "Map", "init", "fini", "defsym", "wrap", "sysroot",
    "plugin", "plugin-opt", "mllvm", "exclude-libs", "hash-style", "F", "filter", "f",
    "auxiliary", "undefined-glob", "require-defined", "export-dynamic-symbol",
    "retain-symbols-file", "image-base", "b", "format", "error-limit", "threads", "icf",
    "sort-section", "dependency-file", "why-extract", "reproduce", "symbol-ordering-file",
    "call-graph-ordering-file", "package-metadata", "remap-inputs", "remap-inputs-file",
    "unresolved-symbols", "G", "Tbss", "Tdata", "Ttext", "section-start",
    "orphan-handling", "pack-dyn-relocs", "target2", "export-dynamic-symbol-list",
}
# Short options that may carry their value joined: -L/dir, -lm, -ufoo, -o out.
JOINABLE = ("L", "l", "u", "e", "o", "y", "R", "T", "h", "m", "z")

STATIC_FLAGS = {"Bstatic", "static", "dn", "non_shared"}
DYNAMIC_FLAGS = {"Bdynamic", "dy", "call_shared"}
EXPORT_ALL_FLAGS = {"export-dynamic", "E", "shared", "Bshareable", "pie-export-all"}

# Single-dash long options that begin like a joinable short option (-export-dynamic is not -e).
WHOLE_WORDS = TAKES_VALUE | STATIC_FLAGS | DYNAMIC_FLAGS | EXPORT_ALL_FLAGS | {
    "export-dynamic", "eh-frame-hdr", "help", "enable-new-dtags", "emit-relocs", "omagic",
    "error-unresolved-symbols", "entry", "undefined", "mllvm", "hash-style", "Ttext-segment",
    "lto-O0", "lto-O1", "lto-O2", "lto-O3", "export-dynamic-symbol", "ltoad-save-temps",
}

LTOAD_SWITCHES = {"ltoad-save-temps": "save_temps", "ltoad-ad-before-opt": "ad_before_opt"}
LTOAD_VALUES = {"ltoad-config": "config", "ltoad-report": "report"}


@dataclass
class LtoadOptions:
    save_temps: bool = False
    ad_before_opt: bool = False
    config: str | None = None
    report: str | None = None


@dataclass
class InputRef:
    """One input as written: a path, or a library name from -l (searched later)."""
    first: int            # index of its first token in LdCommand.argv
    count: int            # number of tokens it spans (2 for `-l foo`)
    spec: str             # the path, or the library name for -l
    is_library: bool
    static_only: bool
    whole_archive: bool


@dataclass
class LdCommand:
    argv: list[str] = field(default_factory=list)
    inputs: list[InputRef] = field(default_factory=list)
    output: str = "a.out"
    output_index: int | None = None
    opt_level: int = 2
    cpu: str = ""
    relocatable: bool = False
    export_all: bool = False
    required: set[str] = field(default_factory=set)
    keep: set[str] = field(default_factory=set)
    lib_dirs: list[str] = field(default_factory=list)
    ltoad: LtoadOptions = field(default_factory=LtoadOptions)


@dataclass
class _State:
    static: bool = False
    whole_archive: bool = False


def _split(token: str) -> tuple[str, str | None]:
    """'--foo=bar' -> ('foo', 'bar'); '-lm' -> ('l', 'm'); '--foo' -> ('foo', None)."""
    key = token.lstrip("-")
    if "=" in key:
        name, value = key.split("=", 1)
        return name, value
    joined = not token.startswith("--") and len(key) > 1 and key[0] in JOINABLE
    if joined and key not in WHOLE_WORDS:
        return key[0], key[1:]
    return key, None


def parse(raw: list[str]) -> LdCommand:
    cmd = LdCommand()
    state = _State()
    stack: list[_State] = []
    tokens = iter(raw)
    for token in tokens:
        if token.startswith("--ltoad-") or token.startswith("-ltoad-"):
            _ltoad_option(cmd.ltoad, token, tokens)
            continue
        if not token.startswith("-") or token == "-":
            cmd.inputs.append(InputRef(len(cmd.argv), 1, token, False, state.static,
                                       state.whole_archive))
            cmd.argv.append(token)
            continue
        name, value = _split(token)
        start = len(cmd.argv)
        cmd.argv.append(token)
        if value is None and name in TAKES_VALUE:
            value = next(tokens, None)
            if value is None:
                raise LtoadError(f"ltoad-ld: option '{token}' needs a value")
            cmd.argv.append(value)
        _apply(cmd, state, stack, name, value, start)
    return cmd


def _ltoad_option(options: LtoadOptions, token: str, tokens) -> None:
    name, value = _split(token)
    if name in LTOAD_SWITCHES and value is None:
        setattr(options, LTOAD_SWITCHES[name], True)
    elif name in LTOAD_VALUES:
        value = value if value is not None else next(tokens, None)
        if not value:
            raise LtoadError(f"option '{token}' needs a value (--{name}=FILE)")
        setattr(options, LTOAD_VALUES[name], value)
    else:
        known = ", ".join(f"--{n}" for n in [*LTOAD_SWITCHES, *LTOAD_VALUES])
        raise LtoadError(f"unknown ltoad option '{token}' (known: {known})")


def _apply(cmd: LdCommand, state: _State, stack: list[_State], name: str,
           value: str | None, start: int) -> None:
    if name in ("l", "library"):
        cmd.inputs.append(InputRef(start, len(cmd.argv) - start, value or "", True,
                                   state.static, state.whole_archive))
    elif name in ("L", "library-path"):
        cmd.lib_dirs.append(value or "")
    elif name in ("o", "output"):
        cmd.output, cmd.output_index = value or "a.out", len(cmd.argv) - 1
    elif name in STATIC_FLAGS:
        state.static = True
    elif name in DYNAMIC_FLAGS:
        state.static = False
    elif name in ("whole-archive", "no-whole-archive"):
        state.whole_archive = name == "whole-archive"
    elif name == "push-state":
        stack.append(_State(state.static, state.whole_archive))
    elif name == "pop-state" and stack:
        restored = stack.pop()
        state.static, state.whole_archive = restored.static, restored.whole_archive
    else:
        _apply_setting(cmd, name, value)


def _apply_setting(cmd: LdCommand, name: str, value: str | None) -> None:
    if name in EXPORT_ALL_FLAGS or name == "dynamic-list":
        cmd.export_all = True
    elif name in ("r", "relocatable", "i"):
        cmd.relocatable = True
    elif name in ("u", "undefined", "e", "entry", "require-defined") and value:
        cmd.required.add(value)
    elif name == "export-dynamic-symbol" and value:
        cmd.keep.add(value)
    elif name == "wrap" and value:
        cmd.keep |= {value, f"__wrap_{value}", f"__real_{value}"}
    elif name == "defsym" and value and "=" in value:
        cmd.keep.add(value.split("=", 1)[1])
    elif name == "plugin-opt" and value is not None:
        _plugin_opt(cmd, value)
    elif name.startswith("lto-O") and name[5:].isdigit():
        cmd.opt_level = int(name[5:])


def _plugin_opt(cmd: LdCommand, value: str) -> None:
    if len(value) == 2 and value[0] == "O" and value[1].isdigit():
        cmd.opt_level = int(value[1])
    elif value.startswith("mcpu="):
        cmd.cpu = value[len("mcpu="):]
