"""The verification harness: process stacks, sweeps, checkers and probes."""
