// Learn to play: a guided first game ("Your First Game", DC Comics 102) against a scripted
// rival. The game is a real one on the server; this page shows one step of the script at a
// time, with the rulebook's words beside the board, and points at the one thing to do: the
// element carrying data-tutorial="target". No rule lives here: the choices, the odds and
// what a character sees come from the server.

import { html, render, useEffect, useRef, useState } from "./vendor/htm-preact.module.js";
import { api, sideColor, pct } from "./api.js";
import { Board, pieceLabels, xy } from "./board.js";
import { BoardFrame } from "./frame.js";

const KEY = "funkoverse.learn"; // { game, token } of this browser's guided game
const DONE = "funkoverse.learned"; // set once a guided game is finished
const ON_BOARD = new Set(["move", "place", "choose", "challenge"]);

function stored() {
  try { return JSON.parse(localStorage.getItem(KEY) || "null"); } catch (e) { return null; }
}

async function newGame() {
  const made = await api("/api/tutorial", { method: "POST" });
  const kept = { game: made.game, token: made.token };
  localStorage.setItem(KEY, JSON.stringify(kept));
  return kept;
}

// What a choice points at on the board: a square or a piece (null: a button does it).
function boardTarget(choice) {
  if (!choice || !ON_BOARD.has(choice.kind)) return null;
  if (choice.kind === "choose") return { piece: choice.piece };
  if (choice.kind === "challenge") return { piece: choice.target };
  return { square: choice.square };
}

function Track({ view, side, labels, pointed }) {
  const s = view.state.sides[side];
  const spaces = [4, 3, 2, 1].map((n) => html`<div class="space"><span class="num">${n}</span>
    <div class="things">${(s.track[n - 1] || []).map((t) => Thing({ t, view, labels }))}</div></div>`);
  const out = view.state.characters.filter((c) => c.side === side && c.knocked_out);
  const pool = Object.entries(s.pool).flatMap(([color, n]) => Array.from({ length: n }, () => color));
  const mine = side === "dark";
  return html`<section class=${"panel learn-side" + (pointed ? " tut-point" : "")} aria-label=${`${mine ? "Your" : "Your rival's"} cooldown track`}>
    <h2><span class="swatch" style=${`background:${sideColor(side)}`}></span>${mine ? "You (dark)" : "Rival (light)"}
      ${view.state.first_player === side ? html`<span class="first" title="First Player marker">first</span>` : null}</h2>
    <div class="small muted">Pool: ${pool.length ? pool.map((c) => html`<span class=${`token ${c}`} title=${`${c} ability token`} aria-label=${`${c} ability token`}></span> `) : "empty"}</div>
    <div class="track" aria-label=${`cooldown track, spaces 4 to 1${out.length ? `; knocked out: ${out.map((c) => c.name).join(", ")}` : ""}`}>${spaces}</div></section>`;
}

function Thing({ t, view, labels }) {
  if (t.kind === "token") return html`<span class=${`token ${t.ref}`} title=${`${t.ref} ability token`} aria-label=${`${t.ref} ability token`}></span>`;
  if (t.kind === "die") return html`<span class="track-die" title="the Champion die" aria-label="the Champion die">✷</span>`;
  const c = view.state.characters.find((x) => x.id === t.ref);
  return html`<span class="mini-piece" style=${`background:${sideColor(c ? c.side : "")}`} title=${c ? c.name : t.ref}>${labels[t.ref] || "?"}</span>`;
}

function Log({ view, pointed }) {
  const lines = view.log.filter((e) => e.text).slice(-7);
  return html`<section class=${"panel learn-log" + (pointed ? " tut-point" : "")} aria-label="What happened"><h2>What happened</h2>
    <ol aria-live="polite">${lines.map((e) => html`<li class=${e.kind === "dice" ? "dice-line" : ""}>${e.text}${e.rule ? html` <span class="rule-cite">(${e.rule})</span>` : null}</li>`)}</ol></section>`;
}

