// Hovering a token chip marks the characters it stands for in the text shown under the chips
// (pages/encode.py sends it, ui/assets.py HOVER_JS; it installs itself once).
//
// Each chip of the Encode page carries its characters' span as data-s and data-e, in UTF-16 units
// (bpe.display.chip), the units of a JavaScript string; the page's one .bpe-source-text block holds
// the text. The mark is built with textContent and a <mark> element, so the user's text is never
// parsed as HTML. Leaving the chip puts the plain text back. A chip marks the text block of its own
// HTML block when it has one (each side-by-side column has its copy, beside its chips), else the
// page's first one (they all cut the same text); the block scrolls itself, never the page, to show
// the mark.
(() => {
  if (window.__bpeHover) return;
  window.__bpeHover = true;
  const plain = new WeakMap();  // each text block's own text, read before the first mark
  const source = (chip) => {
    const block = chip && chip.closest('[data-testid="stHtml"]');
    return (block && block.querySelector('.bpe-source-text')) || document.querySelector('.bpe-source-text');
  };
  let marked = null;  // the text block holding the mark
  const chipOf = (node) => (node && node.closest ? node.closest('.tok[data-s]') : null);
  const restore = () => {
    if (marked && plain.has(marked)) marked.textContent = plain.get(marked);
    marked = null;
  };
  document.addEventListener('mouseover', (event) => {
    const chip = chipOf(event.target);
    const src = chip && source(chip);
    if (!chip || !src) return;
    if (marked && marked !== src) restore();
    if (!plain.has(src)) plain.set(src, src.textContent);
    const text = plain.get(src);
    const start = Number(chip.dataset.s);
    const end = Number(chip.dataset.e);
    const mark = document.createElement('mark');
    mark.className = 'bpe-hl';
    mark.textContent = text.slice(start, end);
    src.replaceChildren(text.slice(0, start), mark, text.slice(end));
    marked = src;
    const box = src.getBoundingClientRect();
    const at = mark.getBoundingClientRect();
    if (at.top < box.top || at.bottom > box.bottom) src.scrollTop += at.top - box.top - box.height / 3;
  });
  document.addEventListener('mouseout', (event) => {
    const chip = chipOf(event.target);
    if (chip && chipOf(event.relatedTarget) !== chip) restore();
  });
})();
