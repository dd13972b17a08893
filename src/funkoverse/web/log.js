// The log: what happened, newest first, in the server's words. A line shows where it
// happened on the board when pointed at; its rule is one tap away (the rulebook's text);
// lines an undo took back are struck through.

import { html } from "./vendor/htm-preact.module.js";
import { squareOf } from "./marks.js";

const SHOWN = 200; // lines drawn; the rest of a long game is in its replay

export function whereOf(state, e) {
  return e.square || (e.piece && squareOf(state, e.piece)) || (e.other && squareOf(state, e.other)) || null;
}

export function Log({ log, state, spot, setSpot, onRule, undone }) {
  const lines = [...log].reverse().slice(0, SHOWN);
  return html`<section class="panel log" aria-label="the log">
    <h2 class="visually-hidden">The log</h2>
    <ol>${lines.map((e) => {
      const where = whereOf(state, e);
      const off = e.undone || (undone && undone.has(e.entry));
      const cls = (off ? "undone " : "") + (e.weighty ? "big" : "") + (spot && spot === where ? " spot" : "");
      return html`<li class=${cls} data-entry=${e.entry}
          onMouseEnter=${() => setSpot(where)} onMouseLeave=${() => setSpot(null)} onClick=${() => setSpot((x) => (x === where ? null : where))}>
        <span>${off ? html`<span class="visually-hidden">taken back: </span>` : null}${e.text}</span>
        ${e.rule ? html`<button class="rule" onClick=${(ev) => { ev.stopPropagation(); onRule(e.rule); }} aria-label=${`the rule: ${e.rule}`} title=${e.rule}>rule</button>` : null}</li>`;
    })}</ol></section>`;
}
