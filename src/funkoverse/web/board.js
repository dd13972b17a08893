// The board in SVG, drawn from the map the server describes and the seat's view: squares
// with their coordinates, walls as walls, blocked and obscured squares, starting areas in
// their base colours, markers, tokens and characters. It holds no rule: what may be
// clicked comes from the legal choices the page was given.

import { html, useLayoutEffect, useRef } from "./vendor/htm-preact.module.js";
import { sideColor, pct } from "./api.js";

export const M = 0.45; // margin for the coordinates

export function columnIndex(letters) {
  let n = 0;
  for (const ch of letters) n = n * 26 + (ch.charCodeAt(0) - 96);
  return n - 1;
}

export function columnLetters(x) {
  let out = "";
  let n = x + 1;
  while (n) {
    const r = (n - 1) % 26;
    out = String.fromCharCode(97 + r) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

export function xy(label) {
  const m = /^([a-z]+)(\d+)$/.exec(label || "");
  if (!m) return null;
  return [columnIndex(m[1]), Number(m[2]) - 1];
}

export function shortName(name) {
  const base = name.replace(/\s*\(.*\)$/, "");
  const words = base.split(/\s+/).filter((w) => w.toLowerCase() !== "the");
  if (words.length >= 2 && words[1].toLowerCase() !== "of") return words[0][0].toUpperCase() + words[1][0].toLowerCase();
  const w = words[0] || base;
  return w[0].toUpperCase() + (w[1] || "").toLowerCase();
}

// Two or three letters a character, with a numeral when two share a name.
export function pieceLabels(characters) {
  const byName = {};
  for (const c of characters) {
    const base = c.name.replace(/\s*\(.*\)$/, "");
    (byName[base] = byName[base] || []).push(c.id);
  }
  const out = {};
  for (const c of characters) {
    const base = c.name.replace(/\s*\(.*\)$/, "");
    const same = byName[base];
    out[c.id] = shortName(c.name) + (same.length > 1 ? String(same.indexOf(c.id) + 1) : "");
  }
  return out;
}

// Text on a piece of `color`: dark ink on light colours, white on dark ones (contrast at least
// 4.5:1 either way).
export function inkOn(color) {
  const hex = (color || "#555").replace("#", "");
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  const lum = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return (lum + 0.05) / 0.0605 >= 1.05 / (lum + 0.05) ? "#211d1a" : "#fff";
}

// Keys that act on a focused square or piece as a tap does.
function pressed(e, act) {
  if (e.key === "Enter" || e.key === " ") { e.preventDefault(); act(); }
}

function Square({ x, y, fill, onClick, title, words }) {
  const cls = "sq" + (onClick ? " hit" : "");
  if (!onClick) {
    return html`<rect class=${cls} x=${M + x} y=${M + y} width="1" height="1" fill=${fill} data-square=${title} aria-hidden="true" />`;
  }
  return html`<rect class=${cls} x=${M + x} y=${M + y} width="1" height="1" fill=${fill} data-square=${title}
    role="button" tabindex="0" aria-label=${words ? `${title}: ${words}` : title} onClick=${onClick}
    onKeyDown=${(e) => pressed(e, onClick)}><title>${title}</title></rect>`;
}

function wallLine(map, a, b) {
  const [ax, ay] = xy(a);
  const [bx, by] = xy(b);
  if (ay === by) {
    const x = Math.max(ax, bx);
    return [M + x, M + ay, M + x, M + ay + 1];
  }
  const y = Math.max(ay, by);
  return [M + ax, M + y, M + ax + 1, M + y];
}

// Where each marker or token is drawn: in the middle of its square, or, under a character or
// beside another thing, small in a corner of it, so that nothing hides anything else.
const CORNERS = [[-0.27, 0.27], [0.27, 0.27], [-0.27, -0.27], [0.27, -0.27]];

function thingSpots(state) {
  const taken = {};
  for (const c of state.characters) if (c.square) taken[c.square] = 1;
  const spots = {};
  for (const t of state.things) {
    if (!t.square) continue;
    const n = taken[t.square] || 0;
    spots[t.id] = n ? { corner: CORNERS[(n - 1) % CORNERS.length], small: true } : { corner: [0, 0], small: false };
    taken[t.square] = n + 1;
  }
  // a thing alone in its square but followed by another: both go to corners
  for (const t of state.things) {
    const s = spots[t.id];
    if (s && !s.small && taken[t.square] > 1) spots[t.id] = { corner: CORNERS[CORNERS.length - 1], small: true };
  }
  return spots;
}

export function Board({ map, state, labels, marks, onSquare, onPiece, hover, rules, areas }) {
  if (!map || !state) return html`<svg class="board" viewBox="0 0 10 10" aria-hidden="true"></svg>`;
  const W = map.width;
  const H = map.height;
  const fillOf = {};
  for (const [side, squares] of Object.entries(areas || map.start_areas)) {
    const color = sideColor(side) + "33";
    for (const sq of squares) fillOf[sq] = color;
  }
  const blocked = new Set(map.blocked);
  const obscured = new Set(map.obscured);
  const moves = new Set(marks.moves || []);
  const sees = new Set(marks.sees || []);
  const clickable = new Set(marks.squares || []);
  const words = marks.squareWords || {};
  const squares = [];
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const label = columnLetters(x) + (y + 1);
      let fill = fillOf[label] || "#f6f1e7";
      if (blocked.has(label)) fill = "#8a8073";
      squares.push(
        html`<${Square} x=${x} y=${y} fill=${fill} title=${label} words=${words[label]}
          onClick=${clickable.has(label) ? () => onSquare(label) : undefined} />`
      );
    }
  }
  const overlays = [];
  for (const label of obscured) {
    const [x, y] = xy(label);
    overlays.push(html`<rect x=${M + x} y=${M + y} width="1" height="1" fill="url(#hatch)" pointer-events="none" />`);
  }
  for (const label of sees) {
    const [x, y] = xy(label);
    overlays.push(html`<rect class="hl-sees" x=${M + x} y=${M + y} width="1" height="1" />`);
  }
  const keeps = marks.keeps || {};
  for (const label of moves) {
    const [x, y] = xy(label);
    const kept = keeps[label];
    overlays.push(html`<rect class=${"hl-move" + (kept === false ? " no-target" : "")} x=${M + x + 0.08} y=${M + y + 0.08} width="0.84" height="0.84" rx="0.12" />`);
    if (kept) overlays.push(html`<circle class="keeps-target" cx=${M + x + 0.5} cy=${M + y + 0.5} r="0.12" />`);
  }
  if (hover && hover.square) {
    const p = xy(hover.square);
    if (p) overlays.push(html`<rect class="hot-square" x=${M + p[0] + 0.04} y=${M + p[1] + 0.04} width="0.92" height="0.92" rx="0.1" />`);
  }
  // the scenario's layers: control areas outlined, leader squares crowned
  const layers = [];
  const shown = rules || {};
  for (const [area, labelsOf] of Object.entries((shown.control && map.layers && map.layers.control) || {})) {
    for (const label of labelsOf) {
      const [x, y] = xy(label);
      layers.push(html`<rect x=${M + x + 0.05} y=${M + y + 0.05} width="0.9" height="0.9" fill="none" stroke="#7a6a52" stroke-width="0.03" stroke-dasharray="0.08 0.06" pointer-events="none" />`);
    }
    const [x, y] = xy(labelsOf[0]);
    layers.push(html`<text class="coord" x=${M + x + 0.12} y=${M + y + 0.28} pointer-events="none">area ${area}</text>`);
  }
  const occupied = new Set(state.characters.map((c) => c.square).filter(Boolean));
  for (const [letter, labelsOf] of Object.entries((shown.leaders && map.layers && map.layers.leaders) || {})) {
    if (occupied.has(labelsOf[0])) continue; // a leader stands on it: its crown says it
    const [x, y] = xy(labelsOf[0]);
    const side = letter === "D" ? "dark" : "light";
    layers.push(html`<text x=${M + x + 0.5} y=${M + y + 0.82} font-size="0.2" text-anchor="middle" fill=${sideColor(side)} font-weight="800" pointer-events="none">♛ leader</text>`);
  }
  for (const [letter, label] of Object.entries((shown.point_markers && map.point_squares) || {})) {
    const [x, y] = xy(label);
    layers.push(html`<circle cx=${M + x + 0.5} cy=${M + y + 0.5} r="0.3" fill="none" stroke="#b5a78f" stroke-width="0.025" stroke-dasharray="0.06 0.05" pointer-events="none" />
      <text class="spot-letter" x=${M + x + 0.5} y=${M + y + 0.5}>${letter}</text>`);
  }
  const walls = map.walls.map(([a, b]) => {
    const [x1, y1, x2, y2] = wallLine(map, a, b);
    return html`<line class="wall" x1=${x1} y1=${y1} x2=${x2} y2=${y2} />`;
  });
  const wallPoints = new Set();
  for (const [a, b] of map.walls) {
    const [x1, y1, x2, y2] = wallLine(map, a, b);
    wallPoints.add(`${Math.round(x1 - M)},${Math.round(y1 - M)}`);
    wallPoints.add(`${Math.round(x2 - M)},${Math.round(y2 - M)}`);
  }
  const posts = map.points
    .filter(([cx, cy]) => cx > 0 && cy > 0 && cx < W && cy < H && !wallPoints.has(`${cx},${cy}`))
    .map(([cx, cy]) => html`<rect class="post" x=${M + cx - 0.07} y=${M + cy - 0.07} width="0.14" height="0.14" rx="0.02" />`);
  const coords = [];
  for (let x = 0; x < W; x++) coords.push(html`<text class="coord" x=${M + x + 0.5} y=${M - 0.14} text-anchor="middle">${columnLetters(x)}</text>`);
  for (let y = 0; y < H; y++) coords.push(html`<text class="coord" x=${M - 0.12} y=${M + y + 0.58} text-anchor="end">${y + 1}</text>`);

  const spots = thingSpots(state);
  const leaders = new Set(Object.values(state.sides).map((s) => s.leader).filter(Boolean));
  const pieces = state.characters.filter((c) => c.square).map((c) =>
    html`<${Piece} key=${c.id} c=${c} label=${labels[c.id]} active=${state.active === c.id} selected=${marks.selected === c.id} onPiece=${onPiece}
      clickable=${marks.pieces} leader=${leaders.has(c.id)} words=${(marks.pieceWords || {})[c.id]} />`
  );
  // what sits beside a piece is drawn after the pieces, so that it stays in sight and tappable
  const things = state.things.filter((t) => t.square).map((t) => Thing({ t, onPiece, clickable: marks.pieces, spot: spots[t.id], words: (marks.pieceWords || {})[t.id] }));
  const targets = (marks.targets || []).map(({ piece, odds, square }) => {
    const p = xy(square);
    if (!p) return null;
    return html`<g data-target=${piece} aria-hidden="true"><circle class="hl-target" cx=${M + p[0] + 0.5} cy=${M + p[1] + 0.5} r="0.46" />
      ${odds !== undefined && odds !== null ? html`<text class="odds-label" x=${M + p[0] + 0.5} y=${M + p[1] - 0.02}>${pct(odds)}</text>` : null}</g>`;
  });
  const badges = (marks.badges || []).map(({ square, text, color, key }) => {
    const p = xy(square);
    if (!p) return null;
    return html`<g class="badge" key=${key} aria-hidden="true"><text x=${M + p[0] + 0.5} y=${M + p[1] + 0.2} fill=${color || "#211d1a"}>${text}</text></g>`;
  });
  return html`<svg class="board" viewBox=${`0 0 ${W + 2 * M} ${H + 2 * M}`} role="group" aria-label=${`the board: ${map.name}, ${W} by ${H} squares`}>
    <defs>
      <pattern id="hatch" width="0.2" height="0.2" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
        <line x1="0" y1="0" x2="0" y2="0.2" stroke="#6b7f6a" stroke-width="0.05" opacity="0.45" />
      </pattern>
    </defs>
    ${squares}<g aria-hidden="true">${overlays}${layers}
    <rect x=${M} y=${M} width=${W} height=${H} fill="none" stroke="#2a2420" stroke-width="0.1" rx="0.04" />
    ${walls}${posts}${coords}</g>${pieces}${things}${targets}${badges}
  </svg>`;
}

