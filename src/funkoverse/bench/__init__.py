"""Benchmarks of the engine and the AI: reference workloads, measured here and never asserted
in tests (`funkoverse bench`; docs/performance.md records the figures)."""
