// The decision: what is being decided (the server's words), the legal choices as large
// buttons with their words, cost, odds and any warning, shown before anything is paid; the
// end of the game from this seat's side; the hint.

import { html, useEffect, useRef } from "./vendor/htm-preact.module.js";
import { pct } from "./api.js";

// The end of the game in this browser's words: "You win", "The computer wins", "dark wins".
// The winner is a side: a seat per player wins with its side.
export function endWords(view, tokens) {
  const held = [...new Set(Object.keys(tokens).map((s) => (view.seats && view.seats[s] && view.seats[s].side) || s))];
  const winner = view.winner;
  if (!winner) return "The game is over";
  if (held.length === 1 && held[0] === winner) return "You win";
  const seat = view.seats && view.seats[winner];
  if (held.length === 1 && seat && seat.player === "ai") return "The computer wins";
  if (held.length === 1) return `${winner} wins: you lose`;
  return `${winner} wins`;
}

function Banner({ view, tokens, onReplay, replaying }) {
  const s = view.state;
  const target = s.target;
  return html`<div class="banner" role="status"><h3>${endWords(view, tokens)}</h3>
    <div>${s.seats.map((x) => `${x} ${s.sides[x].points}`).join(" · ")}${target && target > 1 ? ` (${target} to win)` : ""} · round ${s.round}</div>
    ${replaying ? null : html`<div class="banner-links"><a href="#replay" onClick=${onReplay}>Watch the replay</a> · <a href="/">New game</a></div>`}</div>`;
}

function oddsOf(c) {
  if (typeof c.odds === "number") return c.odds;
  return c.challenges && c.challenges.length ? c.challenges[0].odds : undefined;
}

// The odds in words, unless they only repeat the chance shown beside the words (a plain
// challenge of the piece the choice is aimed at, with no die a card may add).
function oddsWords(c) {
  const only = c.challenges && c.challenges.length === 1 ? c.challenges[0] : null;
  const plain = only && !only.with.length && only.target === c.where.piece && !c.cost;
  return plain ? "" : c.odds_words || "";
}

function ChoiceButton({ c, i, hot, setHover, choose, sending, onCard }) {
  const odds = oddsOf(c);
  const button = html`<button class=${"choice" + (hot ? " hot" : "") + (c.warning ? " warned" : "")} data-choice=${c.id} onClick=${() => choose(c)}
      onMouseEnter=${() => setHover(c)} onMouseLeave=${() => setHover(null)} onFocus=${() => setHover(c)} onBlur=${() => setHover(null)} disabled=${sending}
      title=${c.label} aria-describedby=${c.warning ? `warn-${i}` : undefined}>
    <span class="key" aria-hidden="true">${i < 9 ? i + 1 : ""}</span>
    <span class="words"><span class="main">${c.cost && c.cost.color ? html`<span class=${`token ${c.cost.color}`} aria-hidden="true"></span>` : null}${c.words}</span>
      ${oddsWords(c) ? html`<span class="odds-words">${oddsWords(c)}</span>` : null}
      ${c.detail ? html`<span class="detail">${c.detail}</span>` : null}
      ${c.warning ? html`<span class="warning" id=${`warn-${i}`}>⚠ ${c.warning}</span>` : null}</span>
    <span class="odds">${odds !== undefined ? pct(odds) : ""}</span></button>`;
  if (!c.card) return button;
  return html`<div class="choice-row">${button}<button class="card-button" onClick=${() => onCard(c.card)} aria-label=${`the card: ${c.words}`}>card</button></div>`;
}

