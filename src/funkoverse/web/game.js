// The game page: draws what the server sends and offers only the legal choices it lists.
// No rule lives here: where a piece may go, whom it may challenge and at what odds all come
// from the server (the view, its choices, and the preview of a character).

import { html, render, useEffect, useMemo, useRef, useState, useCallback } from "./vendor/htm-preact.module.js";
import { api, ApiError, seatsOf, takeSeatFromLink, sideColor, pct } from "./api.js";
import { Board, pieceLabels, shortName, xy } from "./board.js";
import { BoardFrame } from "./frame.js";
import { OnlineBar, onSocketMessage, onSocketOpen } from "./online.js";

const GAME = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const PACE_MS = 550; // a rival's choice stays on screen at least this long
// The dice faces drawn, not written: a burst, a shield, !!!, or nothing.
function Face({ face }) {
  if (face === "burst") return html`<svg viewBox="-10 -10 20 20" width="22" height="22" aria-label="burst"><polygon fill="#d13a2f"
    points="0,-9 2.2,-3.6 7.8,-4.5 4,-0.4 7.8,4.5 2.2,3.6 0,9 -2.2,3.6 -7.8,4.5 -4,0.4 -7.8,-4.5 -2.2,-3.6" /></svg>`;
  if (face === "shield") return html`<svg viewBox="-10 -10 20 20" width="22" height="22" aria-label="shield"><path fill="#2b5fb4"
    d="M 0 -8.5 L 7 -5.5 C 7 2 4 6 0 8.5 C -4 6 -7 2 -7 -5.5 Z" /></svg>`;
  if (face === "triple_exclamation") return html`<span aria-label="!!!">!!!</span>`;
  return html`<span aria-label="blank"></span>`;
}
const COUNTS = { attack: ["burst", "triple_exclamation"], defense: ["shield", "triple_exclamation"] };

// ------------------------------------------------------------------ what a choice points at

function pointsAt(choice) {
  switch (choice.kind) {
    case "choose": return { piece: choice.piece };
    case "move": return { square: choice.square };
    case "challenge": return { piece: choice.target };
    case "target": return { piece: choice.piece };
    case "assist": return { piece: choice.ally };
    case "interact": return choice.thing ? { piece: choice.thing } : choice.square ? { square: choice.square } : {};
    case "place": case "return": case "push": case "pull": return { square: choice.square, piece: choice.piece };
    case "token": return { square: choice.square, piece: choice.token };
    case "put": return { square: choice.square };
    case "carry": case "leader": case "flag": return { piece: choice.piece };
    case "minion": return { piece: choice.target };
    default: return {};
  }
}

// Long lists of squares to move or place to are easier on the board: the list then keeps
// only the other choices, and says where to tap.
const BOARD_KINDS = new Set(["move", "place", "return", "token", "put", "push", "pull"]);

function onBoardOnly(choices, c) {
  const board = choices.filter((x) => BOARD_KINDS.has(x.kind));
  return board.length > 6 && BOARD_KINDS.has(c.kind);
}

function boardHelp(choices, who) {
  const board = choices.filter((x) => BOARD_KINDS.has(x.kind));
  if (board.length <= 6) return "";
  const kinds = new Set(board.map((x) => x.kind));
  const pieces = new Set(board.map((x) => x.piece).filter(Boolean));
  if (kinds.has("place") || kinds.has("return")) {
    const verb = kinds.has("place") ? "place" : "return";
    return `Tap a green square to ${verb} ${who || "the character"} there${pieces.size > 1 ? " (choose another character above to " + verb + " that one)" : ""}.`;
  }
  if (kinds.has("move")) return "Tap a green square to move there; a rival ringed in red to challenge it.";
  return "Tap a green square.";
}

