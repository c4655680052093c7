"""hswc-opt: xdsl-opt with hswc's dialects, passes and --lower-to-ascend, and located errors.

    hswc-opt [FILE|-] [-p PIPELINE] [--lower-to-ascend] [-t mlir|ascendc] [-o OUT]
             [--split-input-file] [--verify-diagnostics] [--print-between-passes]
             [--verify-each=true|full|false]

Errors (text that is not UTF-8 or does not parse, nesting deeper than hswc's limit, unknown
ops, verifier failures, uses of a value its definition does not dominate, ops a pass cannot
lower, unknown passes or malformed pass options, unreadable input, unwritable output) print one
diagnostic, with file:line:col where there is one, and exit 1 (usage errors too). With
--verify-diagnostics the diagnostic goes to stdout and the exit code is 0, for FileCheck.

The input is read in full before anything is written, and `-o OUT` is written only when the
run succeeds, atomically (hswc.output_files): `hswc-opt f.mlir -o f.mlir` works, and a failing
run leaves OUT as it was.
"""

from __future__ import annotations

from hswc.tools.startup import between_passes, importing, parsing

with importing():
    import argparse
    import sys
    import time
    from collections.abc import Sequence
    from typing import IO, ClassVar

    from xdsl.dialects.builtin import FileLineColLoc, ModuleOp
    from xdsl.passes import ModulePass, PassPipeline
    from xdsl.printer import Printer
    from xdsl.utils.arg_spec import ArgSpec, parse_pipeline
    from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException, ParseError
    from xdsl.xdsl_opt_main import xDSLOptMain

    from hswc.diagnostics import (
        LocatingParser,
        OpError,
        check_compilable,
        format_parse_error,
    )
    from hswc.memory_budget import check_fits
    from hswc.output_files import OutputError, write_file
    from hswc.pass_checks import LateFailure, checked_once
    from hswc.passes import take_unchanged
    from hswc.pipeline import DIALECTS, LOWER_TO_ASCEND, PASSES, pass_from_spec
    from hswc.remarks import collecting, print_remarks
    from hswc.source_text import decode
    from hswc.tools.cli import (
        TOO_DEEP,
        ToolVersionLine,
        diagnostic,
        exit_status,
        reader_gone,
        report,
    )
    from hswc.verification import verify_located
    from hswc.verification_cache import VerifiedOps

_NOT_SUPPORTED = {"frontend": "-f/--frontend", "no_implicit_module": "--no-implicit-module",
                  "shrink": "--shrink"}
"""xdsl-opt flags hswc-opt inherits but does not implement: hidden from --help, refused."""


def lowering_specs(specs: list[ArgSpec]) -> list[ArgSpec]:
    """--lower-to-ascend: its stages in order, taking a stage's options from -p where -p names it
    (`-p 'hsg-tile-on-cores{soc=ascend910b}' --lower-to-ascend` folds the tiling); the other
    -p passes run after."""
    given = {spec.name: spec for spec in specs}
    stages = [given.get(name, ArgSpec(name, {})) for name in LOWER_TO_ASCEND]
    return stages + [spec for spec in specs if spec.name not in LOWER_TO_ASCEND]


