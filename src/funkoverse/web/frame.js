// The board's frame. On a desktop the board fits the height of the window and the frame
// does nothing. On a phone a map of ten squares or more cannot fit the width with squares
// a finger can hit (44 px), so the board is drawn with larger squares and pans sideways
// inside the frame: the row numbers stay on its left edge, an edge fades where more of the
// board is hidden, and the frame follows what is being decided (the choice pointed at, the
// character selected or taking its turn) unless a finger has just panned it.

import { html, useEffect, useRef } from "./vendor/htm-preact.module.js";
import { M } from "./board.js";

const FOLLOW_AFTER_MS = 2500; // a finger panning the board is not fought for this long

export function BoardFrame({ map, focus, children }) {
  const frame = useRef(null);
  const scroller = useRef(null);
  const touched = useRef(0);
  const seen = useRef(false);
  const cols = map ? map.width + 2 * M : 10 + 2 * M;
  const rows = map ? map.height + 2 * M : 10 + 2 * M;

  // the edges that hide more of the board
  useEffect(() => {
    const el = scroller.current;
    if (!el) return undefined;
    const edges = () => {
      frame.current.classList.toggle("more-left", el.scrollLeft > 2);
      frame.current.classList.toggle("more-right", el.scrollLeft + el.clientWidth < el.scrollWidth - 2);
    };
    edges();
    el.addEventListener("scroll", edges, { passive: true });
    window.addEventListener("resize", edges);
    return () => { el.removeEventListener("scroll", edges); window.removeEventListener("resize", edges); };
  });

  // follow the decision
  useEffect(() => {
    const el = scroller.current;
    if (!el || focus === null || focus === undefined) return;
    if (el.scrollWidth <= el.clientWidth + 1) return;
    if (Date.now() - touched.current < FOLLOW_AFTER_MS) return;
    const x = ((M + focus + 0.5) / cols) * el.scrollWidth;
    const left = el.scrollLeft;
    const width = el.clientWidth;
    if (seen.current && x > left + 0.2 * width && x < left + 0.8 * width) return;
    el.scrollTo({ left: x - width / 2, behavior: seen.current ? "smooth" : "auto" });
    seen.current = true;
  }, [focus, cols, map && map.id]);

  const hand = () => { touched.current = Date.now(); };
  const numbers = [];
  if (map) {
    for (let y = 0; y < map.height; y++) {
      numbers.push(html`<text class="coord" x=${M - 0.12} y=${M + y + 0.58} text-anchor="end">${y + 1}</text>`);
    }
  }
  return html`<div class="frame" ref=${frame} style=${`--cols:${cols};--rows:${rows}`}>
    <div class="scroller" ref=${scroller} onTouchStart=${hand} onWheel=${hand}>${children}</div>
    <svg class="rows" viewBox=${`0 0 ${M} ${rows}`} preserveAspectRatio="xMinYMin meet" aria-hidden="true">${numbers}</svg>
  </div>`;
}
