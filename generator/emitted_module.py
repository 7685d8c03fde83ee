"""What a validator backend assembles while it spells a plan, the same in every language.

``EmittedModule`` holds the module's constants (each expression defined once, however often it is
asked for), a counter naming local variables, and one function per (plan node, collecting or
answering): named when first asked for, queued in ``pending``, and written by the backend when it
drains the queue (so a recursive schema refers to a function before its body exists). It also
says whether a function may expand a ``$ref`` target inline (``inline_cost``: the same bounds for
every backend). A backend subclasses it and says only how a constant's name and line and a
function's name are spelled.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from generator.plan import MAX_INLINED_NODES, MAX_INLINED_TARGET, Node, Plan, expanded_sizes


@dataclass
class EmittedModule:
    plan: Plan
    constants: list[str] = field(default_factory=list)
    constant_names: dict[str, str] = field(default_factory=dict)
    functions: dict[tuple[str, bool], str] = field(default_factory=dict)
    pending: list[tuple[Node, str, bool]] = field(default_factory=list)
    variables: int = 0
    # Each ``$ref`` target's size expanded inline (``plan.expanded_sizes``), sized once.
    expanded: dict[str, int] = field(init=False)

    def __post_init__(self) -> None:
        self.expanded = expanded_sizes(self.plan)

    def inline_cost(self, ref: str, expanded_so_far: int) -> int | None:
        """The plan nodes expanding ``ref`` inline adds to a function that has expanded
        ``expanded_so_far`` already, or ``None`` when the function must call it instead: the
        target is larger than ``MAX_INLINED_TARGET``, or the function would pass
        ``MAX_INLINED_NODES``. (Recursion and depth are each backend's own tests.)"""
        size = self.expanded.get(ref, 1)
        if size > MAX_INLINED_TARGET or expanded_so_far + size > MAX_INLINED_NODES:
            return None
        return size

    def constant_name(self, prefix: str, number: int) -> str:
        raise NotImplementedError

    def constant_line(self, name: str, expression: str, annotation: str) -> str:
        raise NotImplementedError

    def function_name(self, number: int, *, collect: bool) -> str:
        raise NotImplementedError

    def constant(self, prefix: str, expression: str, annotation: str = "") -> str:
        """The name of a module constant holding ``expression`` (defined on first use)."""
        key = prefix + expression
        if key not in self.constant_names:
            name = self.constant_name(prefix, len(self.constant_names))
            self.constant_names[key] = name
            self.constants.append(self.constant_line(name, expression, annotation))
        return self.constant_names[key]

    def variable(self, prefix: str) -> str:
        self.variables += 1
        return f"{prefix}{self.variables}"

    def function_for(self, node: Node, *, collect: bool) -> str:
        """The name of the function for ``node`` (written later, once per node pointer): one
        that collects every violation, or one that only answers (stopping at the first)."""
        key = (node.at, collect)
        if key not in self.functions:
            name = self.function_name(len(self.functions), collect=collect)
            self.functions[key] = name
            self.pending.append((node, name, collect))
        return self.functions[key]

    def function_at(self, pointer: str, *, collect: bool) -> str:
        """``function_for`` the plan's node of its own at ``pointer``."""
        return self.function_for(self.plan.nodes[pointer], collect=collect)
