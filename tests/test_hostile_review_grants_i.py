"""Hostile review (session i) of grants, categories, the launch guard and prompt arguments: each
test holds one finding to the README's promise or to the other language's verdict."""

from __future__ import annotations

import tracemalloc

import pytest
from tool_registry import PromptArgError, apply_prompt_arg_template

# -- prompt arguments: a bound limits the work while the template is read ----------------------


class _Entries(tuple[str, ...]):
    """A tuple subclass: read through ``tuple``'s own methods, so it is copied to be read."""


@pytest.mark.parametrize("kind", [list, _Entries])
def test_a_template_of_too_many_entries_is_refused_before_it_is_copied(kind: type) -> None:
    # 1,000,000 entries: copying them (a list, then a tuple) cost 16 MB before the count was
    # compared with the bound; TypeScript refuses such an array before reading an element.
    template = kind(["x"] * 1_000_000)
    tracemalloc.start()
    try:
        with pytest.raises(PromptArgError) as raised:
            apply_prompt_arg_template(template, "p")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert (raised.value.code, raised.value.index) == ("ARGUMENTS_TOO_LONG", 131_072)
    assert peak < 1_000_000, f"{peak} bytes allocated to refuse the template"
