// The "Copy link" button of presenter mode's Share popover (ui/share.py): one delegated listener,
// installed once, copies the button's data-link. The Clipboard API needs a secure context (https or
// localhost); on a plain-http classroom server the link is copied from a hidden text area instead.
(() => {
  if (window.__bpeShare) return;
  window.__bpeShare = true;
  const fallback = (text) => {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.cssText = 'position:fixed;left:-9999px;top:0';
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  };
  document.addEventListener('click', async (e) => {
    const button = e.target.closest && e.target.closest('button.bpe-copy');
    if (!button) return;
    const link = button.getAttribute('data-link');
    let ok = false;
    try {
      if (navigator.clipboard && window.isSecureContext) {
        await navigator.clipboard.writeText(link);
        ok = true;
      }
    } catch (err) { ok = false; }
    if (!ok) ok = fallback(link);
    button.textContent = ok ? 'Copied ✓' : 'Select the link above and copy it';
    setTimeout(() => { button.textContent = 'Copy link'; }, 2500);
  });
})();
