"""Shared fixtures.

Browser tests (mark them ``@pytest.mark.browser``) use:
  app_server  (session)  base URL of a running ``streamlit run app.py``, e.g. "http://127.0.0.1:PORT"
  browser     (session)  Playwright sync-API chromium Browser (Debian's chromium-headless-shell); its contexts
                         prefer reduced motion unless a test asks otherwise (``QuietBrowser``)
  page        (function) fresh context (1280x900) + Page; closed after the test
  screenshot_dir (session) where screenshots go: a temporary folder, or docs/ with UPDATE_SCREENSHOTS=1
  replicas    (module)   (url, run_dir) of two replicas behind HAProxy, as scripts/serve-replicas.sh serves them
and ``from browser_support import wait_for_app`` to wait for a script run to finish.

Every session checks that the tests left the checkout as they found it (``git status``).
The benchmarks' protocol client is importable as ``from st_client import Session``.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from browser_support import (
    CHROMIUM_ARGS,
    ONE_WORKER,
    REPO_ROOT,
    AppServer,
    chromium_path,
    free_port,
    healthy,
    open_train,
    wait_until,
)
from hypothesis import settings

sys.path.insert(0, str(REPO_ROOT / "benchmarks"))

UPDATE_SCREENSHOTS = os.environ.get("UPDATE_SCREENSHOTS") == "1"

# Hypothesis: the full search in CI; `--hypothesis-profile=fast` for a developer's quick run.
settings.register_profile("fast", max_examples=10, deadline=None)

# The fast subset (`bash scripts/test.sh -m "not slow" --hypothesis-profile=fast`) leaves out the browser tests,
# the modules that start real servers, worker pools or file readers, and the few tests that read large files.
SLOW_MODULES = {
    "test_abandoned_runs", "test_check_isolation", "test_cli", "test_dask_counts", "test_encode_exact_files",
    "test_encode_real", "test_fair_lanes", "test_hosting_config", "test_hub_limits", "test_jobs", "test_replicas",
    "test_replicas_redis", "test_run_memory", "test_snapshots", "test_st_client", "test_st_client_upload",
    "test_startup", "test_stop_shared_run", "test_store_failures", "test_tcp", "test_upload_limits", "test_uploads",
    "test_worker_lifetime", "test_check_page", "test_encode_popular", "test_class_step_messages",
}  # fmt: skip
SLOW_TESTS = {
    "test_unit_to_char_in_bulk_is_the_character_of_each_byte",
    "test_the_fast_unicode_sets_equal_tokenizers_tables_over_every_code_point",
    "test_the_splits_a_run_keeps_stay_within_what_the_run_store_counts_for_long_words",
    "test_same_sha256_in_separate_processes",
    "test_a_pick_that_is_not_cached_offline_gets_one_sentence",
    "test_side_by_side_with_three_tokenizers_and_their_counts",
    "test_merge_tree_of_a_3000_merge_token_does_not_recurse",
    "test_long_word_buckets_merge_in_the_same_order_as_one_heap",
    "test_a_hundred_thousand_row_word_count_table_trains",
    "test_every_preset_reproduces_its_merges",
    "test_a_long_word_is_encoded_in_n_log_n",
    "test_long_words_rows_and_chips_are_not_kept_past_what_the_run_store_counts",
    "test_the_whitespace_pre_tokenizer_splits_as_tokenizers_over_every_code_point",
    "test_clean_text_drops_what_tokenizers_drops_over_every_code_point",
    # Each of these takes seconds (a reader or checker process per case, a large corpus, a real Redis filled
    # to its limit); the fast subset keeps a quicker test of the same page or module.
    "test_a_merge_loop_fault_is_named_with_its_step",
    "test_a_setting_fault_is_named_before_any_tie_or_count",
    "test_repeats_beyond_the_base_text",
    "test_size_is_within_bounds",
    "test_a_run_of_thousands_of_merges_writes_its_numbers_with_separators",
    "test_too_large_corpus_is_refused_with_the_limit",
    "test_malformed_forced_merges_are_named_not_a_traceback",
    "test_a_vocabulary_that_fits_the_screen_gets_no_strip",
    "test_the_encode_page_shows_token_markdown_as_text",
    "test_bad_file_shows_an_error_and_keeps_the_previous_tokenizer",
    "test_bad_first_file_says_no_tokenizer_is_loaded",
    "test_uploaded_vocab_and_merges_cut_like_the_tokenizers_library",
    "test_a_character_level_vocab_read_byte_level_is_pointed_out",
    "test_a_second_tokenizer_json_replaces_the_first",
    "test_file_saved_by_bpe_round_trips",
    "test_vocab_and_merges_added_beside_a_tokenizer_json_are_used_and_the_box_shows_only_for_them",
    "test_text_outside_a_vocabulary_without_unk_is_cut_as_tokenizers_cuts_it",
    "test_side_by_side_with_the_uploaded_tokenizer",
    "test_the_check_page_takes_a_text_file_and_links_to_the_same_corpus_on_the_train_page",
    "test_a_long_pasted_check_corpus_travels_in_the_link_by_its_digest",
    "test_the_check_page_refuses_a_file_with_its_sentence_only",
    "test_the_check_page_says_same_for_a_correct_cs336_run_on_pasted_code",
    "test_tokenizers_library_agrees_with_our_file",
    "test_redis_evicts_others_before_a_pinned_corpus",
    "test_a_text_link_stores_its_corpus_within_the_same_quota",
    "test_130_pastes_from_one_client_do_not_evict_the_teachers_corpus",
    "test_a_failed_run_keeps_neither_its_settings_nor_its_text",
}


def pytest_collection_modifyitems(config, items):
    for item in items:
        module = item.path.stem
        if item.get_closest_marker("browser") or module in SLOW_MODULES or item.originalname in SLOW_TESTS:
            item.add_marker(pytest.mark.slow)


def _git_status() -> list[str] | None:
    """``git status --porcelain`` of the checkout, or None when it is not a git checkout."""
    try:
        proc = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=all"],
            cwd=REPO_ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if proc.returncode != 0:
        return None
    lines = proc.stdout.splitlines()
    if UPDATE_SCREENSHOTS:  # asked for: the README's screenshots are rewritten
        lines = [line for line in lines if not (line[3:].startswith("docs/") and line.endswith(".png"))]
    return lines


@pytest.fixture(scope="session", autouse=True)
def checkout_stays_clean():
    """Tests never modify the checkout: they write under tmp_path, never into tracked (or untracked) files."""
    before = _git_status()
    yield
    if before is None:
        return
    after = _git_status()
    if after != before:
        changed = sorted(set(after or []) ^ set(before))
        pytest.fail(f"the tests changed the checkout (git status --porcelain): {changed}", pytrace=False)


@pytest.fixture(scope="session", autouse=True)
def corpus_store_dir(tmp_path_factory):
    """Pasted corpora go to a temporary corpus store (server/corpus_store.py), for the pages tested in this
    process and for every server a test starts (they inherit the environment), never the user's own."""
    from server import corpus_store

    os.environ["BPE_DATA_DIR"] = str(tmp_path_factory.mktemp("corpus-store"))
    # The tests paste from many sessions that Streamlit's AppTest gives one id: no per-client quota here,
    # except where a test sets its own (tests/server/test_store_quota.py).
    os.environ.setdefault("BPE_STORE_QUOTA_COUNT", str(10**9))
    os.environ.setdefault("BPE_STORE_QUOTA_CHARS", str(10**15))
    os.environ.setdefault(
        "BPE_PASTE_QUOTA_COUNT", str(10**9)
    )  # nor a budget of pastes (tests/pages/test_paste_budget.py)
    os.environ.setdefault("BPE_PASTE_QUOTA_CHARS", str(10**15))
    os.environ.pop("BPE_REDIS_URL", None)
    corpus_store.use(None)
    yield Path(os.environ["BPE_DATA_DIR"])


