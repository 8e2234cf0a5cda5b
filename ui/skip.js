// "Skip to the step controls": the Train page's first link in its main column, hidden until it has the
// keyboard focus. From the top of the page it is two Tab presses (Streamlit's own "Skip to main content",
// then this) instead of thirty past the sidebar's settings and the toggles. Enter moves the focus to the
// first step button that can be pressed (Next at step 0), or to the step slider when none can.
// pages/train.py sends it (ui/assets.py SKIP_JS) on every full run; the listener installs itself once.
(() => {
  if (window.__bpeSkip) return;
  window.__bpeSkip = true;
  document.addEventListener('click', (e) => {
    const link = e.target.closest && e.target.closest('a.bpe-skip');
    if (!link) return;
    e.preventDefault();
    const buttons = ['next', 'back', 'start', 'end']
      .map((key) => document.querySelector(`.st-key-${key} button`))
      .filter((b) => b && !b.disabled);
    const target = buttons[0] || document.querySelector('.st-key-step [role="slider"]');
    if (target) {
      target.focus();
      target.scrollIntoView({block: 'nearest'});
    }
  });
})();
