// Each side's panel, drawn as the table holds it: points against the target, the ability
// pool, the exhausted markers, the cooldown track as the card it is (with whatever sits on
// it), the characters with their items and status cards, a crowned leader, and, while a
// side's characters are still being picked (a draft), its picks so far.

import { html } from "./vendor/htm-preact.module.js";
import { sideColor } from "./api.js";
import { inkOn } from "./board.js";

export function MiniPiece({ c, label, size }) {
  const color = sideColor(c ? c.side : "");
  const style = `background:${color};color:${inkOn(color)}` + (size ? `;width:${size}px;height:${size}px;font-size:${Math.round(size / 2.2)}px` : "");
  const cls = "mini-piece" + (c && c.knocked_out ? " out" : c && !c.standing ? " down" : "");
  return html`<span class=${cls} style=${style} aria-hidden="true">${label || "?"}</span>`;
}

// What sits on a space of the track: an ability token, a character, a point marker (its
// lettered disc), an item card, a die, a status card.
function TrackThing({ t, state, labels, cards, onCard }) {
  if (t.kind === "token") return html`<span class=${`token ${t.ref}`} role="img" aria-label=${`${t.ref} ability token`} title=${`${t.ref} ability token`}></span>`;
  if (t.kind === "character" || t.kind === "companion") {
    const c = state.characters.find((x) => x.id === t.ref);
    return html`<span title=${c ? `${c.name}, knocked out` : t.ref} role="img" aria-label=${c ? `${c.name}, knocked out` : t.ref}><${MiniPiece} c=${c && { ...c, knocked_out: false }} label=${labels[t.ref]} size=${22} /></span>`;
  }
  if (t.kind === "point") {
    const m = state.things.find((x) => x.id === t.ref);
    const letter = m ? m.ref : "?";
    return html`<span class="point-disc" title=${`point marker ${letter}: back on the map when it leaves the track`} role="img" aria-label=${`point marker ${letter}`}>${letter}</span>`;
  }
  const name = (cards[t.ref] && cards[t.ref].name) || t.ref.replaceAll("-", " ");
  if (t.kind === "die") return html`<span class="track-die" title=${`the ${name} die`} role="img" aria-label=${`the ${name} die`}>✷</span>`;
  return html`<button class=${`track-card ${t.kind}`} title=${name} onClick=${() => cards[t.ref] && onCard(t.ref)}>${name}</button>`;
}

function Track({ side, state, labels, cards, onCard }) {
  const onTrack = new Set(side.track.flat().map((t) => t.ref));
  const spaces = [4, 3, 2, 1].map((n) => html`<div class="space" role="group" aria-label=${`the ${n} of the cooldown track`}>
      <span class="num" aria-hidden="true">${n}</span>
      <div class="things">${(side.track[n - 1] || []).map((t) => TrackThing({ t, state, labels, cards, onCard }))}</div>
    </div>`);
  // the knocked-out place holds a knocked-out character that is not on a number of the track
  const out = state.characters.filter((c) => c.side === side.side && c.knocked_out && !onTrack.has(c.id));
  return html`<div class="track">${spaces}
    <div class="space out" role="group" aria-label="the knocked-out place"><span class="num" aria-hidden="true">KO</span>
      <div class="things">${out.map((c) => html`<${MiniPiece} c=${c} label=${labels[c.id]} size=${22} />`)}</div>
    </div>
  </div>`;
}

function charState(c, state) {
  if (!c.placed) return "to be placed";
  if (state.decision && (state.decision.pieces || []).includes(c.id)) return "returning to the starting area";
  if (c.knocked_out) return `knocked out, on the ${c.on_track || 1} of the track`;
  const parts = [c.standing ? "standing" : "knocked down", c.square];
  if (c.exhausted) parts.push("exhausted");
  else if (c.markers) parts.push(`${c.markers} of ${c.needed} markers`);
  return parts.join(" · ");
}

// A side's picks in a draft, by name: its characters, and each item with its holder; a
// rival's secret picks only counted.
function Picks({ side, cards }) {
  const known = (id) => Boolean(cards[id]);
  const name = (id) => cards[id].name;
  const chosen = side.picks.filter(known);
  const items = side.items_chosen.filter(([item, holder]) => known(item) && known(holder));
  const hidden = side.picks.length - chosen.length + side.items_chosen.length - items.length;
  if (!side.picks.length && !side.items_chosen.length) return null;
  return html`<div class="picks small">
    ${chosen.length ? html`<div><b>Picked:</b> ${chosen.map(name).join(", ")}</div>` : null}
    ${items.length ? html`<div><b>Items:</b> ${items.map(([item, holder]) => `the ${name(item)} (${name(holder)})`).join(", ")}</div>` : null}
    ${hidden ? html`<div>${hidden} ${hidden === 1 ? "pick" : "picks"} made in secret</div>` : null}</div>`;
}

export function SidePanel({ name, state, labels, mine, onCard, cards }) {
  const side = { ...state.sides[name], side: name };
  const target = state.target;
  const chars = state.characters.filter((c) => c.side === name);
  const tokens = Object.entries(side.pool).flatMap(([color, n]) => Array.from({ length: n }, () => color));
  const { placed, total } = side.exhausted_markers;
  return html`<section class="panel side" aria-label=${`${name}${mine ? " (you)" : ""}`}>
    <h2><span class="side-chip" style=${`background:${sideColor(name)}`}></span>${name}${mine ? " (you)" : ""}
      ${state.first_player === name ? html`<span class="first" title="First Player marker">1st</span>` : null}</h2>
    <div class="points"><span class="n">${side.points}</span><span class="muted small">${target ? `of ${target} points` : "points"}</span>
      ${target ? html`<div class="meter" aria-hidden="true"><i style=${`width:${Math.min(100, (100 * side.points) / target)}%`}></i></div>` : null}</div>
    <div class="pool"><span class="label">Pool</span>${tokens.length ? tokens.map((c) => html`<span class=${`token ${c}`} role="img" aria-label=${`${c} ability token`} title=${`${c} ability token`}></span>`) : html`<span class="muted small">empty</span>`}
      <span class="label" style="margin-left:auto">Exhausted</span>
      <span class="markers" role="img" aria-label=${`${placed} of ${total} exhausted markers`} title=${`${placed} of ${total} exhausted markers`}>${Array.from({ length: total }, (_, i) => html`<i class=${i < placed ? "on" : ""}></i>`)}</span></div>
    <${Track} side=${side} state=${state} labels=${labels} cards=${cards} onCard=${onCard} />
    ${!chars.length ? html`<${Picks} side=${side} cards=${cards} />` : null}
    <ul class="roster">${chars.map((c) => html`<li class=${state.active === c.id ? "active" : ""}>
      <button class="who-button" onClick=${() => onCard(c.card)} data-card=${c.card}>
        <${MiniPiece} c=${c} label=${labels[c.id]} />
        <span><span class="who">${c.name}${side.leader === c.id ? html` <span class="crown-tag" title="leader">♛ leader</span>` : null}</span><br /><span class="state">${charState(c, state)}</span></span>
      </button>
      <span class="tags">${[...c.items.map((i) => [i, "item"]), ...c.statuses.map((x) => [x, "status"])].map(([id, kind]) => html`<button class=${`tag ${kind}`}
        onClick=${() => onCard(id)} data-card=${id}>${(cards[id] && cards[id].name) || id}</button>`)}</span>
    </li>`)}</ul>
  </section>`;
}