@pytest.fixture(scope="module", autouse=True)
def main_module_restored():
    """Streamlit's script runner (AppTest) leaves the page script as the process's ``__main__``, and a process pool
    started after that spawns workers that run the app first; each module gets the test run's own ``__main__`` back,
    so a module's tests pass whichever modules ran before it in the same process (as under pytest-xdist)."""
    main = sys.modules["__main__"]
    yield
    sys.modules["__main__"] = main


@pytest.fixture(scope="session")
def screenshot_dir(tmp_path_factory) -> Path:
    """Where browser tests save screenshots: docs/ (the README's images) when UPDATE_SCREENSHOTS=1 is set,
    else a temporary folder, so a test run leaves the tracked images alone."""
    if UPDATE_SCREENSHOTS:
        return REPO_ROOT / "docs"
    return tmp_path_factory.mktemp("screenshots")


@pytest.fixture(scope="session")
def app_server():
    server = AppServer()
    try:
        yield server.start()
    finally:
        server.stop()


class QuietBrowser:
    """The browser, whose new contexts and pages prefer reduced motion (``reduced_motion="reduce"``) unless the
    caller says otherwise. Streamlit's own animations (the skeletons' pulse while a page loads, elements fading in)
    then stand still: the app has none of its own, and each page load costs chromium about 3 CPU-seconds less
    (its compositor draws no animation frames), on a 2-core machine where the server needs that CPU."""

    def __init__(self, browser):
        self._browser = browser

    def __getattr__(self, name):
        return getattr(self._browser, name)

    def new_context(self, **options):
        options.setdefault("reduced_motion", "reduce")
        return self._browser.new_context(**options)

    def new_page(self, **options):
        options.setdefault("reduced_motion", "reduce")
        return self._browser.new_page(**options)


