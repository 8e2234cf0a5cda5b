// Hovering a token chip marks the characters it stands for in the text shown under the chips
// (pages/encode.py sends it, pages/assets.py HOVER_JS; it installs itself once).
//
// Each chip of the Encode page carries its characters' span as data-s and data-e, in UTF-16 units
// (bpe.display.chip), the units of a JavaScript string; the page's one .bpe-source-text block holds
// the text. The mark is built with textContent and a <mark> element, so the user's text is never
// parsed as HTML. Leaving the chip puts the plain text back. Works for every chip with a span on the
// page, the side-by-side ones too: they all cut the same text.
(() => {
  if (window.__bpeHover) return;
  window.__bpeHover = true;
  const plain = new WeakMap();  // each text block's own text, read before the first mark
  const source = () => document.querySelector('.bpe-source-text');
  const chipOf = (node) => (node && node.closest ? node.closest('.tok[data-s]') : null);
  const restore = () => {
    const src = source();
    if (src && plain.has(src)) src.textContent = plain.get(src);
  };
  document.addEventListener('mouseover', (event) => {
    const chip = chipOf(event.target);
    const src = source();
    if (!chip || !src) return;
    if (!plain.has(src)) plain.set(src, src.textContent);
    const text = plain.get(src);
    const start = Number(chip.dataset.s);
    const end = Number(chip.dataset.e);
    const mark = document.createElement('mark');
    mark.className = 'bpe-hl';
    mark.textContent = text.slice(start, end);
    src.replaceChildren(text.slice(0, start), mark, text.slice(end));
  });
  document.addEventListener('mouseout', (event) => {
    const chip = chipOf(event.target);
    if (chip && chipOf(event.relatedTarget) !== chip) restore();
  });
})();
