// Keyboard stepping on the Train page: one listener on the page, for presenter remotes and keyboards.
// pages/train.py sends it (ui/assets.py KEYS_JS) on every full run; it installs itself once.
//
// Right, PageDown, Space and n step forward; Left, PageUp and p back; Home and End jump to the first and
// last step: wherever the focus is, but never while the user types in a text field (or a table cell, or
// an open select box). In the step slider the arrows, Home and End keep their own meaning (the same
// steps); PageDown and PageUp, which a range input reverses natively, and n, p and Space step like
// everywhere else. Space always steps forward, on a step button too: after a click on Back the focus
// stays on it, and a browser's Space would press it again (stepping backwards). The listener runs in
// the capture phase, before the slider or a button sees the key, and its keyup is swallowed too, since
// a button is pressed on Space's keyup. Only on another control Space activates (a toggle, a checkbox,
// a button that is not a step button) does Space keep its own meaning, so the page stays usable from
// the keyboard.
// When a step button the user had focused becomes disabled (Next at the last step), the focus moves
// to the step slider instead of dropping to the page body. A polite live region (#bpe-live) reads out
// each step for screen readers ("Step 3 of 7: h + ug → hug, count 15").
//
// Tried first: st.button(..., shortcut=...) (Streamlit 1.67). It works for one key per button and
// ignores text fields, but Next needs four keys, nothing fires while the slider has focus (PageDown then
// steps backwards), and it cannot keep the focus; so the page sends this small script once instead.
(() => {
  if (window.__bpeKeys) return;
  window.__bpeKeys = true;
  const ACTIONS = {PageDown: 'next', ' ': 'next', n: 'next', N: 'next', ArrowRight: 'next',
                   PageUp: 'back', p: 'back', P: 'back', ArrowLeft: 'back', Home: 'start', End: 'end'};
  const STEP_KEYS = ['start', 'back', 'next', 'end', 'step'];
  const typing = (t) => t && (t.isContentEditable || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT'
    || (t.tagName === 'INPUT' && !['range', 'checkbox', 'radio', 'button'].includes(t.type))
    || (t.closest && t.closest('[role="listbox"], [role="combobox"], [role="grid"], [data-testid="stDataFrame"]')));
  // Controls Space activates natively (a toggle, a checkbox, a button that is not a step button).
  const activatedBySpace = (t) => t.tagName === 'BUTTON' || t.tagName === 'SUMMARY'
    || (t.tagName === 'INPUT' && ['checkbox', 'radio', 'button'].includes(t.type))
    || (t.getAttribute && ['switch', 'button', 'checkbox'].includes(t.getAttribute('role')));
  document.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
    const action = ACTIONS[e.key];
    const t = e.target;
    if (!action || typing(t)) return;
    const slider = t && (t.type === 'range' || (t.getAttribute && t.getAttribute('role') === 'slider'));
    if (slider && (e.key.startsWith('Arrow') || e.key === 'Home' || e.key === 'End')) return;  // its own keys
    // An answered prediction (ui/explore.py): its radio keeps the focus, but the guess is made, so the
    // keys step as everywhere else; before the answer the arrows choose among the pairs.
    const answered = t && t.type === 'radio' && t.closest && t.closest('[class*="st-key-guess_"]')
      && t.closest('[role="radiogroup"]') && t.closest('[role="radiogroup"]').querySelector('input:checked');
    if (t && t.type === 'radio' && e.key.startsWith('Arrow') && !answered) return;  // arrows choose a radio
    const onStepControl = t && t.closest && t.closest(STEP_KEYS.map(k => '.st-key-' + k).join(','));
    if (e.key === ' ' && !onStepControl && !answered && t && t !== document.body && t.getAttribute
        && activatedBySpace(t)) return;
    const button = document.querySelector('.st-key-' + action + ' button');
    if (!button) {  // another page, or the Train page before its step buttons are drawn: kept for a moment
      if (!seenSteps) pending = {action, at: performance.now()};
      return;
    }
    e.preventDefault();
    e.stopPropagation();
    if (e.key === ' ') swallowSpaceUp = true;
    if (!ready()) { pending = {action, at: performance.now()}; return; }  // still loading: pressed once ready
    if (!button.disabled) button.click();
  }, true);
  // A key that comes before the step buttons are drawn (this script runs before they are), while the page's
  // first run is still going (a fragment's rerun asked for then can be dropped), or while restore.js keeps the
  // controls waiting after a restart, is kept (the last one) and pressed once the page is ready: the first key
  // after a load is never lost. Before the buttons it keeps its default too (a page that stops before its step
  // view, on an error, still scrolls).
  let pending = null, seenSteps = false;
  const waiting = () => document.body.classList.contains('bpe-waiting');
  const idle = () => {
    const app = document.querySelector('[data-testid="stApp"]');
    return !!app && app.getAttribute('data-test-script-state') === 'notRunning';
  };
  const ready = () => !waiting() && (seenSteps || idle());
  const PENDING_MS = 10000;  // a key older than this when the page is ready is dropped, not pressed late
  const replay = () => {
    if (!document.querySelector('.st-key-next button') || !ready()) return;
    seenSteps = true;
    if (!pending) return;
    const {action, at} = pending;
    pending = null;
    const own = document.querySelector('.st-key-' + action + ' button');
    if (own && !own.disabled && performance.now() - at < PENDING_MS) own.click();
  };
  // A button is pressed on Space's keyup: once the keydown stepped, its keyup must not press the focused one.
  let swallowSpaceUp = false;
  document.addEventListener('keyup', (e) => {
    if (e.key !== ' ' || !swallowSpaceUp) return;
    swallowSpaceUp = false;
    e.preventDefault();
    e.stopPropagation();
  }, true);
  // Keep the focus on the step controls when the one focused becomes disabled or is redrawn.
  let last = null;
  document.addEventListener('focusin', (e) => {
    const holder = e.target.closest && e.target.closest(STEP_KEYS.map(k => '.st-key-' + k).join(','));
    last = holder ? [...holder.classList].find(c => c.startsWith('st-key-')) : null;
  });
  const refocus = () => {
    if (!last || (document.activeElement && document.activeElement !== document.body)) return;
    const own = document.querySelector('.' + last + ' button:not([disabled])');
    const target = own || document.querySelector('.st-key-step input[type="range"]')
      || document.querySelector('.st-key-back button:not([disabled])');
    if (target) target.focus({preventScroll: true});
  };
  // A polite live region, made once and kept, reads out each new step (its text comes from the step
  // title's data-announce): Streamlit redraws the step box, and a region redrawn with it is not read.
  const live = document.createElement('div');
  live.id = 'bpe-live';
  live.setAttribute('aria-live', 'polite');
  live.setAttribute('role', 'status');
  live.style.cssText = 'position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap';
  document.body.appendChild(live);
  const announce = () => {
    const title = document.querySelector('[data-announce]');
    const text = title ? title.getAttribute('data-announce') : '';
    if (text && live.textContent !== text) live.textContent = text;
  };
  new MutationObserver(() => { refocus(); announce(); if (pending || !seenSteps) replay(); }).observe(document.body, {
    subtree: true, childList: true, attributes: true,
    attributeFilter: ['disabled', 'data-announce', 'data-test-script-state', 'class']});
  announce();
})();
