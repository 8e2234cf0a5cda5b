"""The layout the design card and the README promise: `pages/` (not `app_pages/`), and modules
small enough to read in one sitting unless they hold one idea."""

from browser_support import REPO_ROOT

# Modules allowed past their folder's limit, each with the one idea it holds (none in bpe/).
ONE_IDEA: dict[str, str] = {}
# Lines per module, by folder (bpe/ counts its subpackages too).
LIMITS = {"bpe": 500, "pages": 500, "server": 500}


def test_pages_folder_is_the_design_cards():
    assert (REPO_ROOT / "pages" / "train.py").is_file() and (REPO_ROOT / "pages" / "encode.py").is_file()
    assert not (REPO_ROOT / "app_pages").exists()
    assert 'st.Page("pages/train.py"' in (REPO_ROOT / "app.py").read_text(encoding="utf-8")


def test_no_module_is_too_long_to_read():
    long = {}
    for folder, limit in LIMITS.items():
        paths = (REPO_ROOT / folder).rglob("*.py") if folder == "bpe" else (REPO_ROOT / folder).glob("*.py")
        for path in paths:
            name = path.relative_to(REPO_ROOT).as_posix()
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > limit and name not in ONE_IDEA:
                long[name] = lines
    assert long == {}, f"split these modules (one idea each) or name their one idea in ONE_IDEA: {long}"


def test_every_engine_module_says_what_it_does_and_leaves_out():
    """Each bpe/ module opens with a docstring that says what it does and what it leaves out."""
    import ast

    missing = []
    for path in sorted((REPO_ROOT / "bpe").rglob("*.py")):
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        if "left out" not in doc.lower():
            missing.append(path.relative_to(REPO_ROOT).as_posix())
    assert missing == [], f"these modules' docstrings do not say what they leave out: {missing}"
