"""Command-line counts shared by the benchmarks (imported from beside them: ``bench/`` is each
script's folder)."""

from __future__ import annotations

import argparse


def at_least_one(text: str) -> int:
    """An ``argparse`` type for a count of rounds, repeats or documents: a whole number of at
    least 1. Every figure a benchmark prints is a median or a per-document mean, which a count of
    0 (or less) leaves undefined: such a count is a usage error, not a traceback."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value
