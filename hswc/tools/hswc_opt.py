"""hswc-opt: xdsl-opt with hswc's dialects, passes and --lower-to-ascend, and located errors.

    hswc-opt [FILE|-] [-p PIPELINE] [--lower-to-ascend] [-t mlir|ascendc] [-o OUT]
             [--split-input-file] [--verify-diagnostics] [--print-between-passes]

Errors (unparsable text, unknown ops, verifier failures, ops a pass cannot lower, unknown
passes or malformed pass options, unreadable files) print one diagnostic, with file:line:col
where there is one, and exit 1. With --verify-diagnostics the diagnostic goes to stdout and
the exit code is 0, for FileCheck.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from typing import IO

from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline
from xdsl.printer import Printer
from xdsl.utils.arg_spec import ArgSpec, parse_pipeline
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException, ParseError
from xdsl.xdsl_opt_main import xDSLOptMain

from hswc.diagnostics import LocatingParser, format_parse_error, verify_located
from hswc.pipeline import DIALECTS, LOWER_TO_ASCEND, PASSES


def _accepts(pass_type: type[ModulePass], spec: ArgSpec) -> bool:
    try:
        pass_type.from_pass_spec(spec)
    except (ValueError, TypeError):
        return False
    return True


def _has_code(text: str) -> bool:
    """False for a chunk of only blank and comment lines (an empty module, as in mlir-opt)."""
    return any(line.strip() and not line.strip().startswith("//") for line in text.splitlines())


def lowering_specs(specs: list[ArgSpec]) -> list[ArgSpec]:
    """--lower-to-ascend: its stages in order, taking a stage's options from -p where -p names it
    (`-p 'hsg-tile-on-cores{soc=ascend910b}' --lower-to-ascend` folds the tiling); the other
    -p passes run after."""
    given = {spec.name: spec for spec in specs}
    stages = [given.get(name, ArgSpec(name, {})) for name in LOWER_TO_ASCEND]
    return stages + [spec for spec in specs if spec.name not in LOWER_TO_ASCEND]


class HswcOptMain(xDSLOptMain):
    """The opt driver, with only what hswc needs registered."""

    def register_all_dialects(self) -> None:
        for name, factory in DIALECTS.items():
            self.ctx.register_dialect(name, factory)

    def register_all_passes(self) -> None:
        for name, factory in PASSES.items():
            self.register_pass(name, factory)

    def register_all_targets(self) -> None:
        from hswc.targets import TARGETS

        self.available_targets.update(TARGETS)

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)
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

        started = time.perf_counter()

        def between(previous: ModulePass | None, module: ModuleOp,
                    following: ModulePass | None) -> None:
            nonlocal started
            if previous is not None and self.args.time_passes:
                print(f"Pass {previous.name} took {time.perf_counter() - started:.6f} seconds",
                      file=sys.stderr)
            self._verify(module)
            if previous and following and self.args.print_between_passes:
                print(f"// -----// IR after {previous.name} //----- //")
                Printer(stream=sys.stdout).print_op(module)
                print("\n")
            started = time.perf_counter()

        unknown = [spec.name for spec in specs if spec.name not in self.available_passes]
        if unknown:
            raise ValueError(f"unknown pass '{unknown[0]}' (known: "
                             f"{', '.join(self.available_passes)})")
        passes = tuple(self._make_pass(spec) for spec in specs)
        self.pipeline = PassPipeline(passes, between)

    def _verify(self, module: ModuleOp) -> None:
        if not self.args.disable_verify:
            verify_located(module)

    def _make_pass(self, spec: ArgSpec) -> ModulePass:
        pass_type = self.available_passes[spec.name]()
        try:
            return pass_type.from_pass_spec(spec)
        except (ValueError, TypeError) as error:
            # xDSL's message names the value, not the option: find the option that fails alone.
            culprit = next((key for key, value in spec.parameters.items()
                            if not _accepts(pass_type, ArgSpec(spec.name, {key: value}))), None)
            where = f"pass '{spec.name}'"
            if culprit:
                where = f"option '{culprit}' of {where}"
            raise ValueError(f"bad {where}: {error}") from None

    def run(self) -> None:
        for flag, given in (("-f/--frontend", self.args.frontend),
                            ("--no-implicit-module", self.args.no_implicit_module),
                            ("--shrink", self.args.shrink)):
            if given:  # inherited from xdsl-opt, but hswc-opt parses MLIR itself
                raise ValueError(f"{flag} is not supported by hswc-opt")
        chunks, _ = self.prepare_input()
        output = self.prepare_output()
        self.failed = False
        try:
            for index, (chunk, line_offset) in enumerate(chunks):
                if index > 0:
                    output.write("// -----\n")
                text = chunk.read().decode("utf-8", errors="replace")
                chunk.close()
                self._run_chunk(text, line_offset, output)
                output.flush()
        finally:
            if output is not sys.stdout:
                output.close()

    def get_input_stream(self) -> tuple[IO[bytes], str]:
        if self.args.input_file == "-":  # mlir-opt's spelling of stdin
            self.args.input_file = None
        return super().get_input_stream()

    def _run_chunk(self, text: str, line_offset: int, output: IO[str]) -> None:
        try:
            parser = LocatingParser(self.ctx, text, self.get_input_name(), line_offset)
            module = parser.parse_module() if _has_code(text) else ModuleOp([])
            self._verify(module)
            self.apply_passes(module)
            output.write(self.output_resulting_program(module))
        except (ParseError, DiagnosticException) as error:
            message = (format_parse_error(error, line_offset) if isinstance(error, ParseError)
                       else str(error).rstrip())
            if "error:" not in message.split("\n", 1)[0]:
                message = f"hswc-opt: error: {message}"
            if self.args.verify_diagnostics or self.args.parsing_diagnostics:
                print(message)
            else:
                print(message, file=sys.stderr)
                self.failed = True


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of hswc-opt; returns the exit code."""
    try:
        tool = HswcOptMain(description="hswc modular optimizer driver", args=argv)
        tool.run()
    except BrokenPipeError:
        # The reader of our output went away (`hswc-opt ... | head`): nothing left to say.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except OSError as error:
        name = getattr(error, "filename", None) or "input"
        print(f"hswc-opt: error: cannot read or write '{name}': {error.strerror}",
              file=sys.stderr)
        return 1
    except ArgSpecParseError as error:
        print(f"hswc-opt: error: malformed pass pipeline: {error}", file=sys.stderr)
        return 1
    except (ValueError, TypeError, DiagnosticException) as error:
        print(f"hswc-opt: error: {error}", file=sys.stderr)
        return 1
    return 1 if tool.failed else 0


if __name__ == "__main__":
    sys.exit(main())