// A choice's words on its button: without the acting character's name (the prompt says
// it) and without the chance to win written out (the odds column shows it).
function shortLabel(view, c) {
  const s = view.state;
  const active = s.characters.find((x) => x.id === s.active);
  let text = c.label;
  if (active && text.startsWith(`${active.name}: `)) text = text.slice(active.name.length + 2);
  if (c.odds !== undefined) text = text.replace(/,\s*\d+(\.\d+)?%$/, "");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function byKindOrder(view, choices) {
  const active = view && view.state.characters.find((c) => c.id === view.state.active);
  const here = active && active.square;
  const stay = choices.filter((c) => c.kind === "move" && c.square === here);
  return choices.filter((c) => !stay.includes(c)).concat(stay);
}

function phaseWords(view) {
  const s = view.state;
  if (view.status === "finished") return "The game is over";
  const who = view.decider;
  switch (s.phase) {
    case "flip": return "The First Player marker is flipped";
    case "draft": return `${who} chooses characters and items (in secret)`;
    case "secret": return `${who} picks a leader, in secret`;
    case "place": return `${who} places characters in the starting area`;
    case "choose": return `${who} chooses a character to take a turn`;
  }
  const d = s.decision || {};
  const active = s.characters.find((c) => c.id === s.active);
  if (d.kind === "step") {
    const piece = s.characters.find((c) => c.id === d.piece) || active;
    const words = { move: "moves", challenge: "chooses a target", challenge_each: "chooses the next target", push_adjacent_rival: "pushes", push_each_adjacent_rival: "pushes", pull_rival_seen: "pulls", pull_target: "pulls", place_self_adjacent_to_rival: "chooses where to be placed", place_token: "places a token", flag_return: "may return from the rival flag", champion: "may add the Champion die", blood: "decides on the Blood die", tunnel: "may place a Tunnel" };
    return `${piece ? piece.name : who}: ${words[d.purpose] || d.purpose.replaceAll("_", " ")}`;
  }
  if (d.kind === "return") return `${who} returns characters to the starting area`;
  if (active) return `${active.name}: ${s.actions_left} action${s.actions_left === 1 ? "" : "s"} left`;
  return `${who} decides`;
}

// ------------------------------------------------------------------ side panels

function Track({ side, state, labels, cards, onCard }) {
  const spaces = [4, 3, 2, 1].map((n) => {
    const slot = side.track[n - 1] || [];
    return html`<div class="space" title=${`the ${n} of the cooldown track`}>
      <span class="num">${n}</span>
      <div class="things">${slot.map((t) => TrackThing({ t, state, labels, cards, onCard }))}</div>
    </div>`;
  });
  const out = state.characters.filter((c) => c.side === side.side && c.knocked_out);
  return html`<div class="track">${spaces}
    <div class="space out" title="knocked-out characters"><span class="num">KO</span>
      <div class="things">${out.map((c) => html`<span class="mini-piece out" style=${`background:${sideColor(c.side)};width:22px;height:22px;font-size:10px`}>${labels[c.id]}</span>`)}</div>
    </div>
  </div>`;
}

// What sits on a space of the track, drawn as it is on the table: an ability token, a
// character, a point marker (its lettered disc), an item card, a die, a status card.
function TrackThing({ t, state, labels, cards, onCard }) {
  if (t.kind === "token") return html`<span class=${`token ${t.ref}`} title=${`${t.ref} ability token`}></span>`;
  if (t.kind === "character" || t.kind === "companion") {
    const c = state.characters.find((x) => x.id === t.ref);
    return html`<span class="mini-piece" style=${`background:${sideColor(c ? c.side : "")};width:22px;height:22px;font-size:10px`} title=${c ? c.name : t.ref}>${labels[t.ref] || "?"}</span>`;
  }
  if (t.kind === "point") {
    const m = state.things.find((x) => x.id === t.ref);
    const letter = m ? m.ref : "?";
    return html`<span class="point-disc" title=${`point marker ${letter}: back on the map when it leaves the track`} aria-label=${`point marker ${letter}`}>${letter}</span>`;
  }
  const name = (cards[t.ref] && cards[t.ref].name) || t.ref.replaceAll("-", " ");
  if (t.kind === "die") return html`<span class="track-die" title=${`the ${name} die`} aria-label=${`the ${name} die`}>✷</span>`;
  return html`<button class=${`track-card ${t.kind}`} title=${name} onClick=${() => cards[t.ref] && onCard(t.ref)}>${name}</button>`;
}

function SidePanel({ name, state, labels, mine, onCard, cards }) {
  const side = { ...state.sides[name], side: name };
  const target = state.target;
  const chars = state.characters.filter((c) => c.side === name);
  const tokens = Object.entries(side.pool).flatMap(([color, n]) => Array.from({ length: n }, () => color));
  const placed = side.exhausted_markers.placed;
  const total = side.exhausted_markers.total;
  return html`<div class="panel side">
    <h2><span class="side-chip" style=${`background:${sideColor(name)}`}></span>${name}${mine ? " (you)" : ""}
      ${state.first_player === name ? html`<span class="first" title="First Player marker">1st</span>` : null}</h2>
    <div class="points"><span class="n">${side.points}</span><span class="muted small">${target ? `of ${target} points` : "points"}</span>
      ${target ? html`<div class="meter"><i style=${`width:${Math.min(100, (100 * side.points) / target)}%`}></i></div>` : null}</div>
    <div class="pool"><span class="label">Pool</span>${tokens.length ? tokens.map((c) => html`<span class=${`token ${c}`} title=${`${c} ability token`}></span>`) : html`<span class="muted small">empty</span>`}
      <span class="label" style="margin-left:auto">Exhausted</span>
      <span class="markers" title=${`${placed} of ${total} exhausted markers`}>${Array.from({ length: total }, (_, i) => html`<i class=${i < placed ? "on" : ""}></i>`)}</span></div>
    <${Track} side=${side} state=${state} labels=${labels} cards=${cards} onCard=${onCard} />
    <ul class="roster">${chars.map((c) => html`<li class=${state.active === c.id ? "active" : ""} onClick=${() => onCard(c.card, c)} data-card=${c.card} role="button" tabindex="0"
      onKeyDown=${(e) => { if (e.key === "Enter") onCard(c.card, c); }}>
      <span class=${"mini-piece" + (c.knocked_out ? " out" : !c.standing ? " down" : "")} style=${`background:${sideColor(c.side)}`}>${labels[c.id]}</span>
      <span><span class="who">${c.name}</span><br /><span class="state">${charState(c, state)}</span></span>
      <span class="tags">${[...c.items.map((i) => [i, "item"]), ...c.statuses.map((x) => [x, "status"])].map(([id, kind]) => html`<button class=${`tag ${kind}`}
        onClick=${(e) => { e.stopPropagation(); onCard(id); }} data-card=${id}>${(cards[id] && cards[id].name) || id}</button>`)}</span>
    </li>`)}</ul>
  </div>`;
}

function charState(c, state) {
  if (!c.placed) return "to be placed";
  const returning = state.decision && state.decision.kind === "return" && state.decision.pieces.includes(c.id);
  if (returning) return "returning to the starting area";
  if (c.knocked_out) return `knocked out, on the ${c.on_track || 1} of the track`;
  const parts = [c.standing ? "standing" : "knocked down", c.square];
  if (c.exhausted) parts.push("exhausted");
  else if (c.markers) parts.push(`${c.markers} of ${c.needed} markers`);
  return parts.join(" · ");
}

// ------------------------------------------------------------------ the card of a character

function CardModal({ card, cards, onClose }) {
  const c = cards[card];
  if (!c) return null;
  return html`<div class="modal-back" onClick=${onClose}><div class="modal" onClick=${(e) => e.stopPropagation()} role="dialog" aria-label=${c.name}>
    <button class="tool close" style="color:#211d1a;border-color:#ccc" onClick=${onClose}>Close</button>
    <h3>${c.name}</h3>
    <div class="muted small">${c.kind} · ${c.box}${c.defense !== undefined ? ` · defense ${c.defense}` : ""}${c.dots && c.dots.length ? " · dots " : ""}
      ${(c.dots || []).map((d) => html`<span class=${`token ${d}`} style="width:12px;height:12px;vertical-align:-1px;margin-left:2px"></span>`)}</div>
    ${c.kind === "basic character" ? html`<p>Move 2, challenge an adjacent rival with 2 dice, assist, interact, rally. No abilities, no traits, no items.</p>` : null}
    ${(c.abilities || []).map((a) => html`<div class="ability"><b>${a.name}${a.challenge ? " ✷" : ""} <span class=${`token ${a.type}`} style="width:12px;height:12px;vertical-align:-1px"></span> ${a.cost}</b>${a.text}</div>`)}
    ${c.trait ? html`<div class="ability"><b>Trait: ${c.trait.name}</b>${c.trait.text}</div>` : null}
    ${c.text ? html`<p>${c.text}</p>` : null}
  </div></div>`;
}

// ------------------------------------------------------------------ dice

// A challenge's roll in one row: the challenger's piece and dice, what counted, the
// defender's. It sits in the header (on a phone, over it), never on the board, and fades
// out by itself.
const DICE_MS = 2100;

function Dice({ event, who }) {
  const [rolling, setRolling] = useState(true);
  useEffect(() => {
    setRolling(true);
    const t = setTimeout(() => setRolling(false), 380);
    return () => clearTimeout(t);
  }, [event]);
  const row = (faces, role) => faces.map((f) => html`<span class=${"die" + (rolling ? " rolling" : COUNTS[role].includes(f) ? " counts" : "")}>${rolling ? "·" : html`<${Face} face=${f} />`}</span>`);
  const piece = (id) => {
    const c = who(id);
    return html`<span class="mini-piece" style=${`background:${sideColor(c.side)}`} title=${c.name}>${c.label}</span>`;
  };
  const a = who(event.piece);
  const d = who(event.other);
  const said = rolling ? `${a.name} challenges ${d.name}` : `${a.name} ${event.number} against ${d.name} ${event.total}`;
  return html`<div class="dice" role="status" aria-label=${said} data-entry=${event.entry}>
    ${piece(event.piece)}<span class="name">${a.name}</span>
    <span class="row">${row(event.attack, "attack")}</span>
    <b class="n">${rolling ? "" : event.number}</b><span class="vs">vs</span><b class="n">${rolling ? "" : event.total}</b>
    <span class="row">${row(event.defense, "defense")}</span>
    <span class="name">${d.name}</span>${piece(event.other)}
  </div>`;
}

// A list that scrolls inside its panel says so: it fades at the bottom while there is more.
function useFadeWhileMore(ref) {
  useEffect(() => {
    const el = ref.current;
    if (!el) return undefined;
    const check = () => el.classList.toggle("more", el.scrollTop + el.clientHeight < el.scrollHeight - 2);
    check();
    el.addEventListener("scroll", check, { passive: true });
    window.addEventListener("resize", check);
    return () => { el.removeEventListener("scroll", check); window.removeEventListener("resize", check); };
  });
}

// ------------------------------------------------------------------ undo

// What an undo takes back, in the player's words: the seat's own last choices, and the
// computer's reply made since (server-api.md: everything since the last roll or reveal);
// on one screen shared by friends, each seat's. The short words are for a phone's header.
function undoWords(view) {
  const counts = view.undo_choices || {};
  const mine = counts[view.seat] || 0;
  if (!view.undo || !mine) return { long: "Undo", short: "Undo", title: "Nothing of yours to take back since the last die roll or secret reveal" };
  const many = (n) => (n === 1 ? "1 choice" : `${n} choices`);
  const isComputer = (s) => view.seats[s] && view.seats[s].player === "ai";
  const friends = Object.entries(counts).filter(([s]) => s !== view.seat && !isComputer(s));
  const computer = Object.keys(counts).some((s) => s !== view.seat && isComputer(s));
  let long;
  let short = `Undo ${many(mine)}`;
  if (friends.length) {
    const all = Object.values(counts).reduce((a, b) => a + b, 0);
    const each = Object.entries(counts).map(([s, n]) => `${s} ${n}`).join(", ");
    long = `Undo the last ${all} choices (${each})`;
    short = `Undo ${many(all)}`;
  } else {
    long = `Undo ${mine === 1 ? "your last choice" : `your last ${mine} choices`}${computer ? " and the computer's reply" : ""}`;
  }
  return { long, short, title: `${long}: everything since the last die roll or secret reveal` };
}

// Undo is offered only where it can be done: every other person's seat held on this screen.
function mayUndo(view, tokens) {
  if (!view.undo || !view.seat) return false;
  return Object.entries(view.seats || {}).every(([s, x]) => s === view.seat || x.player === "ai" || tokens[s]);
}

// ------------------------------------------------------------------ the page

function App() {
  const [view, setView] = useState(null);
  const [map, setMap] = useState(null);
  const [content, setContent] = useState(null);
  const [error, setError] = useState(null);
  const [selected, setSelected] = useState(null);
  const [previewed, setPreviewed] = useState(null);
  const [hover, setHover] = useState(null);
  const [spot, setSpot] = useState(null);
  const [hint, setHint] = useState(null);
  const [card, setCard] = useState(null);
  const [dice, setDice] = useState(null);
  const [badges, setBadges] = useState([]);
  const [live, setLive] = useState(false);
  const [sending, setSending] = useState(false);
  const [tab, setTab] = useState(null); // a phone's tab: a side, or the log
  const [openRules, setOpenRules] = useState({});
  const [showAll, setShowAll] = useState(false);
  const [handover, setHandover] = useState(null);
  const [replay, setReplay] = useState(location.hash === "#replay" ? { at: 0, total: 0, views: {} } : null);
  const tokens = useMemo(() => { takeSeatFromLink(GAME); return seatsOf(GAME); }, []);
  const queue = useRef([]);
  const shown = useRef(null);
  const socket = useRef(null);
  const lastEvent = useRef(-1);
  const known = useRef(null); // the newest view's version and the whole log up to it
  const pacing = useRef(0);
  const watchSeat = useRef(null);
  const replayAt = useRef(null);
  const list = useRef(null);
  useFadeWhileMore(list);

  const seatFor = useCallback((v) => {
    const held = Object.keys(tokens);
    if (!held.length) return null;
    if (v && v.decider && tokens[v.decider]) return v.decider;
    if (v && v.seat && tokens[v.seat]) return v.seat;
    return held[0];
  }, [tokens]);

  // the views arriving, shown one at a time so a rival's turn can be followed
  const show = useCallback((v) => {
    const was = shown.current;
    if (was && v.version < was.version) return;
    // at one version, the deciding seat's view wins over another held seat's (hot-seat)
    if (was && v.version === was.version && was.seat && was.seat === was.decider && v.seat !== v.decider) return;
    shown.current = v;
    setView(v);
    setError(null);
    setHint(null);
    const fresh = v.log.filter((e) => e.entry > lastEvent.current);
    if (fresh.length && lastEvent.current >= 0) {
      const d = [...fresh].reverse().find((e) => e.kind === "dice");
      if (d) { setDice(d); setTimeout(() => setDice((x) => (x === d ? null : x)), DICE_MS); }
      const found = [];
      for (const e of fresh) {
        const c = e.piece && v.state.characters.find((x) => x.id === e.piece);
        const square = e.square || (c && c.square);
        if (!square) continue;
        if (e.kind === "knocked_down") found.push({ square, text: "knocked down", color: "#d13a2f" });
        if (e.kind === "knocked_out") found.push({ square, text: "knocked out!", color: "#d13a2f" });
        if (e.kind === "returned") found.push({ square, text: "returns", color: "#2e7d4f" });
        if (e.kind === "point_marker" || e.kind === "bonus_completed") found.push({ square, text: `+${e.number}`, color: "#2e7d4f" });
        if (e.kind === "challenge_lost") {
          const t = v.state.characters.find((x) => x.id === e.other);
          if (t && t.square) found.push({ square: t.square, text: "missed", color: "#7b7166" });
        }
      }
      if (found.length) {
        const stamp = Date.now();
        setBadges(found.map((b, i) => ({ ...b, key: `${stamp}-${i}` })));
        setTimeout(() => setBadges((bs) => bs.filter((b) => !b.key.startsWith(String(stamp)))), 1700);
      }
    }
    lastEvent.current = Math.max(lastEvent.current, ...v.log.map((e) => e.entry), -1);
    const want = seatFor(v);
    if (want && socket.current && watchSeat.current !== want && v.decider === want) {
      watchSeat.current = want;
      socket.current.send(JSON.stringify({ type: "token", token: tokens[want] }));
    }
  }, [seatFor, tokens]);

  const pump = useCallback(() => {
    const now = Date.now();
    if (!queue.current.length) return;
    if (now < pacing.current) { setTimeout(pump, pacing.current - now + 5); return; }
    const v = queue.current.shift();
    const before = shown.current;
    show(v);
    const others = before && v.log.some((e) => e.entry >= before.version && v.decider !== null);
    pacing.current = Date.now() + (others && queue.current.length ? PACE_MS : 0);
    if (queue.current.length) setTimeout(pump, PACE_MS);
  }, [show]);

  // a view's log holds the events from entry `log_from` on: laid over the log already held,
  // it gives the whole log; a view older than the one held is dropped, and a gap (events
  // missed between the two) asks for the whole view again
  const merge = useCallback((v) => {
    const held = known.current;
    if (held && v.version < held.version) return null;
    const from = v.log_from || 0;
    if (from > (held ? held.version : 0)) {
      api(`/api/games/${encodeURIComponent(GAME)}`, { token: v.seat ? tokens[v.seat] : undefined })
        .then((full) => { known.current = null; receive(full, true); })
        .catch((e) => setError(e.message));
      return null;
    }
    const log = (held ? held.log.filter((e) => e.entry < from) : []).concat(v.log);
    known.current = { version: v.version, log };
    return { ...v, log };
  }, [tokens]);

  const receive = useCallback((got, immediate) => {
    const v = merge(got);
    if (!v) return;
    if (immediate) { queue.current = []; pacing.current = 0; show(v); return; }
    queue.current.push(v);
    pump();
  }, [show, pump, merge]);
  const since = () => (known.current ? `?since=${known.current.version}` : "");

  // the content, the map, and the live updates
  useEffect(() => {
    api("/api/content").then(setContent).catch((e) => setError(e.message));
  }, []);
  useEffect(() => {
    if (view && (!map || map.id !== view.state.map)) api(`/api/maps/${encodeURIComponent(view.state.map)}`).then(setMap).catch((e) => setError(e.message));
  }, [view && view.state.map]);
  useEffect(() => {
    if (replay) return undefined;
    let stop = false;
    let delay = 500;
    const connect = () => {
      const seat = seatFor(shown.current);
      watchSeat.current = seat;
      const token = seat ? tokens[seat] : null;
      const query = new URLSearchParams();
      if (token) query.set("token", token);
      if (known.current) query.set("since", String(known.current.version));
      const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/games/${encodeURIComponent(GAME)}/ws?${query}`;
      const ws = new WebSocket(url);
      socket.current = ws;
      ws.onopen = () => { setLive(true); delay = 500; onSocketOpen(ws); };
      ws.onmessage = (m) => {
        const data = JSON.parse(m.data);
        if (data.type === "view") receive(data.view, false);
        else if (data.type === "error") setError(data.error.message);
        else onSocketMessage(data);
      };
      ws.onclose = () => {
        setLive(false);
        socket.current = null;
        if (!stop) setTimeout(connect, delay);
        delay = Math.min(delay * 2, 8000);
      };
    };
    connect();
    return () => { stop = true; if (socket.current) socket.current.close(); };
  }, [replay]);

  // a replay: the spectator's view after each entry
  useEffect(() => {
    if (!replay) return;
    api(`/api/games/${encodeURIComponent(GAME)}/replay`)
      .then(async (r) => {
        const end = await api(`/api/games/${encodeURIComponent(GAME)}/at/${r.log.length}`);
        const first = end.log.find((e) => e.kind === "turn");
        const rounds = (first ? [{ round: 1, at: first.entry }] : [])
          .concat(end.log.filter((e) => e.kind === "round_begins").map((e) => ({ round: e.number, at: e.entry + 1 })));
        setReplay((x) => ({ ...x, total: r.log.length, rounds, at: x.total ? x.at : 0 }));
      })
      .catch((e) => { setError(e.message); setReplay(null); });
  }, [replay && replay.total === 0]);
  useEffect(() => {
    if (!replay || !replay.total) return;
    const at = replay.at;
    api(`/api/games/${encodeURIComponent(GAME)}/at/${at}`).then((v) => {
      const step = replayAt.current !== null && at === replayAt.current + 1;
      replayAt.current = at;
      if (!step) { setDice(null); setBadges([]); }
      lastEvent.current = step ? at - 2 : -1;
      shown.current = null;
      show({ ...v, seats: view ? view.seats : {} });
    }).catch((e) => setError(e.message));
  }, [replay && replay.at, replay && replay.total]);

  const seat = view ? (replay ? null : view.seat) : null;
  const deciding = view && !replay && view.seat && (view.deciders || [view.decider]).includes(view.seat);
  const choices = deciding ? byKindOrder(view, view.choices) : [];
  const listed = choices.filter((c) => showAll || !onBoardOnly(choices, c));

  // secret picks on one screen: hand the device over before the next seat sees its choices
  useEffect(() => {
    if (!view || replay) return;
    const secret = ["draft", "secret"].includes(view.state.phase);
    const held = Object.keys(tokens);
    if (secret && held.length > 1 && view.seat && view.decider === view.seat && handover !== view.seat) setHandover(`ask:${view.seat}`);
  }, [view && view.version, view && view.seat]);

  const choose = useCallback(async (choice) => {
    if (!view || sending) return;
    setSending(true);
    setSelected(null);
    setPreviewed(null);
    setHover(null);
    const body = { choice: choice.id, version: view.version };
    let tries = 0;
    for (;;) {
      try {
        const next = await api(`/api/games/${encodeURIComponent(GAME)}/choices${since()}`, { method: "POST", body, token: tokens[view.seat] });
        receive(next, true);
        break;
      } catch (e) {
        if (e.code === "offline" && tries < 3) { tries += 1; await new Promise((r) => setTimeout(r, 600 * tries)); continue; }
        if (e.code === "stale") {
          const fresh = await api(`/api/games/${encodeURIComponent(GAME)}`, { token: tokens[view.seat] }).catch(() => null);
          if (fresh) receive(fresh, true);
        }
        setError(e.message);
        break;
      }
    }
    setSending(false);
  }, [view, sending, tokens, receive]);

  const undo = useCallback(async () => {
    if (!view || !view.seat) return;
    const others = Object.entries(tokens).filter(([s]) => s !== view.seat).map(([, t]) => t);
    try {
      receive(await api(`/api/games/${encodeURIComponent(GAME)}/undo${since()}`, { method: "POST", body: { version: view.version, tokens: others }, token: tokens[view.seat] }), true);
    } catch (e) { setError(e.message); }
  }, [view, tokens, receive]);

  const askHint = useCallback(async () => {
    if (!deciding) return;
    setHint({ loading: true });
    try {
      const found = await api(`/api/games/${encodeURIComponent(GAME)}/hint`, { token: tokens[view.seat] });
      if (found.version === view.version) setHint({ list: found.hint });
      else setHint(null);
    } catch (e) { setHint(null); setError(e.message); }
  }, [deciding, view, tokens]);

  // what the board shows: the legal choices, and the selected character's preview
  const labels = useMemo(() => (view ? pieceLabels(view.state.characters) : {}), [view && view.state.characters.map((c) => c.name).join()]);
  const names = useCallback((id) => {
    if (!view) return id;
    const c = view.state.characters.find((x) => x.id === id) || view.state.things.find((x) => x.id === id);
    return c ? c.name : id;
  }, [view]);

  const squareOf = useCallback((id) => {
    const c = view && (view.state.characters.find((x) => x.id === id) || view.state.things.find((x) => x.id === id));
    return c ? c.square : null;
  }, [view]);

  const marks = useMemo(() => {
    const m = { squares: [], pieces: new Set(), moves: [], sees: [], targets: [], badges, selected };
    if (!view) return m;
    const pieceChoices = choices.filter((c) => pointsAt(c).piece && !pointsAt(c).square);
    for (const c of pieceChoices) m.pieces.add(pointsAt(c).piece);
    const squareChoices = choices.filter((c) => pointsAt(c).square);
    const placing = squareChoices.filter((c) => pointsAt(c).piece);
    const pieces = [...new Set(placing.map((c) => pointsAt(c).piece))];
    const chosen = selected && pieces.includes(selected) ? selected : pieces[0] || null;
    m.placing = chosen;
    m.placingPieces = pieces;
    if (chosen && !m.selected) m.selected = chosen;
    for (const id of pieces) m.pieces.add(id);
    for (const c of squareChoices) {
      const p = pointsAt(c);
      if (p.piece && pieces.length > 1 && p.piece !== chosen) continue;
      m.squares.push(p.square);
      m.moves.push(p.square);
    }
    for (const c of choices) {
      if ((c.kind === "challenge" || c.kind === "target") && squareOf(pointsAt(c).piece)) {
        m.targets.push({ piece: pointsAt(c).piece, odds: c.odds, square: squareOf(pointsAt(c).piece) });
      }
    }
    if (previewed && selected === previewed.piece) {
      m.moves = previewed.moves;
      m.sees = previewed.sees;
      m.targets = previewed.targets.map((t) => ({ ...t, square: squareOf(t.piece) }));
    }
    if (hover) {
      const p = pointsAt(hover);
      m.hover = { square: p.square || (p.piece && squareOf(p.piece)) };
    } else if (spot) {
      m.hover = { square: spot };
    }
    return m;
  }, [view, choices, selected, previewed, hover, spot, badges, squareOf]);

  const onSquare = useCallback((square) => {
    const here = choices.filter((c) => pointsAt(c).square === square);
    const pieces = [...new Set(here.map((c) => pointsAt(c).piece).filter(Boolean))];
    let pick = here;
    if (pieces.length > 1) pick = here.filter((c) => pointsAt(c).piece === (selected || pieces[0]));
    if (pick.length >= 1) choose(pick[0]);
  }, [choices, selected, choose]);

  const onPiece = useCallback(async (id) => {
    if (!view) return;
    const direct = choices.filter((c) => pointsAt(c).piece === id && !pointsAt(c).square);
    if (direct.length === 1 && direct[0].kind === "choose") {
      if (selected === id) { choose(direct[0]); return; }
      setSelected(id);
      setPreviewed(null);
      try {
        setPreviewed(await api(`/api/games/${encodeURIComponent(GAME)}/preview?piece=${encodeURIComponent(id)}`, { token: tokens[view.seat] }));
      } catch (e) { /* the preview is a help, not a rule */ }
      return;
    }
    if (direct.length === 1) { choose(direct[0]); return; }
    const placing = choices.filter((c) => pointsAt(c).piece === id && pointsAt(c).square);
    if (placing.length) { setSelected(id); return; }
    // a marker or a piece standing on a square the player may choose: the square is meant
    const square = squareOf(id);
    if (square && choices.some((c) => pointsAt(c).square === square)) { onSquare(square); return; }
    const c = view.state.characters.find((x) => x.id === id);
    if (c && c.card) setCard(c.card);
  }, [view, choices, selected, tokens, choose, squareOf, onSquare]);



  // number keys choose; Escape lets go of a selection. The listener reads the list of the last
  // render (an effect would only be renewed after the next paint), so a key pressed just after
  // the list changed (opened with "Every choice as a list", a new view) makes the choice shown.
  const keyed = useRef({ listed, choose, handover });
  keyed.current = { listed, choose, handover };
  useEffect(() => {
    const key = (e) => {
      if (e.target && (e.target.tagName === "INPUT" || e.target.tagName === "SELECT")) return;
      if (e.key === "Escape") { setSelected(null); setPreviewed(null); setCard(null); return; }
      const { listed: now, choose: make, handover: cover } = keyed.current;
      const n = Number(e.key);
      if (n >= 1 && n <= 9 && now[n - 1] && !(cover && cover.startsWith("ask:"))) make(now[n - 1]);
    };
    window.addEventListener("keydown", key);
    return () => window.removeEventListener("keydown", key);
  }, []);

  if (error && !view) return html`<div class="bar"><a class="brand" href="/">FUNKOVERSE</a></div><div class="panel" style="margin:20px">${error}</div>`;
  if (!view || !content) return html`<div class="bar"><a class="brand" href="/">FUNKOVERSE</a><span class="what">Loading…</span></div>`;

  const state = view.state;
  const held = Object.keys(tokens).length > 0; // a spectator holds no seat: no Hint, no Undo
  const me = (view.seats[seat] && view.seats[seat].side) || seat || Object.keys(tokens)[0] || state.seats[0];
  const others = state.seats.filter((s) => s !== me);
  const cards = content.cards;
  const target = state.target;
  const over = view.status === "finished";
  const selectedChoose = selected && choices.find((c) => c.kind === "choose" && c.piece === selected);
  // where a phone's board frame looks: the choice pointed at, the character selected or
  // taking its turn, else the middle of the squares to choose from, else the last event
  const column = (square) => { const p = xy(square); return p ? p[0] : null; };
  const spread = marks.moves.map(column).filter((x) => x !== null);
  const latest = [...view.log].reverse().find((e) => !e.undone && (e.square || squareOf(e.piece)));
  const focus = [marks.hover && marks.hover.square, selected && squareOf(selected), state.active && squareOf(state.active)]
    .map(column).find((x) => x !== null)
    ?? (spread.length ? (Math.min(...spread) + Math.max(...spread)) / 2 : latest ? column(latest.square || squareOf(latest.piece)) : null);

  const who = (id) => {
    const c = state.characters.find((x) => x.id === id);
    return { name: c ? c.name : id, label: labels[id] || "?", side: c ? c.side : "" };
  };
  const undoing = undoWords(view);
  const canUndo = mayUndo(view, tokens);

  const decision = html`<div class="panel decision" aria-live="polite">
    ${replay ? ReplayBar({ replay, setReplay, view }) : null}
    ${over ? html`<div class="banner"><h3>${view.winner} wins</h3>
      <div>${state.seats.map((s) => `${s} ${state.sides[s].points}`).join(" · ")}${target && target > 1 ? ` (${target} to win)` : ""} · round ${state.round}</div>
      ${replay ? null : html`<div style="margin-top:8px"><a href=${`/games/${GAME}#replay`} onClick=${() => { setReplay({ at: 0, total: 0, views: {} }); }}>Watch the replay</a> · <a href="/">New game</a></div>`}</div>` : null}
    ${!over ? html`<div class="prompt">${phaseWords(view)}</div>` : null}
    ${deciding ? html`<div class="choices" role="list" ref=${list}>
        ${selectedChoose ? html`<button class="choice primary" onClick=${() => choose(selectedChoose)}><span class="key">↵</span><span>Take the turn with ${names(selected)}</span><span></span></button>` : null}
        ${marks.placingPieces && marks.placingPieces.length ? html`<div class="tray" role="group" aria-label="the character to place">${marks.placingPieces.map((id) => {
          const c = state.characters.find((x) => x.id === id);
          return html`<button class=${"tray-piece" + (id === marks.placing ? " on" : "")} data-place-piece=${id} onClick=${() => setSelected(id)} aria-pressed=${id === marks.placing}>
            <span class="mini-piece" style=${`background:${sideColor(c ? c.side : "")}`}>${labels[id]}</span>${names(id)}</button>`;
        })}</div>` : null}
        ${boardHelp(choices, names(marks.placing)) ? html`<div class="small muted" style="padding:2px 4px">${boardHelp(choices, names(marks.placing))}</div>` : null}
        ${listed.map((c, i) => html`<button class=${"choice" + (hover === c ? " hot" : "")} data-choice=${c.id} onClick=${() => choose(c)}
            onMouseEnter=${() => setHover(c)} onMouseLeave=${() => setHover(null)} onFocus=${() => setHover(c)} onBlur=${() => setHover(null)} disabled=${sending}
            title=${c.label}>
          <span class="key">${i < 9 ? i + 1 : ""}</span><span>${shortLabel(view, c)}</span><span class="odds">${c.odds !== undefined ? pct(c.odds) : ""}</span></button>`)}
        ${choices.some((c) => onBoardOnly(choices, c)) ? html`<button class="choice" onClick=${() => setShowAll(!showAll)} aria-expanded=${showAll}><span class="key">…</span><span>${showAll ? "Fewer choices" : `Every choice as a list (${choices.length})`}</span><span></span></button>` : null}
      </div>` : !over && !replay ? html`<div class="waiting"><span class="spinner"></span>${view.seats[view.decider] && view.seats[view.decider].player === "ai" ? `${view.decider} (the computer) is thinking…` : `waiting for ${view.decider}`}</div>` : null}
    ${hint && hint.loading ? html`<div class="hint">Searching…</div>` : null}
    ${hint && hint.list ? html`<div class="hint"><b>Hint</b> (the hard level's search):<ol>${hint.list.map((h) => {
      const c = choices.find((x) => x.id === h.id);
      return html`<li><button class="link" onClick=${() => c && choose(c)} disabled=${!c} data-hint=${h.id}>${h.label}</button> <b>${pct(h.value)}</b> to win</li>`;
    })}</ol></div>` : null}
    ${error ? html`<div class="error" role="alert">${error}</div>` : null}
  </div>`;

  const whereOf = (e) => e.square || (e.piece && squareOf(e.piece)) || (e.other && squareOf(e.other)) || null;
  const log = html`<div class="panel log" aria-label="the log"><ol>${[...view.log].reverse().slice(0, 200).map((e, i) => html`<li class=${(e.undone ? "undone " : "") + (["knocked_out", "winner", "points", "target_reached", "flag_return"].includes(e.kind) ? "big" : "") + (spot && spot === whereOf(e) ? " spot" : "")}
      onMouseEnter=${() => setSpot(whereOf(e))} onMouseLeave=${() => setSpot(null)} onClick=${() => setSpot((x) => (x === whereOf(e) ? null : whereOf(e)))} data-entry=${e.entry}>
      <span>${e.text}${openRules[i] && e.rule ? html` <span class="rule-text">${e.rule}</span>` : null}</span>
      ${e.rule ? html`<button class="rule" onClick=${(ev) => { ev.stopPropagation(); setOpenRules((o) => ({ ...o, [i]: !o[i] })); }} title=${e.rule}>rule</button>` : null}</li>`)}</ol></div>`;

  const mine = me && state.sides[me] ? html`<${SidePanel} name=${me} state=${state} labels=${labels} mine=${!!tokens[me]} onCard=${(c) => setCard(c)} cards=${cards} />` : null;
  const theirs = others.map((s) => html`<${SidePanel} name=${s} state=${state} labels=${labels} mine=${!!tokens[s]} onCard=${(c) => setCard(c)} cards=${cards} />`);

  // on a phone the side panels and the log are tabs beneath the decision
  const open = tab || others[0] || "log";
  const phoneTab = (name) => (open === name ? "" : " hide-phone");
  const tabs = [[me, `${me}${tokens[me] ? " (you)" : ""}`], ...others.map((s) => [s, s]), ["log", "Log"]].filter(([s]) => s);

  return html`
    <div class="bar">
      <a class="brand" href="/" aria-label="Funkoverse: the lobby"><img src="/static/icon.svg" alt="" width="26" height="26" /><span>FUNKOVERSE</span></a>
      <span class="what"><b>${state.scenario_name}</b><span class="map-name"> on ${map ? map.name : state.map}</span><span class="sep"> · </span><span>${state.round ? `round ${state.round}` : "setup"}${replay ? " · replay" : ""}</span></span>
      ${dice ? html`<${Dice} event=${dice} who=${who} />` : null}
      <span class="tools">
        ${!replay ? html`<span class=${"dot-live" + (live ? "" : " off")} title=${live ? "live" : "reconnecting"}></span>` : null}
        ${!replay && held ? html`<button class="tool" onClick=${askHint} disabled=${!deciding}>Hint</button>` : null}
        ${!replay && held ? html`<button class="tool undo" onClick=${undo} disabled=${!canUndo || sending} title=${undoing.title} aria-label=${undoing.long}>
          <span class="long">${undoing.long}</span><span class="short">${undoing.short}</span></button>` : null}
        <button class="tool" onClick=${() => setCard(`scenario:${state.scenario}`)}>Rules</button>
      </span>
    </div>
    <main class="table" data-version=${view.version} data-decider=${view.decider || ""} data-seat=${view.seat || ""}
      data-phase=${state.phase} data-round=${state.round} data-status=${view.status} data-sending=${sending ? "1" : ""}>
      <div class="column left"><div class=${"mine" + phoneTab(me)}>${mine}</div><div class=${"log-slot" + phoneTab("log")}>${log}</div></div>
      <div class="board-wrap"><${BoardFrame} map=${map} focus=${focus}><${Board} map=${map} state=${state} labels=${labels} marks=${marks} onSquare=${onSquare} onPiece=${onPiece} hover=${marks.hover}
        rules=${content.scenarios.find((s) => s.id === state.scenario)} /><//></div>
      <div class="column right">${!replay ? html`<${OnlineBar} view=${view} tokens=${tokens} live=${live} game=${GAME} onView=${(v) => receive(v, true)} />` : null}${decision}
        <div class="tabs" role="tablist">${tabs.map(([s, words]) => html`<button role="tab" class=${open === s ? "on" : ""} aria-selected=${open === s} onClick=${() => setTab(s)}>
          ${s !== "log" ? html`<span class="side-chip" style=${`background:${sideColor(s)}`}></span>` : null}${words}</button>`)}</div>
        <div class="rivals">${others.map((s, i) => html`<div class=${phoneTab(s).trim()}>${theirs[i]}</div>`)}</div>
      </div>
    </main>
    ${card ? html`<${CardModal} card=${card} cards=${cards} onClose=${() => setCard(null)} />` : null}
    ${handover && handover.startsWith("ask:") ? html`<div class="handover"><div>${handover.slice(4)} chooses in secret now.<br />Pass the device to ${handover.slice(4)}.</div>
      <button class="big-button" onClick=${() => setHandover(handover.slice(4))}>I am ${handover.slice(4)}: show my choices</button></div>` : null}
  `;
}

function ReplayBar({ replay, setReplay, view }) {
  const go = (at) => setReplay((r) => ({ ...r, at: Math.max(0, Math.min(r.total, at)) }));
  return html`<div class="replay-bar">
    <div class="row">
      <button class="step" onClick=${() => go(0)} aria-label="the start">|◀</button>
      <button class="step" onClick=${() => go(replay.at - 1)} aria-label="back">◀</button>
      <input type="range" min="0" max=${replay.total} value=${replay.at} onInput=${(e) => go(Number(e.target.value))} aria-label="entry" />
      <button class="step" onClick=${() => go(replay.at + 1)} aria-label="next">▶</button>
      <button class="step" onClick=${() => go(replay.total)} aria-label="the end">▶|</button>
    </div>
    <div class="row">
      <select aria-label="jump to a round" value=${String((replay.rounds || []).filter((r) => r.at <= replay.at).map((r) => r.at).pop() ?? 0)}
          onChange=${(e) => go(Number(e.target.value))}>
        <option value="0">setup</option>
        ${(replay.rounds || []).map((r) => html`<option value=${String(r.at)}>round ${r.round}</option>`)}
      </select>
      <span class="small muted" data-replay-at=${replay.at}>entry ${replay.at} of ${replay.total}</span>
      <a class="small" style="margin-left:auto" href=${`/games/${GAME}`}>back to the game</a>
    </div>
  </div>`;
}

render(html`<${App} />`, document.getElementById("app"));
export { shortName, xy, ApiError };
