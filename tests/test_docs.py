"""The documentation stands on its own: every relative link in README.md and docs/ leads to a
file of this repository, and nothing shown to users points at files outside it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])

_FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.MULTILINE | re.DOTALL)
_CODE_SPAN = re.compile(r"`+[^`\n]*`+")
_INLINE_LINK = re.compile(r"!?\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+[\"'(][^)]*)?\)")
_REFERENCE_LINK = re.compile(r"^\s{0,3}\[[^\]\n]+\]:\s*<?(\S+?)>?(?:\s+.*)?$", re.MULTILINE)
_EXTERNAL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")  # http:, https:, mailto:, ...

# Paths of the workspace the project was written in; a user of the repository has none of them.
_OUTSIDE = ("shared/seeds", "shared/research", "../shared")


def _links(markdown: str) -> list[str]:
    text = _CODE_SPAN.sub("", _FENCE.sub("", markdown))
    return _INLINE_LINK.findall(text) + _REFERENCE_LINK.findall(text)


def _relative_targets(doc: Path) -> list[str]:
    return [
        link
        for link in _links(doc.read_text(encoding="utf-8"))
        if not _EXTERNAL.match(link) and not link.startswith("#")
    ]


def test_the_docs_are_found() -> None:
    names = {doc.relative_to(ROOT).as_posix() for doc in DOCS}
    assert {"README.md", "docs/notation.md", "docs/rules/maiterra.md"} <= names
    assert {"docs/rules/maatatahay.md", "docs/rules/manafields.md"} <= names


@pytest.mark.parametrize("doc", DOCS, ids=lambda doc: doc.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves_inside_the_repository(doc: Path) -> None:
    broken = []
    for link in _relative_targets(doc):
        target = (doc.parent / link.split("#", 1)[0]).resolve()
        if not target.is_relative_to(ROOT) or not target.exists():
            broken.append(link)
    assert not broken, (
        f"{doc.relative_to(ROOT)}: links that lead nowhere in the repository: {broken}"
    )


def test_the_link_finder_sees_inline_reference_and_image_links() -> None:
    text = (
        'See [the rules](rules/maiterra.md#a-turn), ![plot](ai-figures/x.png "title"),\n'
        "[home](https://example.org) and [top](#top).\n"
        "[ref]: ../README.md\n"
        "```\n[not a link](inside/a/fence.md)\n```\n"
        "and `[nor](a/code/span.md)`.\n"
    )
    assert _links(text) == [
        "rules/maiterra.md#a-turn",
        "ai-figures/x.png",
        "https://example.org",
        "#top",
        "../README.md",
    ]


def _user_facing_files() -> list[Path]:
    files = list(DOCS)
    for path in sorted((ROOT / "src").rglob("*")):
        if path.is_file() and path.suffix in {".py", ".json", ".md", ".txt", ".toml", ".html"}:
            files.append(path)
    return files


def test_nothing_shown_to_users_points_outside_the_repository() -> None:
    found = []
    for path in _user_facing_files():
        text = path.read_text(encoding="utf-8")
        for needle in _OUTSIDE:
            if needle in text:
                line = text[: text.index(needle)].count("\n") + 1
                found.append(f"{path.relative_to(ROOT)}:{line}: {needle}")
    assert not found, "the docs and the code point at files a user does not have:\n" + "\n".join(
        found
    )
