"""toolgen: generate typed registries from one JSON Schema and one YAML table.

The pipeline is a chain of small stages, each its own module, imports flowing one way:
``load`` -> ``validate`` -> ``ir`` -> ``render`` (driven by ``targets``) -> ``format`` -> ``emit``.
``pipeline.build_outputs`` strings them together into a ``{path: text}`` map; ``cli`` is the only
module that prints and ``emit`` the only one that writes.
"""

__version__ = "0.1.0"