// A crown on a side's leader (Leaders): its side's colour, above the piece.
function Crown() {
  return html`<path class="crown" d="M -0.2 -0.3 L -0.2 -0.5 L -0.1 -0.4 L 0 -0.54 L 0.1 -0.4 L 0.2 -0.5 L 0.2 -0.3 Z" />`;
}

const MOVE_MS = 240;

// A piece glides to its new square: its SVG transform is moved frame by frame (CSS transforms
// on SVG elements were drawn wrong, at times, by the browser's compositor mid-animation).
function useGlide(x, y) {
  const ref = useRef(null);
  const was = useRef(null);
  useLayoutEffect(() => {
    const el = ref.current;
    const from = was.current;
    was.current = [x, y];
    const still = typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
    if (!el || !from || (from[0] === x && from[1] === y) || still) return undefined;
    const start = performance.now();
    let frame = 0;
    // a gliding piece lets taps through to the squares it passes over
    const done = () => { el.style.pointerEvents = ""; el.setAttribute("transform", `translate(${x}, ${y})`); };
    const step = (now) => {
      const t = Math.min(1, (now - start) / MOVE_MS);
      const e = 1 - (1 - t) * (1 - t);
      el.setAttribute("transform", `translate(${from[0] + (x - from[0]) * e}, ${from[1] + (y - from[1]) * e})`);
      if (t < 1) frame = requestAnimationFrame(step);
      else done();
    };
    el.style.pointerEvents = "none";
    frame = requestAnimationFrame(step);
    return () => { cancelAnimationFrame(frame); done(); };
  }, [x, y]);
  return ref;
}