function Learn() {
  const [script, setScript] = useState(null);
  const [seat, setSeat] = useState(stored());
  const [view, setView] = useState(null);
  const [map, setMap] = useState(null);
  const [step, setStep] = useState(0);
  const [sees, setSees] = useState([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const [finished, setFinished] = useState(false);
  const card = useRef(null);

  const start = async (fresh) => {
    setError(null);
    try {
      const kept = fresh || !stored() ? await newGame() : stored();
      const v = await api(`/api/games/${kept.game}`, { token: kept.token });
      const at = await api(`/api/games/${kept.game}/tutorial`);
      setSeat(kept); setView(v); setStep(at.step); setFinished(false);
    } catch (e) {
      if (!fresh) { localStorage.removeItem(KEY); return start(true); }
      setError(e.message);
    }
    return null;
  };

  useEffect(() => {
    api("/api/tutorial").then(setScript).catch((e) => setError(e.message));
    start(false);
  }, []);
  useEffect(() => {
    if (view && (!map || map.id !== view.state.map)) api(`/api/maps/${view.state.map}`).then(setMap).catch((e) => setError(e.message));
  }, [view && view.state.map]);

  const current = script && script.steps[Math.min(step, script.steps.length - 1)];
  const point = (current && current.point) || "";
  // what the step shows: the squares a character sees
  useEffect(() => {
    setSees([]);
    if (!seat || !point.startsWith("sees:")) return;
    api(`/api/games/${seat.game}/preview?piece=${encodeURIComponent(point.slice(5))}`, { token: seat.token })
      .then((p) => setSees(p.sees)).catch(() => {});
  }, [seat && seat.game, step, point]);
  // the step's own control takes the keyboard's focus
  useEffect(() => {
    const el = card.current && card.current.querySelector("button[data-tutorial=target], button.do-it");
    if (el) el.focus({ preventScroll: true });
  }, [step, finished, view && view.version, !!map, !!script, busy]);

  const choice = current && current.choice && view ? view.choices.find((c) => c.id === current.choice) : null;
  const onBoard = boardTarget(choice);

  // the board's element the step points at carries data-tutorial="target"
  useEffect(() => {
    const root = document.querySelector(".learn .board");
    if (!root) return;
    root.querySelectorAll("[data-tutorial]").forEach((el) => el.removeAttribute("data-tutorial"));
    if (!onBoard || busy) return;
    const el = onBoard.square ? root.querySelector(`[data-square="${onBoard.square}"]`) : root.querySelector(`.piece[data-piece="${onBoard.piece}"]`);
    if (el) el.setAttribute("data-tutorial", "target");
  });

  const advance = () => {
    if (step >= script.steps.length - 1) {
      setFinished(true);
      localStorage.setItem(DONE, "1");
      return;
    }
    setStep(step + 1);
  };
  const act = async (work) => {
    if (busy) return;
    setBusy(true); setError(null);
    try {
      const v = await work();
      if (v) setView(v);
      advance();
    } catch (e) {
      setError(e.message);
    } finally {
      setBusy(false);
    }
  };
  const make = () => act(() => api(`/api/games/${seat.game}/choices`, { method: "POST", token: seat.token, body: { choice: current.choice, version: view.version } }));
  const next = () => {
    if (current.kind === "rival") return act(() => api(`/api/games/${seat.game}/tutorial/next`, { method: "POST", token: seat.token, body: { version: view.version } }));
    return act(async () => null);
  };

  if (error && !view) return html`<div class="learn"><div class="panel" role="alert">${error}</div></div>`;
  if (!script || !view || !map) return html`<div class="learn"><${Bar} /><p class="loading">Setting up your first game…</p></div>`;

  const state = view.state;
  const labels = pieceLabels(state.characters);
  const squareOf = (id) => (state.characters.find((c) => c.id === id) || {}).square;
  const marks = { moves: [], sees, squares: [], pieces: new Set(), targets: [], selected: null };
  if (onBoard && onBoard.square) { marks.moves = [onBoard.square]; marks.squares = [onBoard.square]; }
  if (onBoard && onBoard.piece) {
    marks.pieces = new Set([onBoard.piece]);
    if (choice.kind === "challenge") marks.targets = [{ piece: onBoard.piece, odds: choice.odds, square: squareOf(onBoard.piece) }];
  }
  if (point.startsWith("sees:") || point.startsWith("piece:")) marks.selected = point.split(":")[1];
  const onSquare = (sq) => { if (onBoard && onBoard.square === sq) make(); };
  const onPiece = (id) => { if (onBoard && onBoard.piece === id) make(); };
  const focus = (() => {
    const sq = onBoard ? onBoard.square || squareOf(onBoard.piece) : point.includes(":") ? squareOf(point.split(":")[1]) : null;
    const p = sq && xy(sq);
    return p ? p[0] : null;
  })();

  const total = script.steps.length;
  const kindWords = { choice: onBoard ? (onBoard.square ? "Tap the marked square on the board." : "Tap the marked piece on the board.") : null, rival: "Your rival's move.", read: null };
  const control = finished ? null
    : current.kind === "choice" && choice && !onBoard
      ? html`<button class="learn-go" data-tutorial="target" onClick=${make} disabled=${busy}>${choice.label.replace(/^[^:]+: /, "")}</button>`
      : current.kind === "choice" && choice
        ? html`<button class="do-it" onClick=${make} disabled=${busy} title="the same as tapping the marked square or piece">Or press here: ${choice.label.replace(/^[^:]+: /, "")}</button>`
        : current.kind === "choice"
          ? html`<p class="muted">Waiting for the game…</p>`
          : html`<button class="learn-go" data-tutorial="target" onClick=${next} disabled=${busy}>${current.kind === "rival" ? "Next: watch your rival" : step >= total - 1 ? "Finish" : "Next"}</button>`;

  const body = finished
    ? html`<div class="learn-card done" ref=${card} data-tutorial-state="finished" aria-live="polite">
        <p class="step-count">Learn to play · finished</p>
        <h1>You have played your first game</h1>
        <p>You won by knocking out The Cheetah. Everything from here on is the same game with more in it.</p>
        <div class="learn-links"><a class="learn-go" href="/">Play a game</a>
          <button class="tool-light" onClick=${() => start(true)}>Play the lesson again</button></div>
      </div>`
    : html`<div class="learn-card" ref=${card} data-tutorial-state="step" data-step=${step} aria-live="polite">
        <p class="step-count">Step ${step + 1} of ${total}${current.kind === "rival" ? " · your rival" : ""}</p>
        <h1>${current.title}</h1>
        <p class="say">${current.say}</p>
        <figure class="quote"><blockquote>${current.quote}</blockquote>
          <figcaption>${script.book} rulebook, <cite>${current.section}</cite></figcaption></figure>
        ${kindWords[current.kind] ? html`<p class="hint">${kindWords[current.kind]}</p>` : null}
        ${control}
        ${error ? html`<p class="error" role="alert">${error}</p>` : null}
      </div>`;

  return html`<div class=${"learn" + (finished ? " is-finished" : "")}>
    <${Bar} onRestart=${() => start(true)} />
    <main class="learn-table">
      <div class="learn-board board-wrap" aria-label="The board">
        <${BoardFrame} map=${map} focus=${focus}>
          <${Board} map=${map} state=${state} labels=${labels} marks=${marks} onSquare=${onSquare} onPiece=${onPiece} rules=${{}} />
        <//>
      </div>
      <div class="learn-column">
        ${body}
        <div class="learn-sides">
          <${Track} view=${view} side="dark" labels=${labels} pointed=${!finished && point === "track:dark"} />
          <${Track} view=${view} side="light" labels=${labels} pointed=${!finished && point === "track:light"} />
        </div>
        <${Log} view=${view} pointed=${!finished && point === "log"} />
      </div>
    </main>
  </div>`;
}

function Bar({ onRestart }) {
  return html`<header class="bar"><a class="brand" href="/" style="color:inherit"><img src="/static/icon.svg" width="22" height="22" alt="" />Funkoverse</a>
    <span class="what"><b>Learn to play</b> · Your First Game, DC Comics 102</span>
    ${onRestart ? html`<span class="tools"><button class="tool" onClick=${onRestart}>Start over</button></span>` : null}</header>`;
}

render(html`<${Learn} />`, document.getElementById("app"));
export { pct };
