"""Bounded YAML loading: size, alias bombs, recursion, duplicate keys."""

import pytest

from tacker_ng.packages.exceptions import InvalidVnfd
from tacker_ng.packages.limits import CsarLimits
from tacker_ng.packages.yamlfile import load_yaml_file, load_yaml_text

LIMITS = CsarLimits()


def billion_laughs(levels: int = 9) -> str:
    lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for i in range(1, levels):
        refs = ", ".join([f"*a{i - 1}"] * 9)
        lines.append(f"a{i}: &a{i} [{refs}]")
    return "\n".join(lines) + "\n"


def test_plain_yaml_and_aliases_within_limits():
    data = load_yaml_text("a: &x [1, 2]\nb: *x\n", "f.yaml", LIMITS)
    assert data == {"a": [1, 2], "b": [1, 2]}


def test_alias_bomb_is_refused_before_expansion():
    with pytest.raises(InvalidVnfd) as info:
        load_yaml_text(billion_laughs(), "bomb.yaml", LIMITS)
    assert info.value.file == "bomb.yaml"
    assert "YAML expands to more than" in info.value.problem


def test_alias_count_limit():
    text = "a: &x 1\n" + "".join(f"b{i}: *x\n" for i in range(5))
    with pytest.raises(InvalidVnfd, match="more than 3 aliases"):
        load_yaml_text(text, "f.yaml", CsarLimits(max_yaml_aliases=3))


def test_recursive_alias():
    with pytest.raises(InvalidVnfd, match="recursive YAML alias at line 1"):
        load_yaml_text("a: &a [*a]\n", "f.yaml", LIMITS)


def test_duplicate_keys():
    with pytest.raises(InvalidVnfd, match="duplicate key 'x' at line 3"):
        load_yaml_text("top:\n  x: 1\n  x: 2\n", "f.yaml", LIMITS)


def test_unsafe_tags_are_not_constructed():
    with pytest.raises(InvalidVnfd, match="invalid YAML"):
        load_yaml_text("!!python/object/apply:os.system [id]\n", "f", LIMITS)


def test_several_documents():
    text = "a: 1\n---\nb: 2\n"
    assert load_yaml_text(text, "f", LIMITS, all_documents=True) == [
        {"a": 1},
        {"b": 2},
    ]
    with pytest.raises(InvalidVnfd, match="expected one YAML document"):
        load_yaml_text(text, "f", LIMITS)


def test_file_size_limit(tmp_path):
    (tmp_path / "big.yaml").write_text("a: " + "x" * 100 + "\n")
    with pytest.raises(InvalidVnfd, match="larger than 50 bytes"):
        load_yaml_file(tmp_path, "big.yaml", CsarLimits(max_yaml_size=50))


def test_file_not_utf8(tmp_path):
    (tmp_path / "bad.yaml").write_bytes(b"a: \xff\xfe\n")
    with pytest.raises(InvalidVnfd, match="not UTF-8"):
        load_yaml_file(tmp_path, "bad.yaml", LIMITS)
