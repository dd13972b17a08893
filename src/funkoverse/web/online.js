// Online play around a game (server-api.md, "Added 2026-12-03"): who is at the table and
// for how long each seat has been away, the clocks, resign, rematch, claims on a seat gone
// past the grace period, the heartbeat that tells a dead connection from a quiet one, the
// "your turn" notice in the tab's title (and a sound, when asked for), and, in the lobby,
// the clock offered, invite links with a copy button and your games with yours to play
// first. The game page (game.js) mounts <OnlineBar> and hands its socket's messages here.

import { html, useEffect, useState } from "./vendor/htm-preact.module.js";
import { api, keepSeats, sideColor } from "./api.js";

const PING_MS = 10000; // a heartbeat this often
const DEAD_MS = 6000; // no answer this long: the connection is dead, reconnect

// ------------------------------------------------------------------ what the socket says

const listeners = new Set();
let lastPong = null;

/** Every message of the game's socket that is not a view (pong, rematch), for this module. */
export function onSocketMessage(data) {
  if (data.type === "pong") lastPong = { at: Date.now(), table: data };
  for (const f of listeners) f(data);
}

function useSocketMessages(f) {
  useEffect(() => { listeners.add(f); return () => listeners.delete(f); }, [f]);
}

/** The heartbeat of an open socket: a ping every few seconds; no pong in time closes the
 * socket, and the page's reconnecting takes over. */
export function onSocketOpen(ws) {
  let waiting = null;
  const beat = () => {
    if (ws.readyState !== WebSocket.OPEN) return;
    ws.send(JSON.stringify({ type: "ping", at: Date.now() }));
    clearTimeout(waiting);
    waiting = setTimeout(() => { listeners.forEach((f) => f({ type: "dead" })); ws.close(); }, DEAD_MS);
  };
  const onPong = (d) => { if (d.type === "pong") clearTimeout(waiting); };
  listeners.add(onPong);
  const every = setInterval(beat, PING_MS);
  setTimeout(beat, 300);
  ws.addEventListener("close", () => { clearInterval(every); clearTimeout(waiting); listeners.delete(onPong); });
}

// ------------------------------------------------------------------ small words

function minutes(s) {
  if (s === null || s === undefined) return "";
  s = Math.max(0, Math.round(s));
  if (s >= 86400) return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")} min`;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function awayWords(since) {
  if (!since) return "";
  const s = (Date.now() - Date.parse(since)) / 1000;
  if (s < 60) return "away just now";
  if (s < 3600) return `away ${Math.floor(s / 60)} min`;
  return `away ${Math.floor(s / 3600)} h`;
}

function useTick(ms) {
  const [, set] = useState(0);
  useEffect(() => { const t = setInterval(() => set((n) => n + 1), ms); return () => clearInterval(t); }, [ms]);
}

// ------------------------------------------------------------------ "your turn"

let soundOn = localStorage.getItem("funkoverse.sound") === "on";

function chime() {
  if (!soundOn) return;
  try {
    const ctx = new (window.AudioContext || window.webkitAudioContext)();
    const o = ctx.createOscillator();
    const g = ctx.createGain();
    o.frequency.value = 660;
    g.gain.setValueAtTime(0.15, ctx.currentTime);
    g.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.4);
    o.connect(g).connect(ctx.destination);
    o.start();
    o.stop(ctx.currentTime + 0.4);
  } catch (e) { /* no sound on this browser */ }
}

/** The seats of this screen that may act now. */
export function myTurn(view, tokens) {
  if (!view || view.status === "finished") return [];
  const deciders = view.deciders || (view.decider ? [view.decider] : []);
  return deciders.filter((s) => tokens[s]);
}

let wasMine = false;
function turnNotice(view, tokens, title) {
  const mine = myTurn(view, tokens).length > 0;
  document.title = mine ? `● Your turn · ${title}` : view && view.status === "finished" ? `Game over · ${title}` : title;
  if (mine && !wasMine) chime();
  wasMine = mine;
}

// ------------------------------------------------------------------ the bar on the game page

