"""The layout the design card and the README promise: `pages/` (not `app_pages/`), and modules that each
say the one idea they hold."""

from browser_support import REPO_ROOT

FOLDERS = {"bpe": "**/*.py", "pages": "*.py", "server": "*.py", "ui": "*.py"}


def _modules():
    yield REPO_ROOT / "app.py"
    for folder, pattern in FOLDERS.items():
        yield from sorted((REPO_ROOT / folder).glob(pattern))


def test_pages_folder_is_the_design_cards():
    assert (REPO_ROOT / "pages" / "train.py").is_file() and (REPO_ROOT / "pages" / "encode.py").is_file()
    assert not (REPO_ROOT / "app_pages").exists()
    assert 'st.Page("pages/train.py"' in (REPO_ROOT / "app.py").read_text(encoding="utf-8")


def test_every_module_states_its_one_idea():
    """A module opens with a docstring whose first line says the one idea it holds: a module split by
    idea can be read alone; one that needs a table of contents is several."""
    import ast

    vague = []
    for path in _modules():
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        first = doc.strip().split("\n", 1)[0]
        if len(first.split()) < 4:
            vague.append(path.relative_to(REPO_ROOT).as_posix())
    assert vague == [], f"these modules do not open with a sentence saying their one idea: {vague}"


def test_every_engine_module_says_what_it_does_and_leaves_out():
    """Each bpe/ module opens with a docstring that says what it does and what it leaves out."""
    import ast

    missing = []
    for path in sorted((REPO_ROOT / "bpe").rglob("*.py")):
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        if "left out" not in doc.lower():
            missing.append(path.relative_to(REPO_ROOT).as_posix())
    assert missing == [], f"these modules' docstrings do not say what they leave out: {missing}"
