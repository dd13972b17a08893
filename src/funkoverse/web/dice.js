// A challenge's roll in one row: the challenger's piece and dice, what counted, the
// defender's. It sits in the header (on a phone, over it), never on the board: the dice
// tumble for ROLLING_MS, then show their faces, each that scored marked (the roll says
// what each face scored), and fade out by themselves.

import { html, useEffect, useState } from "./vendor/htm-preact.module.js";
import { sideColor } from "./api.js";
import { inkOn } from "./board.js";
import { ROLLING_MS } from "./pacing.js";

// The dice faces drawn, not written: a burst, a shield, !!!, or nothing.
function Face({ face }) {
  if (face === "burst") return html`<svg viewBox="-10 -10 20 20" width="22" height="22" role="img" aria-label="burst"><polygon fill="#d13a2f"
    points="0,-9 2.2,-3.6 7.8,-4.5 4,-0.4 7.8,4.5 2.2,3.6 0,9 -2.2,3.6 -7.8,4.5 -4,0.4 -7.8,-4.5 -2.2,-3.6" /></svg>`;
  if (face === "shield") return html`<svg viewBox="-10 -10 20 20" width="22" height="22" role="img" aria-label="shield"><path fill="#2b5fb4"
    d="M 0 -8.5 L 7 -5.5 C 7 2 4 6 0 8.5 C -4 6 -7 2 -7 -5.5 Z" /></svg>`;
  if (face === "triple_exclamation") return html`<span aria-label="!!!">!!!</span>`;
  return html`<span aria-label="blank"></span>`;
}

export function Dice({ event, who, onFaces }) {
  const [rolling, setRolling] = useState(true);
  useEffect(() => {
    setRolling(true);
    const t = setTimeout(() => setRolling(false), ROLLING_MS);
    return () => clearTimeout(t);
  }, [event]);
  // the faces are on screen: the pacing holds the step while they are read
  useEffect(() => {
    if (!rolling && onFaces) onFaces(event.entry);
  }, [rolling]);
  const counted = event.counted || { attack: [], defense: [] };
  const row = (faces, scores) => faces.map((f, i) => html`<span class=${"die" + (rolling ? " rolling" : scores[i] ? " counts" : "")}>${rolling ? "·" : html`<${Face} face=${f} />`}</span>`);
  const piece = (id) => {
    const c = who(id);
    return html`<span class="mini-piece" style=${`background:${sideColor(c.side)};color:${inkOn(sideColor(c.side))}`} aria-hidden="true">${c.label}</span>`;
  };
  const a = who(event.piece);
  const d = who(event.other);
  const said = rolling ? `${a.name} challenges ${d.name}` : `${a.name} ${event.number} against ${d.name} ${event.total}`;
  return html`<div class=${"dice" + (rolling ? " is-rolling" : "")} role="status" aria-label=${said} data-entry=${event.entry} data-side=${a.side} key=${event.entry}>
    ${piece(event.piece)}<span class="name">${a.name}</span>
    <span class="row">${row(event.attack, counted.attack)}</span>
    <b class="n">${rolling ? "" : event.number}</b><span class="vs">vs</span><b class="n">${rolling ? "" : event.total}</b>
    <span class="row">${row(event.defense, counted.defense)}</span>
    <span class="name">${d.name}</span>${piece(event.other)}
  </div>`;
}
