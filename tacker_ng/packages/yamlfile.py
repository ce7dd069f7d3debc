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

#: The libyaml-based safe loader when available (same safety, faster).
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
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
    """Safely load YAML ``text`` (from package file ``path``).

    Same as ``yaml.safe_load`` (only the safe constructors), split into
    compose, check, construct so the composed graph is checked first.
    """
    loader = _SAFE_LOADER(text)
    try:
        documents = []
        while loader.check_node():
            root = loader.get_node()
            if root is None:
                continue
            _check_nodes(root, path, limits)
            documents.append(loader.construct_document(root))
    except yaml.YAMLError as exc:
        raise InvalidVnfd(
            f"invalid YAML: {_one_line(exc)}", file=path
        ) from exc
    finally:
        loader.dispose()
    if all_documents:
        return [doc for doc in documents if doc is not None]
    if len(documents) > 1:
        raise InvalidVnfd(
            "expected one YAML document, found several", file=path
        )
    return documents[0] if documents else None


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
