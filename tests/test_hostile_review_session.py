"""Hostile review of the problem limit's report order, the pattern shortcuts and the ``$ref``
inline bounds."""

from __future__ import annotations

from generator.diagnostics import MAX_DIAGNOSTICS_PER_FILE, Code, sort_key

from .test_validation import diagnose, row, table

LIMIT = MAX_DIAGNOSTICS_PER_FILE


def test_the_stop_record_is_its_files_last_even_when_an_earlier_pass_reported_further_down() -> (
    None
):
    # The table's schema validation reports the last row's wrong type first; the cross-row
    # rules then stop at the limit on a duplicate id far above it. Sorted by line alone (as
    # every output format is), the record saying "the rest of the file is not checked" stood
    # above a record from further down the file.
    rows = [row("alpha", f"Alpha {n}") for n in range(LIMIT + 50)]
    rows.append(row("omega", "Omega", launchable="7"))
    ordered = sorted(diagnose(table(*rows)), key=sort_key)
    assert len(ordered) == LIMIT + 1
    codes = [d.code for d in ordered]
    assert Code.SCHEMA_VIOLATION in codes  # the last row's type error, found first
    assert codes.count(Code.TOO_MANY_DIAGNOSTICS) == 1
    assert codes[-1] is Code.TOO_MANY_DIAGNOSTICS
    violation = ordered[codes.index(Code.SCHEMA_VIOLATION)]
    assert violation.line is not None
    assert ordered[-1].line is not None
    assert ordered[-1].line < violation.line  # where the limit stopped the later pass
    # Every other record stays in file order.
    located = [(d.line or 0, d.column or 0) for d in ordered[:-1]]
    assert located == sorted(located)
