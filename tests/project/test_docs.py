"""The README stays short enough to read in five minutes, and every path the README and docs/ name exists."""

import re

import pytest
from browser_support import REPO_ROOT

DOCS = [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").glob("*.md"))]
# A path in backticks that starts with one of the project's folders, e.g. `bpe/check.py` or `pages/`.
CODE_PATH = re.compile(
    r"`((?:app\.py|bpe|pages|server|ui|tests|benchmarks|scripts|docs|\.streamlit|\.ci)(?:/[\w./-]*)?)`"
)
LINK = re.compile(r"\]\(([^)#:]+)(?:#[^)]*)?\)")


def test_readme_is_short():
    lines = (REPO_ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 200, f"the README has {len(lines)} lines; move detail to docs/"


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_named_path_exists(doc):
    text = doc.read_text(encoding="utf-8")
    missing = []
    for path in CODE_PATH.findall(text):
        if "*" in path or "<" in path:
            continue
        module, _, attribute = path.rpartition(".")
        names_a_function = attribute.isidentifier() and (REPO_ROOT / f"{module}.py").exists()  # `pages/x.f`
        if not (REPO_ROOT / path).exists() and not names_a_function:
            missing.append(path)
    for link in LINK.findall(text):
        if not (doc.parent / link).resolve().exists():
            missing.append(link)
    assert missing == [], f"{doc.name} names paths that do not exist: {missing}"
