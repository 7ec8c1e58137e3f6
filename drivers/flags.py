"""The clang command line as ltoad-clang reads it: a flag table and one pass-through decision.

ltoad-clang changes a clang invocation in exactly two cases: a compile step of C-family source
gets pre-link flags (full-LTO bitcode without vectorization, which the link-time pipeline adds
after differentiation), and a link step gets ltoad-ld as its linker. Everything else is handed
to clang-22 untouched. `decide()` returns that choice with its reason, for LTOAD_VERBOSE.
"""

from __future__ import annotations

import os

# Full-LTO bitcode, scalar (the link-time pipeline vectorizes after differentiation), and
# Enzyme's `__attribute__((enzyme_inactive))` kept as an annotation the link step can read (and
# as `noinline`, so the compile-time optimizer cannot dissolve an inactive function).
PRE_LINK_FLAGS = ("-flto=full", "-fno-vectorize", "-fno-slp-vectorize",
                  '-Denzyme_inactive=annotate("enzyme_inactive"),noinline')
LINK_FLAGS = ("-flto=full", "-fuse-ld=lld")

# Options whose value is the next argument (so the value is never taken for an input file).
TAKES_VALUE = {
    "-o", "-I", "-D", "-U", "-include", "-imacros", "-isystem", "-idirafter", "-iquote",
    "-iprefix", "-iwithprefix", "-iwithprefixbefore", "-isysroot", "-x", "-MF", "-MT", "-MQ",
    "-L", "-l", "-Xlinker", "-Xclang", "-Xassembler", "-Xpreprocessor", "-Xopenmp-target",
    "-arch", "-target", "-mllvm", "-u", "-z", "-T", "-e", "-F", "-framework", "-aux-info",
    "-dependency-file", "-dependency-dot", "-serialize-diagnostics", "-ivfsoverlay",
    "-resource-dir", "-gcc-toolchain", "--sysroot", "-B", "--param", "-install_name",
    "-exported_symbols_list", "-cxx-isystem", "-iframework", "-imultilib", "--include-directory",
    "--define-macro", "--undefine-macro", "--output", "--language", "--for-linker",
    "-working-directory", "--config", "-A", "-G", "-module-dependency-dir",
}

# Options that make clang stop before producing an object or a program.
NO_OBJECT_FLAGS = {
    "-E": "preprocess only", "-fsyntax-only": "syntax check only", "-M": "dependencies only",
    "-MM": "dependencies only", "-S": "assembly output requested",
    "--precompile": "module precompilation", "-emit-ast": "AST output requested",
}
INFO_FLAGS = {"--version", "-dumpversion", "-dumpmachine", "--help", "-help",
              "-print-search-dirs", "-print-targets", "--print-supported-cpus"}
INFO_PREFIXES = ("-print-", "--print-", "-dumpspecs")

SOURCE_LANGUAGES = {
    ".c": "c", ".i": "c", ".cc": "c++", ".cp": "c++", ".cxx": "c++", ".cpp": "c++",
    ".CPP": "c++", ".c++": "c++", ".C": "c++", ".ii": "c++", ".m": "objective-c",
    ".mm": "objective-c++", ".ll": "ir", ".bc": "ir",
}
X_LANGUAGES = {"c": "c", "c++": "c++", "objective-c": "objective-c", "objective-c++":
               "objective-c++", "c-cpp-output": "c", "c++-cpp-output": "c++", "ir": "ir"}


class Invocation:
    """What a clang command line asks for, as far as ltoad cares.

    (Plain classes here, not dataclasses: this module is on every compile step's start-up path.)
    """

    def __init__(self):
        self.flags: set[str] = set()
        self.sources: list[str] = []          # inputs clang compiles to objects
        self.other_inputs: list[str] = []     # objects, archives, assembly, ...
        self.lto: str | None = None           # last -flto* / -fno-lto spelling


class Decision:
    """'pass-through', 'compile' or 'link', why, and the flags added to clang's argv."""

    def __init__(self, action: str, reason: str, added: tuple[str, ...] = ()):
        self.action, self.reason, self.added = action, reason, added


def scan(argv: list[str]) -> Invocation:
    inv = Invocation()
    language: str | None = None
    args = iter(argv)
    for arg in args:
        if arg == "--":
            for rest in args:
                _add_input(inv, rest, language)
            break
        if arg in TAKES_VALUE:
            value = next(args, "")
            if arg in ("-x", "--language"):
                language = None if value == "none" else value
            continue
        if arg.startswith("-x") and len(arg) > 2:
            language = None if arg[2:] == "none" else arg[2:]
        elif arg.startswith("-flto") or arg == "-fno-lto":
            inv.lto = arg
        elif arg.startswith("-") and arg != "-":
            inv.flags.add(arg)
        else:
            _add_input(inv, arg, language)
    return inv


def _add_input(inv: Invocation, path: str, language: str | None) -> None:
    if language is not None:
        lang = X_LANGUAGES.get(language)
    else:
        lang = SOURCE_LANGUAGES.get(os.path.splitext(path)[1])
    (inv.sources if lang else inv.other_inputs).append(path)


def decide(argv: list[str], ld_path: str) -> Decision:
    inv = scan(argv)
    if not inv.sources and not inv.other_inputs:
        return Decision("pass-through", "no input files")
    info = sorted(f for f in inv.flags if f in INFO_FLAGS or f.startswith(INFO_PREFIXES))
    if info:
        return Decision("pass-through", f"information request {info[0]}")
    for flag, reason in NO_OBJECT_FLAGS.items():
        if flag in inv.flags:
            return Decision("pass-through", f"{reason} ({flag})")
    if inv.lto == "-fno-lto":
        return Decision("pass-through", "-fno-lto given: native objects requested")
    pre_link = PRE_LINK_FLAGS if inv.sources else ()
    if "-c" in inv.flags:
        if not pre_link:
            return Decision("pass-through", "compile step without C-family source")
        return Decision("compile", f"compile {len(inv.sources)} source(s) to bitcode", pre_link)
    link_flags = LINK_FLAGS + (f"--ld-path={ld_path}",)
    return Decision("link", f"link through ltoad-ld ({len(inv.sources)} source(s), "
                    f"{len(inv.other_inputs)} other input(s))",
                    tuple(dict.fromkeys(pre_link + link_flags)))


def apply(argv: list[str], decision: Decision) -> list[str]:
    """argv with the decision's flags placed last (so they win), but before a `--`."""
    if "--" in argv:
        cut = argv.index("--")
        return argv[:cut] + list(decision.added) + argv[cut:]
    return argv + list(decision.added)
