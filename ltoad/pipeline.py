"""The link pipeline ltoad-ld runs on the merged bitcode (DESIGN.md section 2, steps 2-8).

merge -> internalize -> [pre-AD optimize -> AD] -> LTO pipeline + code generation. The AD steps
run only when the program asks for a derivative; a link without a request costs what plain LTO
costs: ld.lld's own post-link pipeline (`lto<On>`, run by libLLVM-22) and code generation.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from dataclasses import dataclass, field

from . import ctors, libllvm, link
from .ad import detect
from .configfile import EMPTY, Config
from .diagnostics import LtoadError, log
from .embedded import EmbeddedBodies

PRE_AD_LEVEL = 2


@dataclass(frozen=True)
class PipelineOptions:
    opt_level: int = 2
    cpu: str = ""
    keep: frozenset[str] = frozenset()
    export_all: bool = False
    ad_before_opt: bool = False
    save_temps_prefix: str | None = None
    config: Config = EMPTY
    report: str | None = None       # -Wl,--ltoad-report=FILE (.html or .json)
    output: str = "a.out"           # the linked file, as the report names it
    rlibs: tuple[str, ...] = ()     # Rust libraries whose native members embed bitcode


@dataclass
class PhaseTimes:
    seconds: dict[str, float] = field(default_factory=dict)

    @contextmanager
    def phase(self, name: str):
        start = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[name] = self.seconds.get(name, 0.0) + time.perf_counter() - start

    def summary(self) -> str:
        return " ".join(f"{k}={v:.3f}s" for k, v in self.seconds.items())


@dataclass
class _Progress:
    """What a link has found so far, for its report (also written when the link fails)."""
    plan: object = None
    graph: object = None


def run(session: link.Session, loaded: list[link.LoadedModule], options: PipelineOptions,
        times: PhaseTimes) -> bytes:
    """Merge the loaded modules and return one native object; write the report if asked."""
    progress = _Progress()
    try:
        native = _run(session, loaded, options, times, progress)
    except LtoadError as error:
        _report(options, times, progress, error)
        raise
    _report(options, times, progress)
    return native


def _run(session: link.Session, loaded: list[link.LoadedModule], options: PipelineOptions,
         times: PhaseTimes, progress: _Progress) -> bytes:
    with times.phase("merge"):
        module = session.merge(loaded)
    with times.phase("internalize"):
        count = link.internalize(module, set(options.keep), options.export_all)
    log(f"ltoad-ld: internalized {count} symbols")
    plan = None
    config = options.config
    if detect.has_requests(module, [d.name for d in config.derivatives], options.export_all):
        from .ad import hook   # the differentiator is imported only by links that need it
        with times.phase("requests"):
            module, plan = hook.prepare(session, module, config, options.export_all)
        plan.want_graph = options.report is not None
        plan.bodies = EmbeddedBodies(list(options.rlibs))
        progress.plan = plan
        if not options.ad_before_opt:
            with times.phase("pre-ad-optimize"):
                machine = link.target_machine(module, options.cpu, PRE_AD_LEVEL)
                link.optimize(module, machine, PRE_AD_LEVEL, vectorize=False)
    _save(module, options, "before-ad")
    if plan is not None:
        with times.phase("ad"):
            module = hook.differentiate(session, module, plan)
        progress.graph = plan.graph
    elif options.report is not None:
        from . import callgraph, ir   # networkx only for links that report
        with times.phase("call-graph"):
            progress.graph = callgraph.build(ir.parse_module(str(module)))
    _save(module, options, "after-ad")
    with times.phase("hand-over"):
        structors = ctors.structor_arrays_ir(module)
        if structors:
            module.link_in(session.parse_text("static constructors", structors))
        native = libllvm.NativeModule(module.as_bitcode(), module.triple or link.default_triple(),
                                      options.cpu, options.opt_level)
    with native:
        with times.phase("optimize"):
            native.run_passes(f"lto<O{options.opt_level}>")
        with times.phase("codegen"):
            return native.emit()


def _report(options: PipelineOptions, times: PhaseTimes, progress: _Progress,
            error: LtoadError | None = None) -> None:
    if options.report is None:
        return
    from . import link_report, report
    gathered = link_report.gather(options.output, progress.graph, progress.plan,
                                  times.seconds, error)
    report.write(gathered, options.report)
    log(f"ltoad-ld: report written to {options.report}")


def _save(module, options: PipelineOptions, stage: str) -> None:
    if options.save_temps_prefix:
        path = f"{options.save_temps_prefix}.{stage}.ll"
        with open(path, "w") as f:
            f.write(str(module))
        log(f"ltoad-ld: saved {path}")
