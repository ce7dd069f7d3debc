"""Bounded YAML loading for files inside a VNF package.

``yaml.safe_load`` builds no objects, but a hostile file can still be huge
or an alias bomb ("billion laughs": a few aliases expanding to billions of
nodes when walked). Each file is size-checked and composed first, counting
aliases, duplicate mapping keys and the node count as expanded, before
``yaml.safe_load`` builds the data.
"""

from pathlib import Path
from typing import Any

import yaml

from tacker_ng.packages.exceptions import InvalidVnfd
from tacker_ng.packages.limits import CsarLimits

#: Largest node count of a document after alias expansion.
MAX_EXPANDED_NODES = 1_000_000


def _check_nodes(root: yaml.Node, path: str, limits: CsarLimits) -> None:
    sizes: dict[int, int] = {}
    aliases = 0
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        if done:
            children = _children(node)
            sizes[id(node)] = 1 + sum(sizes[id(c)] for c in children)
            if sizes[id(node)] > MAX_EXPANDED_NODES:
                raise InvalidVnfd(
                    f"YAML expands to more than {MAX_EXPANDED_NODES} nodes",
                    file=path,
                )
            continue
        if id(node) in sizes:
            if sizes[id(node)] == 0:
                raise InvalidVnfd(
                    f"recursive YAML alias at line {node.start_mark.line + 1}",
                    file=path,
                )
            aliases += 1
            if aliases > limits.max_yaml_aliases:
                raise InvalidVnfd(
                    f"YAML has more than {limits.max_yaml_aliases} aliases",
                    file=path,
                )
            continue
        sizes[id(node)] = 0  # in progress: only ancestors are at 0
        stack.append((node, True))
        if isinstance(node, yaml.MappingNode):
            _check_duplicate_keys(node, path)
        stack.extend((child, False) for child in _children(node))


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def _check_duplicate_keys(node: yaml.MappingNode, path: str) -> None:
    seen: set[str] = set()
    for key, _ in node.value:
        if not isinstance(key, yaml.ScalarNode):
            continue
        if key.value in seen:
            raise InvalidVnfd(
                f"duplicate key {key.value!r} at line "
                f"{key.start_mark.line + 1}",
                file=path,
            )
        seen.add(key.value)


def load_yaml_text(
    text: str, path: str, limits: CsarLimits, *, all_documents: bool = False
) -> Any:
    """Safely load YAML ``text`` (from package file ``path``)."""
    try:
        for root in yaml.compose_all(text, Loader=yaml.SafeLoader):
            if root is not None:
                _check_nodes(root, path, limits)
        if all_documents:
            return [doc for doc in yaml.safe_load_all(text) if doc is not None]
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise InvalidVnfd(
            f"invalid YAML: {_one_line(exc)}", file=path
        ) from exc


def _one_line(exc: yaml.YAMLError) -> str:
    return " ".join(str(exc).split())


def load_yaml_file(
    root: Path, path: str, limits: CsarLimits, *, all_documents: bool = False
) -> Any:
    """Load the package file ``path`` (relative to ``root``) as YAML."""
    file = root.joinpath(*path.split("/"))
    if file.stat().st_size > limits.max_yaml_size:
        raise InvalidVnfd(
            f"YAML file is larger than {limits.max_yaml_size} bytes", file=path
        )
    try:
        text = file.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidVnfd("file is not UTF-8 text", file=path) from exc
    return load_yaml_text(text, path, limits, all_documents=all_documents)
