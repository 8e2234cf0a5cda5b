"""The layout the design card and the README promise: `pages/` (not `app_pages/`), and modules
small enough to read in one sitting unless they hold one idea."""

from browser_support import REPO_ROOT

# Modules allowed past the limit, each with the one idea it holds.
ONE_IDEA = {
    "bpe/serialization.py": "the file formats: tokenizer.json (ours and real ones), vocab.json + merges.txt, the log",
    "bpe/tokenizer.py": "the Tokenizer: cutting text into tokens and back, with its merge replay",
    "bpe/pipeline.py": "the text side of a real tokenizer.json, component by component as tokenizers has it",
}
LIMIT = 650
FOLDER_LIMITS = {"pages": 500, "server": 500}  # no exemptions there


def test_pages_folder_is_the_design_cards():
    assert (REPO_ROOT / "pages" / "train.py").is_file() and (REPO_ROOT / "pages" / "encode.py").is_file()
    assert not (REPO_ROOT / "app_pages").exists()
    assert 'st.Page("pages/train.py"' in (REPO_ROOT / "app.py").read_text(encoding="utf-8")


def test_no_module_is_too_long_to_read():
    long = {}
    for folder in ("bpe", "pages", "server"):
        for path in (REPO_ROOT / folder).glob("*.py"):
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > FOLDER_LIMITS.get(folder, LIMIT) and f"{folder}/{path.name}" not in ONE_IDEA:
                long[f"{folder}/{path.name}"] = lines
    assert long == {}, f"split these modules (one idea each) or name their one idea in ONE_IDEA: {long}"