export function Decision(props) {
  const { view, tokens, deciding, listed, choices, boardOnly, showAll, setShowAll, hover, setHover, choose, sending, marks,
    selectedChoose, takeTurn, names, setSelected, labels, pointed, setPointed, hint, error, behind, skip, onCard, replayBar, onReplay, replaying, tray } = props;
  const list = useRef(null);
  useEffect(() => {
    const el = list.current;
    if (!el) return undefined;
    const check = () => el.classList.toggle("more", el.scrollTop + el.clientHeight < el.scrollHeight - 2);
    check();
    el.addEventListener("scroll", check, { passive: true });
    return () => el.removeEventListener("scroll", check);
  });
  const over = view.status === "finished";
  const prompt = view.prompt || { text: "", help: "" };
  // the arrow keys walk the list of choices
  const walk = (e) => {
    if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
    const buttons = [...list.current.querySelectorAll("button.choice")];
    const at = buttons.indexOf(document.activeElement);
    const next = buttons[Math.max(0, Math.min(buttons.length - 1, at + (e.key === "ArrowDown" ? 1 : -1)))];
    if (next) { e.preventDefault(); next.focus(); }
  };
  const deciders = view.deciders || [view.decider];
  const waiting = view.decider && view.seats[view.decider] && view.seats[view.decider].player === "ai"
    ? `${view.decider} (the computer${view.seats[view.decider].agent ? `, ${view.seats[view.decider].agent}` : ""}) is thinking…` : `waiting for ${deciders.join(" or ")}`;
  return html`<section class="panel decision" aria-label="the decision">
    ${replayBar}
    ${over ? html`<${Banner} view=${view} tokens=${tokens} onReplay=${onReplay} replaying=${replaying} />` : null}
    ${!over ? html`<h2 class="prompt" aria-live="polite">${prompt.text}</h2>` : null}
    ${behind ? html`<button class="skip" onClick=${skip} aria-label=${`skip ahead: ${behind} more ${behind === 1 ? "step" : "steps"} to show`}>Skip ahead ▸ ${behind} more ${behind === 1 ? "step" : "steps"}</button>` : null}
    ${deciding ? html`<div class="choices" role="group" aria-label="the choices" ref=${list} onKeyDown=${walk}>
        ${pointed ? html`<div class="pointed" role="group" aria-label=${pointed.label}><span class="small">${pointed.label}</span>
          ${pointed.choices.map((c) => html`<button class="choice" data-pointed=${c.id} onClick=${() => { setPointed(null); choose(c); }}><span></span><span class="words"><span class="main">${c.words}</span>${c.odds_words ? html`<span class="odds-words">${c.odds_words}</span>` : null}${c.warning ? html`<span class="warning">⚠ ${c.warning}</span>` : null}</span><span class="odds">${oddsOf(c) !== undefined ? pct(oddsOf(c)) : ""}</span></button>`)}</div>` : null}
        ${selectedChoose ? html`<button class="choice primary" onClick=${takeTurn}><span class="key" aria-hidden="true">↵</span><span class="words"><span class="main">Take the turn with ${names(selectedChoose.where.piece)}</span></span><span></span></button>` : null}
        ${tray}
        ${prompt.help ? html`<div class="small muted help">${prompt.help}</div>` : null}
        ${listed.map((c, i) => html`<${ChoiceButton} c=${c} i=${i} hot=${hover === c} setHover=${setHover} choose=${choose} sending=${sending} onCard=${onCard} />`)}
        ${boardOnly.size ? html`<button class="choice" onClick=${() => setShowAll(!showAll)} aria-expanded=${showAll}><span class="key" aria-hidden="true">…</span><span class="words"><span class="main">${showAll ? "Fewer choices" : `Every choice as a list (${choices.length})`}</span></span><span></span></button>` : null}
      </div>` : !over && !replaying && !behind && !deciders.includes(view.seat) ? html`<div class="waiting"><span class="spinner" aria-hidden="true"></span>${waiting}</div>` : null}
    ${hint && hint.loading ? html`<div class="hint">Searching…</div>` : null}
    ${hint && hint.list ? html`<div class="hint"><b>Hint</b> (the hard level's search):<ol>${hint.list.map((h) => {
      const c = choices.find((x) => x.id === h.id);
      return html`<li><button class="link" onClick=${() => c && choose(c)} disabled=${!c} data-hint=${h.id}>${h.label}</button> <b>${pct(h.value)}</b> to win</li>`;
    })}</ol></div>` : null}
    ${error ? html`<div class="error" role="alert">${error}</div>` : null}
  </section>`;
}