function Piece({ c, label, active, selected, onPiece, clickable, leader, words }) {
  const [x, y] = xy(c.square);
  const ref = useGlide(M + x + 0.5, M + y + 0.5);
  const color = sideColor(c.side);
  const can = clickable && clickable.has(c.id);
  const cls = "piece" + (c.standing ? "" : " down") + (c.exhausted ? " exhausted" : "") + (leader ? " leader" : "");
  const said = `${label} (${c.name}), ${c.side}, at ${c.square}${c.standing ? "" : ", knocked down"}${c.exhausted ? ", exhausted" : ""}${leader ? ", leader" : ""}${words ? `: ${words}` : ""}`;
  const tap = () => onPiece(c.id);
  return html`<g ref=${ref} class=${cls} transform=${`translate(${M + x + 0.5}, ${M + y + 0.5})`}
      onClick=${tap} data-piece=${c.id} role="button" tabindex=${can ? "0" : "-1"} aria-label=${said}
      onKeyDown=${(e) => pressed(e, tap)}>
    <title>${said}</title>
    <circle class="hit-area" r="0.5" />
    ${active || selected ? html`<circle class="active-ring" r="0.47" /><circle class="active-ring2" r="0.47" />` : null}
    ${can && !selected ? html`<circle r="0.47" fill="none" stroke="#2f6fd6" stroke-width="0.05" stroke-dasharray="0.1 0.06" />` : null}
    <g class="tip" transform=${c.standing ? undefined : "rotate(90)"}>
      <circle class="body" r=${c.kind === "companion" ? 0.3 : 0.38} fill=${color} />
      <text y="0.01" fill=${inkOn(color)}>${label}</text>
    </g>
    ${leader ? Crown() : null}
    ${c.exhausted ? html`<g class="exhausted-marker" transform="translate(0.3,-0.3)"><circle r="0.14" fill="#211d1a" stroke="#fff" stroke-width="0.03" />
      <path d="M 0.035 -0.085 A 0.09 0.09 0 1 0 0.06 0.06 A 0.07 0.07 0 1 1 0.035 -0.085 Z" fill="#f3e7c9" /></g>` : null}
  </g>`;
}