class HswcOptMain(xDSLOptMain):
    """The opt driver, with only what hswc needs registered."""

    _verified: VerifiedOps
    """The ops of the chunk being lowered as they last verified (hswc.verification_cache)."""
    _deferred: bool = False
    """The checks after the passes are made once, after the last (_lower)."""
    _pending: bool = False
    """A pass changed the module since the last check."""

    version_format: ClassVar[str] = ToolVersionLine("hswc-opt")

    def register_all_dialects(self) -> None:
        for name, factory in DIALECTS.items():
            self.ctx.register_dialect(name, factory)

    def register_all_passes(self) -> None:
        for name, factory in PASSES.items():
            self.register_pass(name, factory)

    def register_all_frontends(self) -> None:
        # xDSL's own (MLIR text), without a scan of every installed package's entry points
        # for the plugins' frontends: hswc-opt reads MLIR only (-f is refused)
        from xdsl.frontend import get_all_frontends

        self.available_frontends.update(get_all_frontends())

    def register_all_targets(self) -> None:
        from hswc.targets import TARGETS

        self.available_targets.update(TARGETS)

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)
        arg_parser.prog = "hswc-opt"
        for action in arg_parser._actions:  # pyright: ignore[reportPrivateUsage]
            if action.dest in _NOT_SUPPORTED:
                action.help = argparse.SUPPRESS
            elif action.dest == "output_file":
                action.help = "write the output there (atomically, and only if the run succeeds)"
        arg_parser.add_argument(
            "--strict-f64",
            action="store_true",
            help="refuse f64 arithmetic instead of computing it in f32 (hsg-demote-f64)",
        )
        arg_parser.add_argument(
            "--remarks",
            action="store_true",
            help="say on stderr what became a kernel and what stays on the host, and why "
            "(without it, only the ops that could have been kernels and stay are named)",
        )
        arg_parser.add_argument(
            "--verify-each",
            default="true",
            choices=("true", "full", "false"),
            help="'true' (the default) verifies, once after the last pass, what the passes "
            "created or changed and what reads it (the ops enclosing those, the terminators "
            "under them, the users of a changed op's results, every symbol user) and the "
            "module's SSA dominance; should that fail, the passes run again from the input "
            "with that check after each, to name the pass that built what fails; 'full' "
            "verifies the whole module after each pass, as mlir-opt; 'false' nothing (the "
            "input verifies in full in every case, unless --disable-verify)",
        )
        arg_parser.add_argument(
            "--lower-to-ascend",
            action="store_true",
            help="run " + ",".join(LOWER_TO_ASCEND) + "; a stage named in -p takes its options "
            "from there, other -p passes run after",
        )

    def setup_pipeline(self) -> None:
        specs = list(parse_pipeline(self.args.passes))
        if self.args.lower_to_ascend:
            specs = lowering_specs(specs)
        if self.args.strict_f64:
            specs = [ArgSpec(s.name, {**s.parameters, "strict": (True,)})
                     if s.name == "hsg-demote-f64" else s for s in specs]

        started = time.perf_counter()

        def between(previous: ModulePass | None, module: ModuleOp,
                    following: ModulePass | None) -> None:
            nonlocal started
            if previous is not None and self.args.time_passes:
                print(f"Pass {previous.name} took {time.perf_counter() - started:.6f} seconds",
                      file=sys.stderr)
            # Before the first pass _run_chunk verified the input; after a pass that marked
            # the module unchanged, what verified before verifies again (MLIR skips it too).
            # Checks deferred to the end (_lower) are made after the last pass only.
            if previous is not None and not take_unchanged(module):
                self._pending = True
            if previous is not None and self._pending and (following is None
                                                           or not self._deferred):
                self._pending = False
                self._verify_after_pass(module, previous)
            between_passes()
            if previous and following and self.args.print_between_passes:
                print(f"// -----// IR after {previous.name} //----- //")
                Printer(stream=sys.stdout).print_op(module)
                print("\n")
            started = time.perf_counter()

        unknown = [spec.name for spec in specs if spec.name not in self.available_passes]
        if unknown:
            raise ValueError(f"unknown pass '{unknown[0]}' (known: "
                             f"{', '.join(self.available_passes)})")
        with importing():  # a pass's first use imports it, its dialects and the vectorizer
            passes = tuple(self._make_pass(spec) for spec in specs)
        self.pipeline = PassPipeline(passes, between)

    def _verify_input(self, module: ModuleOp) -> None:
        """The parsed input, in full; remembered for the checks after each pass."""
        self._verified = VerifiedOps()
        if not self.args.disable_verify:
            incremental = self.args.verify_each == "true"
            verify_located(module, self._verified if incremental else None)

    def _verify_after_pass(self, module: ModuleOp, previous: ModulePass) -> None:
        """--verify-each: what the passes created or changed since the last check
        (hswc.verification_cache), the whole module, or nothing. An op that fails without a
        location of its own (one the pass built) is named with the pass that built it; with
        the checks deferred to the end, the failure is a LateFailure (hswc.pass_checks)."""
        if self.args.disable_verify or self.args.verify_each == "false":
            return
        try:
            verify_located(module, self._verified if self.args.verify_each == "true" else None)
        except OpError as error:
            if self._deferred:
                raise LateFailure(error) from None
            if isinstance(error.op.location, FileLineColLoc):
                raise
            raise OpError(error.op, f"{error.message} (built by pass '{previous.name}')",
                          error.name) from None

    def _lower(self, module: ModuleOp, text: str, line_offset: int) -> None:
        """The passes applied to `module`. With --verify-each=true the check after them is
        made once, after the last, and should it or a pass fail, the passes run again from
        the input with the check after each (hswc.pass_checks.checked_once): the run reports
        the first pass whose output fails, named where the failing op has no location of its
        own."""
        self._pending = False
        self._deferred = (self.args.verify_each == "true" and not self.args.disable_verify
                          and not self.args.print_between_passes)
        if not self._deferred:
            self.apply_passes(module)
            return
        modules = [module]

        def lower(each: bool) -> None:
            self._deferred, self._pending = not each, False
            if modules:
                self.apply_passes(modules.pop())
                return
            with parsing():
                again = LocatingParser(self.ctx, text, self.get_input_name(),
                                       line_offset).parse_module()
            self._verify_input(again)
            self.apply_passes(again)

        checked_once(lower)

    def _make_pass(self, spec: ArgSpec) -> ModulePass:
        return pass_from_spec(self.available_passes[spec.name](), spec)

    def run(self) -> None:
        for dest, flag in _NOT_SUPPORTED.items():
            if getattr(self.args, dest):  # inherited from xdsl-opt; hswc-opt parses MLIR itself
                raise ValueError(f"{flag} is not supported by hswc-opt")
        try:
            chunks, _ = self.prepare_input()
            texts = [(chunk.read(), line_offset) for chunk, line_offset in chunks]
        except OSError as error:
            raise OSError(error.errno, error.strerror, error.filename or "<stdin>") from None
        for chunk, _ in chunks:
            chunk.close()
        self.failed = False
        to_stdout = self.args.output_file in (None, "-")  # `-o -`: stdout, as in mlir-opt
        results: list[str] = []
        for index, (data, line_offset) in enumerate(texts):
            # Each chunk in turn: on stdout its output comes before the next one's diagnostic.
            results.append(("// -----\n" if index else "") + self._run_chunk(data, line_offset))
            if to_stdout:
                _print(results.pop())
        if not to_stdout and not self.failed:
            write_file(self.args.output_file, "".join(results))

    def get_input_stream(self) -> tuple[IO[bytes], str]:
        if self.args.input_file == "-":  # mlir-opt's spelling of stdin
            self.args.input_file = None
        return super().get_input_stream()

    def _run_chunk(self, data: bytes, line_offset: int) -> str:
        """The chunk's output; '' when it fails (its diagnostic is printed)."""
        try:
            text = decode(data, self.get_input_name(), line_offset)
            parser = LocatingParser(self.ctx, text, self.get_input_name(), line_offset)
            with parsing():  # the module lives to the end: no full collection walks it
                module = parser.parse_module()
            self._verify_input(module)
            if self.args.passes or self.args.lower_to_ascend or self.args.target != "mlir":
                check_compilable(module)  # as hswc-run and hswc-emit refuse it
                check_fits(module)  # before the lowering starts, never the OOM killer
            with collecting() as said:
                self._lower(module, text, line_offset)
            print_remarks(said, self.args.remarks)
            return self.output_resulting_program(module)
        except (ParseError, DiagnosticException, RecursionError) as error:
            message = diagnostic("hswc-opt", format_parse_error(error, line_offset)
                                 if isinstance(error, ParseError) else
                                 TOO_DEEP if isinstance(error, RecursionError) else str(error))
            if self.args.verify_diagnostics or self.args.parsing_diagnostics:
                print(message)
            else:
                print(message, file=sys.stderr)
                self.failed = True
            return ""


def _print(text: str) -> None:
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as error:
        raise OutputError("<stdout>", error.strerror or str(error)) from None


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of hswc-opt; returns the exit code."""
    return exit_status(lambda: _main(argv))


def _main(argv: Sequence[str] | None) -> int:
    try:
        tool = HswcOptMain(description="hswc modular optimizer driver", args=argv)
        tool.run()
    except BrokenPipeError:  # before OSError, which it is
        return reader_gone()
    except OutputError as error:
        return report("hswc-opt", str(error))
    except OSError as error:
        return report("hswc-opt", f"cannot read '{error.filename}': {error.strerror}")
    except ArgSpecParseError as error:
        return report("hswc-opt", f"malformed pass pipeline: {error}")
    except (ValueError, TypeError, DiagnosticException) as error:
        return report("hswc-opt", str(error))
    except RecursionError:
        return report("hswc-opt", TOO_DEEP)
    except Exception as error:  # the contract: one line, never a traceback
        return report("hswc-opt", f"internal error: {type(error).__name__}: {error}")
    return 1 if tool.failed else 0


if __name__ == "__main__":
    sys.exit(main())
