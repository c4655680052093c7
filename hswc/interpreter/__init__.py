"""The interpreter: every IR level of hswc executed on numpy values (hswc-run's engine).

Layout (one InterpreterFunctions class per dialect, as xDSL's own interpreters; their base
MachineFunctions in machine.py gives each the run's Machine):
- values.py        per-core values of cores running in lock-step (`Varying`, `Rows`);
- walker.py        xDSL's Interpreter with a lean region walk; execute.py builds it;
- arith_functions.py, scf_functions.py, func_functions.py   host and index code
  (hswc.integer_semantics: arith's integer ops, shared with hswc.cost_model; float_scalars.py:
  a kernel's float scalar code, its run-time attributes);
- hsg_functions.py, launch.py   the hsg ops and hsg.launch (a batch of cores at a time);
- ascend_functions.py, ascend_vector_functions.py, ascend_copy_functions.py   AscendC calls,
  on_cores.py runs one call on the active cores; ascendc_api.py has their numpy semantics
  (ascendc_arith.py, ascendc_vector.py, ascendc_cast.py, ascendc_copy.py, ascendc_checks.py
  behind it);
- batch.py, core_state.py, tensors.py   the modelled core: UB arena, TPipe/TQue bookkeeping;
- linalg_functions.py, linalg_named_functions.py, structured.py, tensor_functions.py,
  constants.py   the host's ops with MLIR's semantics: any linalg.generic and every named op
  in MLIR's loop order (structured.py), the tensor dialect, dense and dense_resource constants;
  body.py / body_ops.py run a body's scalar ops over whole arrays;
- trace.py         per-call events for profilers; binding.py   user arrays -> arguments.
The Python API is hswc.runner; the command line is hswc-run (hswc.tools.hswc_run).
"""
