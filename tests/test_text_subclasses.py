"""A ``str`` subclass given where the runtime takes text runs none of its methods.

The registry's lookups (``get``, ``cohort``, ``providers_of``, ``resolver_for``),
``get_tool_registry``'s folder, grants, categories and resolver ids, the launch guard (its id and
a given detection's id) and the prompt templates (entries and prompt) each copy the caller's text
as an exact ``str`` first (``plain_text``). Before, an overridden ``__eq__``, ``__hash__``,
``replace``, ``startswith`` or ``__contains__`` ran inside the runtime, and could make what was
checked differ from what was used. Every method of the values below records that it ran and
raises; each answer must equal the one for the plain string.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from tool_registry import (
    CAPABILITIES,
    COHORT_NAMES,
    SUPPORTED_TOOLS,
    DetectionDeps,
    NotLaunchableError,
    PromptArgError,
    apply_prompt_arg_template,
    check_prompt_arg_template,
    ensure_launchable,
    get_tool_registry,
    hook_package_for,
    is_launchable,
)
from tool_registry.detection import DetectionResult
from tool_registry.launch import not_launchable_reason

from .test_loader import manifest, put

RAN: list[str] = []

# What constructing and dropping an instance needs; everything else of str is overridden.
_KEPT = {
    "__new__",
    "__init__",
    "__init_subclass__",
    "__subclasshook__",
    "__class__",
    "__doc__",
    "__getnewargs__",
}


def _loud(name: str) -> Any:
    def method(self: object, *args: object, **kwargs: object) -> Any:
        RAN.append(name)
        raise AssertionError(f"the caller's str subclass ran {name}")

    return method


def _loud_class() -> type[str]:
    namespace: dict[str, Any] = {
        name: _loud(name) for name in dir(str) if name not in _KEPT and callable(getattr(str, name))
    }

    def poses(self: object) -> type:
        RAN.append("__class__")
        raise AssertionError("the caller's str subclass's __class__ was read")

    namespace["__class__"] = property(poses)
    return type("LoudText", (str,), namespace)


LoudText = _loud_class()


def loud(text: str) -> str:
    return str.__new__(LoudText, text)


class LoudList(list[Any]):
    """A template whose own list methods must not run either: what is checked is what is used."""

    def __iter__(self) -> Any:
        RAN.append("list.__iter__")
        raise AssertionError("the template's __iter__ ran")

    def __len__(self) -> int:
        RAN.append("list.__len__")
        raise AssertionError("the template's __len__ ran")

    def __getitem__(self, index: Any) -> Any:
        RAN.append("list.__getitem__")
        raise AssertionError("the template's __getitem__ ran")


class LoudTuple(tuple[Any, ...]):
    def __iter__(self) -> Any:
        RAN.append("tuple.__iter__")
        raise AssertionError("the template's __iter__ ran")

    def __getitem__(self, index: Any) -> Any:
        RAN.append("tuple.__getitem__")
        raise AssertionError("the template's __getitem__ ran")


@pytest.fixture(autouse=True)
def nothing_ran() -> Any:
    RAN.clear()
    yield
    assert RAN == []


def test_the_loud_value_is_loud() -> None:
    value = loud("aider")
    with pytest.raises(AssertionError):
        value.startswith("a")
    with pytest.raises(AssertionError):
        hash(value)
    with pytest.raises(AssertionError):
        value.replace("a", "b")
    RAN.clear()


class Pairs(Mapping[str, Any]):
    """A host's mapping keyed by such values: a ``dict`` would hash them while being built."""

    def __init__(self, *pairs: tuple[str, Any]) -> None:
        self.pairs = pairs

    def items(self) -> Any:
        return list(self.pairs)

    def __getitem__(self, key: str) -> Any:
        raise AssertionError("looked up by key")

    def __iter__(self) -> Iterator[str]:
        return iter([key for key, _ in self.pairs])

    def __len__(self) -> int:
        return len(self.pairs)


def deps(found: set[str]) -> DetectionDeps:
    return DetectionDeps(
        which=lambda name: f"/bin/{name}" if name in found else None,
        is_file=lambda path: False,
        read_text=lambda path: None,
        home=lambda: "/home/u",
        platform=lambda: "linux",
    )


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "adapters"
    path.mkdir()
    put(path, "a.json", manifest(category="cli-agent"))
    return path


def resolve(deps: DetectionDeps) -> list[str]:
    return ["/opt/claude"]


