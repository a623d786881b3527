"""plumometer's benchmarks, one module per section of run_benchmarks.py over the testbed (see its docstring)."""
