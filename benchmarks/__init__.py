"""Benchmarks of the runtime, run as ``python -m benchmarks.NAME``: timings and exhaustive checks."""