@pytest.fixture(scope="session")
def browser():
    path = chromium_path()
    if not Path(path).exists():
        msg = (
            f"chromium not found at {path} (install Debian's chromium-headless-shell: "
            "`apt-get install chromium-headless-shell`, or run scripts/test.sh; override with BPE_CHROMIUM)"
        )
        if os.environ.get("CI") == "true":
            pytest.fail(msg + " -- browser tests must not skip in CI", pytrace=False)
        pytest.skip(msg)

    from playwright.sync_api import sync_playwright

    pw = sync_playwright().start()
    try:
        b = pw.chromium.launch(executable_path=path, args=CHROMIUM_ARGS, headless=True)
        try:
            yield QuietBrowser(b)
        finally:
            b.close()
    finally:
        pw.stop()


@pytest.fixture(scope="module")
def hug_step_2(app_server, browser):
    """One page per module on the hug preset at step 2, for the tests that start there (a page load less each):
    each leaves it as it found it, moves it to its own step first, or checks only what its own clicks change."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        open_train(page, f"{app_server}/?preset=hug&step=2")
        yield page
    finally:
        context.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        yield context.new_page()
    finally:
        context.close()


def haproxy_path() -> str | None:
    """Debian's haproxy, if installed."""
    return shutil.which("haproxy") or ("/usr/sbin/haproxy" if Path("/usr/sbin/haproxy").exists() else None)


@pytest.fixture(scope="module")
def replicas():
    """(url, run_dir) of two Streamlit replicas behind HAProxy with their Redis (scripts/serve-replicas.sh), shared
    by a module's tests; each replica's and Redis's pid file is in run_dir, for a test that kills one (the module's
    last, since nothing restarts a replica)."""
    if haproxy_path() is None:
        msg = "haproxy not installed (scripts/test.sh installs Debian's haproxy)"
        if os.environ.get("CI") == "true":
            pytest.fail(msg + " -- replica tests must not skip in CI", pytrace=False)
        pytest.skip(msg)
    run_dir = Path(tempfile.mkdtemp(prefix="bpe-replicas-"))
    port, r1, r2 = free_port(), free_port(), free_port()
    env = {**os.environ, "PORT": str(port), "BIND": "127.0.0.1", "REPLICA_PORTS": f"{r1} {r2}", "RUN_DIR": str(run_dir)}
    # scripts/test.sh has installed requirements-dev.txt (requirements.txt and more); small runs, one worker each
    env |= {"VENV_READY": "1", **ONE_WORKER}
    log = open(run_dir / "script.log", "w")
    proc = subprocess.Popen(
        ["bash", "scripts/serve-replicas.sh"],
        cwd=REPO_ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"

    def up() -> bool:
        assert proc.poll() is None, (run_dir / "script.log").read_text()
        return healthy(url)

    try:
        wait_until(up, 90, lambda: f"HAProxy and two replicas at {url}:\n{(run_dir / 'script.log').read_text()}")
        yield url, run_dir
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        log.close()
        shutil.rmtree(run_dir, ignore_errors=True)
