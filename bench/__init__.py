"""Benchmarks (SPEC §7): figures as ratios measured in one run, never timed assertions."""