def test_get_tool_registry_copies_the_folder_grants_categories_and_resolver_ids(
    folder: Path,
) -> None:
    plain = get_tool_registry(
        str(folder),
        grants={"aider": ["headless-task"]},
        categories=["cli-agent"],
        resolvers={"claude-desktop": resolve},
    )
    hostile = get_tool_registry(
        loud(str(folder)),
        grants=Pairs((loud("aider"), [loud("headless-task")])),
        categories=[loud("cli-agent")],
        resolvers=Pairs((loud("claude-desktop"), resolve)),
    )
    assert RAN == []
    assert hostile.ids == plain.ids and "aider" in hostile.ids
    assert hostile.granted == plain.granted and hostile.granted["aider"] == {"headless-task"}
    assert hostile.grants == plain.grants
    assert hostile.catalog() == plain.catalog()
    assert hostile.diagnostics == plain.diagnostics
    # A single category given as text, and a refresh keeping the copies.
    one = get_tool_registry(loud(str(folder)), categories=loud("cli-agent"))
    assert one.ids == get_tool_registry(str(folder), categories="cli-agent").ids
    assert hostile.refresh().granted == plain.granted
    # The grants' keys and values are exact str now, so later lookups run nothing either.
    assert all(type(key) is str for key in hostile.grants)
    assert all(type(c) is str for values in hostile.grants.values() for c in values)


def test_registry_lookups(folder: Path) -> None:
    registry = get_tool_registry(
        str(folder), grants={"aider": ["headless-task"]}, resolvers={"claude-desktop": resolve}
    )
    for tool_id in (*SUPPORTED_TOOLS, "aider", "nope"):
        assert registry.get(loud(tool_id)) == registry.get(tool_id)
        assert registry.resolver_for(loud(tool_id)) is registry.resolver_for(tool_id)
    assert registry.resolver_for(loud("claude-desktop")) is resolve
    for name in COHORT_NAMES:
        assert registry.cohort(loud(name)) == registry.cohort(name)  # type: ignore[arg-type]
    for capability in CAPABILITIES:
        assert registry.providers_of(loud(capability)) == registry.providers_of(capability)  # type: ignore[arg-type]
    for tool_id in SUPPORTED_TOOLS:
        assert hook_package_for(loud(tool_id)) == hook_package_for(tool_id)  # type: ignore[arg-type]


def test_the_launch_guard(folder: Path) -> None:
    registry = get_tool_registry(str(folder), grants={"aider": ["headless-task"]})
    for tool_id in (*SUPPORTED_TOOLS, "aider", "nope"):
        for found in (set(), {"aider", "claude"}):
            expected = not_launchable_reason(registry, tool_id, deps=deps(found))
            assert not_launchable_reason(registry, loud(tool_id), deps=deps(found)) == expected
            assert is_launchable(registry, loud(tool_id), deps=deps(found)) is (expected is None)
    assert ensure_launchable(registry, loud("aider"), deps=deps({"aider"})).id == "aider"
    with pytest.raises(NotLaunchableError) as caught:
        ensure_launchable(registry, loud("nope"))
    with pytest.raises(NotLaunchableError) as plain:
        ensure_launchable(registry, "nope")
    assert caught.value.tool_id == plain.value.tool_id
    assert str(caught.value) == str(plain.value)
    # A given detection whose id is such a value is compared as its text.
    installed = DetectionResult(loud("aider"), "Aider", True, "/bin/aider", None, False, "")
    gone = DetectionResult(loud("aider"), "Aider", False, None, None, False, "")
    assert not_launchable_reason(registry, "aider", detection=installed) is None
    assert not_launchable_reason(registry, "aider", detection=(gone,)) == "NOT_INSTALLED"


def outcome(template: Any, prompt: Any) -> object:
    try:
        return apply_prompt_arg_template(template, prompt)
    except PromptArgError as error:
        return (error.code, error.index)


@pytest.mark.parametrize(
    ("template", "prompt"),
    [
        (["--message", "{prompt}"], "hello"),
        (["--message", "{prompt}"], "-rf"),
        (["--", "{prompt}"], "-rf"),
        (["--delimiter", "--", "{prompt}"], "-rf"),
        (["{prompt}"], "a\x00b"),
        (["/etc/{prompt}"], "x"),
        (["../{prompt}"], "x"),
        (["-{prompt}"], "x"),
        (["a{prompt}b{prompt}"], "{prompt}"),
    ],
)
def test_prompt_templates(template: list[str], prompt: str) -> None:
    expected = outcome(template, prompt)
    entries = [loud(entry) for entry in template]
    for shaped in (entries, tuple(entries), LoudList(entries), LoudTuple(entries)):
        assert outcome(shaped, loud(prompt)) == expected
        assert outcome(shaped, prompt) == expected
    result = apply_prompt_arg_template(template, loud(prompt)) if isinstance(expected, list) else []
    assert all(type(argument) is str for argument in result)
    try:
        check_prompt_arg_template(LoudList(entries))
        checked: object = None
    except PromptArgError as error:
        checked = (error.code, error.index)
    refused_entry = isinstance(expected, tuple) and expected[0].startswith("TEMPLATE_")
    assert checked == (expected if refused_entry else None)


def test_what_is_not_text_is_still_refused_by_its_type_name() -> None:
    with pytest.raises(TypeError, match=r"^template\[0\] must be a string, not bytes$"):
        apply_prompt_arg_template([b"x"], "p")  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"^prompt must be a string, not bytes$"):
        apply_prompt_arg_template(["{prompt}"], b"p")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^template must be a list of strings, not LoudText$"):
        apply_prompt_arg_template(loud("{prompt}"), "p")