/** Presence, clocks, resign, rematch and claims, for the game page. */
export function OnlineBar({ view, tokens, live, game, onView }) {
  const [table, setTable] = useState(null); // the last heartbeat's answer
  const [offer, setOffer] = useState(null); // a rematch the other player started
  const [dead, setDead] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const [sound, setSound] = useState(soundOn);
  const [got, setGot] = useState(Date.now());
  const [wasLive, setWasLive] = useState(false);
  useTick(1000);
  useEffect(() => setGot(Date.now()), [view]);
  useSocketMessages((d) => {
    if (d.type === "pong") { setTable(d); setGot(Date.now()); setDead(false); }
    if (d.type === "dead") setDead(true);
    if (d.type === "rematch") setOffer(d);
  });
  useEffect(() => { if (live) { setDead(false); setWasLive(true); } }, [live]);
  const title = document.querySelector("meta[name=title]")?.content || "Funkoverse";
  useEffect(() => turnNotice(view, tokens, title), [view, tokens]);
  if (!view) return null;

  const held = Object.keys(tokens).filter((s) => view.seats[s]);
  const spectator = held.length === 0;
  const over = view.status === "finished";
  const fresh = table && table.version === view.version && table.at !== undefined ? table : null;
  const seats = { ...view.seats, ...(fresh ? fresh.seats : {}) };
  const claimable = fresh ? fresh.claimable : view.claimable;
  const clocks = fresh && fresh.clocks ? fresh.clocks : view.clocks;
  const running = over ? null : (fresh && "clock_running" in fresh ? fresh.clock_running : view.clock_running);
  const since = (Date.now() - got) / 1000;
  const me = tokens[view.seat] ? view.seat : held[0];
  // someone plays from another screen, or did before the computer took the seat over (or the
  // clock runs): who is here, and for how long
  const remote = Object.entries(view.seats).some(([s, x]) => (x.player !== "ai" && !tokens[s]) || x.claimed);
  const seen = remote || spectator || Boolean(clocks);

  const act = async (what, body) => {
    setBusy(true); setError(null);
    try {
      const answer = await api(`/api/games/${encodeURIComponent(game)}/${what}`, { method: "POST", body, token: tokens[me] });
      if (what === "rematch") {
        keepSeats(answer.game, { [answer.seat]: answer.token });
        location.href = `/games/${answer.game}`;
        return;
      }
      if (onView) onView(answer);
    } catch (e) { setError(e.message); }
    setBusy(false);
  };
  const joinOffer = () => { keepSeats(offer.game, { [view.seats[me] ? swappedSeat(me) : me]: offer.token }); location.href = `/games/${offer.game}`; };

  // a connection that was up and is lost (not the first one still opening)
  const banner = (wasLive && !live) || dead
    ? html`<div class="net-banner" role="alert" data-net=${dead ? "disconnected" : "reconnecting"}>${dead ? "Disconnected: the server stopped answering." : "Connection lost."} Reconnecting…</div>`
    : null;

  return html`<section class="online" aria-label="the table">
    ${banner}
    ${spectator ? html`<div class="spectating" data-spectating="1">Spectating: you watch this game; the players' moves appear live.</div>` : null}
    ${seen ? html`<ul class="presence">${Object.entries(seats).map(([s, x]) => html`<li data-presence=${s} data-present=${x.present ? "1" : "0"}>
      <span class="side-chip" style=${`background:${sideColor(x.side || s)}`}></span>
      <b>${s}</b>${tokens[s] ? " (you)" : ""}
      <span class="muted small">${x.player === "ai" ? (x.claimed ? " · the computer (took over)" : " · the computer") + (x.agent ? ` · ${x.agent}` : "") : x.present ? " · here" : ` · ${awayWords(x.away_since)}`}</span>
      ${clocks && s in clocks ? html`<span class=${"clock" + (running === s ? " running" : "")} data-clock=${s}>${minutes(running === s ? clocks[s] - since : clocks[s])}</span>` : null}
      ${x.characters && x.characters.length ? html`<div class="small muted owns" data-owns=${s}>plays ${x.characters.map((c) => (view.state.characters.find((y) => y.id === c) || { name: c }).name).join(", ")}</div>` : null}
    </li>`)}</ul>` : null}
    ${!spectator && claimable && !tokens[claimable] && !over ? html`<div class="claim" role="group" aria-label="claim">
      <span>${claimable} has been away longer than ${view.grace < 60 ? `${view.grace} s` : `${Math.round(view.grace / 60)} min`}: the game need not wait.</span>
      <button class="tool" data-claim="ai" onClick=${() => act("claim", { version: view.version, claim: "ai" })} disabled=${busy}>Let the computer play ${claimable}</button>
      <button class="tool" data-claim="win" onClick=${() => act("claim", { version: view.version, claim: "win" })} disabled=${busy}>Claim the win</button></div>` : null}
    ${!spectator && !over ? html`<div class="table-tools">
      <button class="tool" data-resign="1" onClick=${() => { if (confirm("Resign this game? The other side wins.")) act("resign", { version: view.version }); }} disabled=${busy}>Resign</button>
      ${remote ? html`<label class="small"><input type="checkbox" checked=${sound} onChange=${(e) => { soundOn = e.target.checked; setSound(soundOn); localStorage.setItem("funkoverse.sound", soundOn ? "on" : "off"); }} /> sound on my turn</label>` : null}</div>` : null}
    ${!spectator && over ? html`<div class="table-tools">
      ${offer ? html`<button class="tool primary" data-join-rematch="1" onClick=${joinOffer}>Join the rematch</button>`
        : view.rematch ? html`<button class="tool" data-rematch="1" onClick=${() => act("rematch")} disabled=${busy}>Go to the rematch</button>`
        : html`<button class="tool" data-rematch="1" onClick=${() => act("rematch")} disabled=${busy}>Rematch (sides swapped)</button>`}</div>` : null}
    ${error ? html`<div class="error" role="alert">${error}</div>` : null}
  </section>`;
}

function swappedSeat(s) {
  if (s.startsWith("dark")) return "light" + s.slice(4);
  if (s.startsWith("light")) return "dark" + s.slice(5);
  return s;
}

// ------------------------------------------------------------------ the lobby

export const CLOCKS = [
  ["", "no clock"],
  ["300+3", "real time: 5 min + 3 s a decision"],
  ["900+10", "real time: 15 min + 10 s a decision"],
  ["1d", "correspondence: 1 day a decision"],
  ["3d", "correspondence: 3 days a decision"],
];

/** The clock a lobby's choice stands for, as the API takes it (undefined: no clock). */
export function clockOf(choice) {
  if (!choice) return undefined;
  if (choice.endsWith("d")) return { days: Number(choice.slice(0, -1)) };
  const [initial, increment] = choice.split("+").map(Number);
  return { initial, increment };
}

export function ClockChoice({ value, onChange }) {
  return html`<label class="field"><span>Clock</span>
    <select name="clock" value=${value} onChange=${(e) => onChange(e.target.value)}>${CLOCKS.map(([v, t]) => html`<option value=${v}>${t}</option>`)}</select></label>`;
}

/** An invite link with a button that copies it. */
export function CopyLink({ url, seat }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try { await navigator.clipboard.writeText(url); } catch (e) {
      const r = document.createRange(); const el = document.querySelector(`code[data-invite="${seat}"]`);
      if (el) { r.selectNodeContents(el); const s = getSelection(); s.removeAllRanges(); s.addRange(r); document.execCommand("copy"); }
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return html`<div class="invite" style="margin-top:6px">${seat}: <code data-invite=${seat}>${url}</code>
    <button class="tool copy" data-copy=${seat} onClick=${copy}>${copied ? "Copied" : "Copy"}</button></div>`;
}

/** The lobby's games: those where this browser holds the deciding seat first, then the
 * rest of its own games, then everyone else's; newest first within each. */
export function sortGames(games, mine) {
  const rank = (g) => {
    const held = mine[g.game] || {};
    if (g.status !== "finished" && g.turn && held[g.turn]) return 0;
    if (Object.keys(held).length && g.status !== "finished") return 1;
    if (Object.keys(held).length) return 2;
    return 3;
  };
  return [...games].sort((a, b) => rank(a) - rank(b) || (a.updated < b.updated ? 1 : -1));
}
