// Typed text that survives a server restart, and the app's own sentence while the server is away.
// app.py sends it (ui/assets.py RESTORE_JS) on every full run; it installs itself once. Its only
// inputs from Python are window.bpeRestoreConfig (the banner's sentence and the corpus limit), set by
// ui/assets.py just before it; values only travel through this browser's localStorage.
//
// - It saves the pasted-corpus box (corpus_text) and the Encode box (encode_text) as the user types
//   (and the corpus box whenever it shows text, so an uploaded file's text is kept too).
// - A corpus normally lives in the server's corpus store and the URL names it (corpus=<digest>); this is
//   for a corpus the store could not keep (down or full), which the URL marks corpus=text.
//   After a restart the new server session knows only the URL. When the page says corpus=text and the
//   session holds no corpus (no summary, an empty box), the script fills it from localStorage (only under a link with the same
//   settings as when the text was saved, so another corpus=text link still asks for its own text); when
//   the page reconnects, it puts the Encode box's saved text back. It fills a box the way a user would for
//   Streamlit's React-controlled textarea (the native value setter, an input event, then focusout so
//   Streamlit commits it as on blur).
// - Clearing a box, or choosing another corpus source (seen on the Train page's source radio), forgets
//   the saved text. If the browser refuses a big value (a 5 MB corpus may not fit), nothing is saved and
//   the page keeps saying "paste or upload it again".
// - After a restart the new server knows none of the page's fragments until it has run the whole page,
//   and Streamlit 1.67 drops a fragment's rerun before that (AppSession.request_rerun: "The fragment ...
//   does not exist anymore"): a click on Next, Back, Start, End or the step slider (pages/train.py's step
//   view; a following student's hidden button, ui/classroom.py) would be lost. Its frontend asks for that
//   run after a reconnect only when the last run was a fragment's, so from the moment the page goes
//   offline until a whole run on the new server has drawn the step view (pages/train.py's mark --bpe-run
//   changes), the step controls wait, dimmed
//   (body.bpe-waiting, ui/style.css; ui/keys.js too), and once connected the script asks for that
//   run with Streamlit's own rerun key, R, if none has started 2 s after reconnecting (again every few
//   seconds while the page stays idle without it).
// - While Streamlit's connection status shows (the websocket is down), a banner says what is happening in
//   the app's words; it goes when the page reconnects. Streamlit's own dialog is left alone.
(() => {
  if (window.__bpeRestore) return;
  window.__bpeRestore = true;
  const CONFIG = window.bpeRestoreConfig;  // set just before this script by ui/assets.py
  const BOXES = {corpus_text: 'bpe-explorer:corpus_text', encode_text: 'bpe-explorer:encode_text'};
  const MAX_CHARS = CONFIG.maxChars;  // the longest text kept here (server/limits.py BROWSER_SAVE_CHARS)
  const store = {
    get: (k) => { try { return window.localStorage.getItem(k) || ''; } catch (e) { return ''; } },
    set: (k, v) => {
      try {
        if (!v || v.length > MAX_CHARS) { window.localStorage.removeItem(k); return; }
        window.localStorage.setItem(k, v);
      } catch (e) {  // full or refused: keep nothing rather than an older text
        try { window.localStorage.removeItem(k); } catch (e2) {}
      }
    },
  };
  const box = (key) => document.querySelector('.st-key-' + key + ' textarea');
  const keyOf = (el) => {
    for (const key of Object.keys(BOXES)) if (el && el.closest && el.closest('.st-key-' + key)) return key;
    return null;
  };
  const idle = () => {
    const app = document.querySelector('[data-testid="stApp"]');
    return app && app.getAttribute('data-test-script-state') === 'notRunning';
  };
  const offline = () => !!document.querySelector('[data-testid="stConnectionStatus"]');
  const urlSaysText = () => new URLSearchParams(window.location.search).get('corpus') === 'text';
  // The link's settings (all but the step) when the corpus was saved: another corpus=text link, say a
  // teacher's with other settings, asks for its own text instead of getting this browser's last paste.
  const LINK = 'bpe-explorer:corpus_link';
  const linkTag = () => {
    const q = new URLSearchParams(window.location.search);
    q.delete('step');
    q.sort();
    return q.toString();
  };

  // -- saving ---------------------------------------------------------------------------------------------
  const timers = {};
  document.addEventListener('input', (e) => {
    const key = keyOf(e.target);
    if (!key || e.target.tagName !== 'TEXTAREA') return;
    const value = e.target.value;
    clearTimeout(timers[key]);
    if (!value) { store.set(BOXES[key], ''); return; }  // cleared on purpose: forget it now
    // a save still waiting when the user picks another corpus source must not bring the text back
    timers[key] = setTimeout(() => { if (key !== 'corpus_text' || textSource()) store.set(BOXES[key], value); }, 300);
  }, true);
  // Whether the Train page's corpus source is pasted or uploaded text (true where the radio is not shown).
  const textSource = () => {
    const source = document.querySelector('.st-key-source input:checked');
    const label = source && source.closest('label');
    return !label || /paste|upload/i.test(label.innerText || '');
  };
  // Choosing another corpus source forgets the pasted text at once (the watcher below also catches it).
  const forgetUnlessText = () => { if (!textSource()) store.set(BOXES.corpus_text, ''); };
  document.addEventListener('change', (e) => {
    if (e.target && e.target.closest && e.target.closest('.st-key-source')) forgetUnlessText();
  }, true);
  // -- filling a box as a user would ----------------------------------------------------------------------
  const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set;
  const fill = (el, value) => {
    setter.call(el, value);
    el.dispatchEvent(new Event('input', {bubbles: true}));
    el.dispatchEvent(new FocusEvent('focusout', {bubbles: true}));  // Streamlit commits on blur
    el.dispatchEvent(new FocusEvent('blur'));
  };

  // -- the banner -----------------------------------------------------------------------------------------
  const BANNER_TEXT = CONFIG.banner;
  let banner = null;
  const showBanner = (on) => {
    if (on && !banner) {
      banner = document.createElement('div');
      banner.id = 'bpe-restart';
      banner.setAttribute('role', 'status');
      banner.textContent = BANNER_TEXT;
      banner.style.cssText = 'position:fixed;top:3.75rem;left:50%;transform:translateX(-50%);z-index:1000100;'
        + 'max-width:40rem;padding:10px 16px;border-radius:8px;background:#fff8e1;color:#3e2c00;'
        + 'border:1px solid #f0c36d;box-shadow:0 2px 8px rgba(0,0,0,.15);font:15px/1.4 sans-serif';
      document.body.appendChild(banner);
    } else if (!on && banner) {
      banner.remove();
      banner = null;
    }
  };

  // -- a new server's first whole run ---------------------------------------------------------------------
  const runMark = () => getComputedStyle(document.documentElement).getPropertyValue('--bpe-run').trim();
  // The mark when the page went offline; when it reconnected and when R was last pressed; whether a run
  // has started since (Streamlit's frontend asks for one itself after a step: a second request at the same
  // time would start two first runs on the fresh server).
  let markBefore = null, connectedAt = 0, askedAt = 0, runSeen = false;
  const waitForRun = () => {
    if (markBefore === null) return;
    if (!idle()) runSeen = true;
    const now = performance.now();
    if (runMark() !== markBefore) {
      markBefore = null;
      document.body.classList.remove('bpe-waiting');
    } else if (!runSeen && idle() && document.querySelector('.st-key-next, .st-key-class_sync') && now - connectedAt > 2000
               && now - askedAt > 3000) {
      askedAt = now;
      for (const type of ['keydown', 'keyup']) {  // Streamlit's rerun shortcut (the target is no text field)
        document.body.dispatchEvent(new KeyboardEvent(type, {key: 'r', code: 'KeyR', keyCode: 82, which: 82, bubbles: true}));
      }
    }
  };

  // -- watching -------------------------------------------------------------------------------------------
  let wasOffline = false, encodePending = false, corpusTried = '';
  const check = () => {
    const down = offline();
    showBanner(down);
    if (down) {
      if (markBefore === null) markBefore = runMark();
      document.body.classList.add('bpe-waiting');
      wasOffline = true;
      return;
    }
    if (wasOffline) {
      wasOffline = false; encodePending = true; corpusTried = '';
      connectedAt = performance.now(); askedAt = 0; runSeen = false;
    }
    waitForRun();
    if (!idle()) return;
    forgetUnlessText();  // another source
    const corpus = textSource() && box('corpus_text');  // the box lingers until the rerun removes it
    // The session holds a corpus (ui/corpus_box.py empties the box once it accepts a text and shows
    // this summary instead): under a corpus=text link it is the text saved here.
    const held = !!document.querySelector('[data-testid="bpe-corpus-summary"]');
    if (corpus) {
      const saved = store.get(BOXES.corpus_text);
      if (corpus.value || held) {
        if (urlSaysText() && corpus.value && corpus.value !== saved) store.set(BOXES.corpus_text, corpus.value);
        if (urlSaysText() && saved && store.get(LINK) !== linkTag()) store.set(LINK, linkTag());
      } else if (urlSaysText() && saved && corpusTried !== saved && store.get(LINK) === linkTag()) {
        corpusTried = saved;  // once per saved text: a refusal must not loop
        fill(corpus, saved);
      }
    }
    const encode = box('encode_text');
    if (encode && encodePending) {
      encodePending = false;
      const saved = store.get(BOXES.encode_text);
      if (saved && encode.value !== saved) fill(encode, saved);
    }
  };
  let queued = false;
  new MutationObserver(() => {
    if (queued) return;
    queued = true;
    setTimeout(() => { queued = false; check(); }, 150);
  }).observe(document.body, {subtree: true, childList: true, attributes: true,
                             attributeFilter: ['data-test-script-state', 'data-testid']});
  setInterval(check, 1000);
  check();
})();
