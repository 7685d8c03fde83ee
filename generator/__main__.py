"""Entry point for ``python -m generator``: delegates to the CLI."""

from generator.cli import main

raise SystemExit(main())
