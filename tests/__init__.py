"""toolgen test suite."""
