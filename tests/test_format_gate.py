"""The format stage parses each text once, after ruff; text ruff cannot parse is still named."""

from __future__ import annotations

import pytest

from generator.format import FormatError, format_python


def test_rendered_text_that_is_not_python_is_named() -> None:
    with pytest.raises(FormatError) as raised:
        format_python({"out/pkg/good.py": "x = 1\n", "out/pkg/bad.py": "x = (\n"})
    assert raised.value.path == "out/pkg/bad.py"
    assert "not valid Python as rendered" in str(raised.value)


def test_valid_text_is_formatted() -> None:
    formatted = format_python({"out/pkg/a.py": "import os\nx=1\r\n"})
    assert formatted == {"out/pkg/a.py": "x = 1\n"}