function Thing({ t, onPiece, clickable, spot, words }) {
  const [x, y] = xy(t.square);
  const where = spot || { corner: [0, 0], small: false };
  const cx = M + x + 0.5 + where.corner[0];
  const cy = M + y + 0.5 + where.corner[1];
  const color = t.side ? sideColor(t.side) : "#8d8577";
  const click = () => onPiece(t.id);
  let shape;
  if (t.role === "point") {
    shape = html`<circle class="marker-disc" r="0.32" fill="#fffaf0" stroke="#211d1a" stroke-width="0.05" /><text y="0.01" fill="#211d1a">${t.ref}</text>`;
  } else if (t.role === "flag") {
    shape = html`<path d="M -0.22 0.34 L -0.22 -0.36 L 0.3 -0.18 L -0.2 0.02" fill=${color} stroke="#211d1a" stroke-width="0.04" stroke-linejoin="round" />`;
  } else if (t.role === "control") {
    shape = html`<rect x="-0.27" y="-0.27" width="0.54" height="0.54" rx="0.06" fill=${color} stroke="#211d1a" stroke-width="0.04" /><text y="0.01" fill=${inkOn(color)}>C</text>`;
  } else if (t.role === "tunnel") {
    shape = html`<circle r="0.3" fill="none" stroke=${color} stroke-width="0.1" /><circle r="0.16" fill="#3a2f26" />`;
  } else if (t.role === "minion") {
    shape = html`<circle r="0.25" fill=${color} stroke="#fff" stroke-width="0.05" /><text y="0.01" fill=${inkOn(color)}>m</text>`;
  } else if (t.role === "bonus") {
    shape = html`<polygon points="0,-0.34 0.3,-0.1 0.19,0.28 -0.19,0.28 -0.3,-0.1" fill=${color} stroke="#211d1a" stroke-width="0.04" /><text y="0.02" fill=${inkOn(color)}>B</text>`;
  } else {
    shape = html`<circle r="0.22" fill=${color} />`;
  }
  const can = clickable && clickable.has(t.id);
  const said = `${t.name} at ${t.square}${words ? `: ${words}` : ""}`;
  return html`<g key=${t.id} class=${"marker" + (where.small ? " beside" : "")} transform=${`translate(${cx}, ${cy}) scale(${where.small ? 0.6 : 1})`}
      onClick=${click} data-piece=${t.id} role=${can ? "button" : "img"} tabindex=${can ? "0" : undefined} aria-label=${said}
      onKeyDown=${(e) => pressed(e, click)}>
    <title>${said}</title>
    ${where.small ? html`<circle class="beside-back" r="0.4" />` : html`<circle class="hit-area" r="0.5" />`}${shape}
    ${can ? html`<circle r="0.44" fill="none" stroke="#2f6fd6" stroke-width="0.06" stroke-dasharray="0.1 0.06" />` : null}
  </g>`;
}
