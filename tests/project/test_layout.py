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


def test_no_module_writes_another_objects_private_fields():
    """An object's private fields (``_name``) are written only by its own class's methods, through ``self`` or
    ``cls`` or a copy the method just made of ``self``: a module that wrote another's fields would tie the two
    together where a reader cannot see it."""
    import ast

    found = []
    for path in _modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for func in ast.walk(tree):
            if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            own = {"self", "cls"}  # and names bound to copy.copy(self) inside this method
            for node in ast.walk(func):
                if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                    call = ast.unparse(node.value)
                    if call in ("copy.copy(self)", "copy(self)"):
                        own |= {t.id for t in node.targets if isinstance(t, ast.Name)}
            for node in ast.walk(func):
                targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
                for target in targets:
                    if (
                        isinstance(target, ast.Attribute)
                        and target.attr.startswith("_")
                        and not target.attr.startswith("__")
                        and not (isinstance(target.value, ast.Name) and target.value.id in own)
                    ):
                        found.append(f"{path.relative_to(REPO_ROOT)}:{node.lineno} {ast.unparse(target)}")
    assert found == []
