// The game page: draws what the server sends and offers only the legal choices it lists.
// No rule and no vocabulary live here: what a choice points at, what it costs, its odds and
// words, the prompt, what each die scored and what to mark on the board all come from the
// server. The page is put together from modules by concern: live.js and pacing.js (the
// connection, views shown at a pace a person can follow), online.js (who is at the table,
// clocks, resign, rematch, claims, the heartbeat), replay.js, marks.js (the board's marks),
// taps.js (what a tap means), decision.js, panels.js, log.js, dice.js and cards.js.

import { html, render, useCallback, useEffect, useMemo, useState } from "./vendor/htm-preact.module.js";
import { api, seatsOf, takeSeatFromLink, sideColor, pct } from "./api.js";
import { Board, pieceLabels, xy } from "./board.js";
import { BoardFrame } from "./frame.js";
import { CardModal, RuleModal } from "./cards.js";
import { Decision } from "./decision.js";
import { Dice } from "./dice.js";
import { decidersOf, useLive } from "./live.js";
import { Log } from "./log.js";
import { focusColumn, listOrder, onBoardOnly, squareOf } from "./marks.js";
import { ROLL_MS, rollsOf } from "./pacing.js";
import { MiniPiece, SidePanel } from "./panels.js";
import { ReplayBar, useReplay } from "./replay.js";
import { useTaps } from "./taps.js";
import { mayUndo, undoWords } from "./undo.js";
import { OnlineBar, onSocketMessage, onSocketOpen } from "./online.js";

const GAME = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const BADGE_MS = 1700;
const DICE_LINGER_MS = 2100;

// What the last step showed: its rolls one after another, and what happened where.
function useSteps() {
  const [dice, setDice] = useState(null);
  const [badges, setBadges] = useState([]);
  const onStep = useCallback((v, fresh) => {
    const rolls = rollsOf(fresh);
    rolls.forEach((d, i) => setTimeout(() => setDice(d), i * ROLL_MS));
    if (rolls.length) {
      const last = rolls[rolls.length - 1];
      setTimeout(() => setDice((x) => (x === last ? null : x)), (rolls.length - 1) * ROLL_MS + DICE_LINGER_MS);
    }
    const found = [];
    for (const e of fresh) {
      if (!e.mark) continue;
      const id = e.mark.on === "other" ? e.other : e.piece;
      const square = (e.mark.on === "piece" && e.square) || squareOf(v.state, id);
      if (square) found.push({ square, text: e.mark.text, color: { loss: "#c0392b", gain: "#2e7d4f" }[e.mark.tone] || "#6b5f50" });
    }
    if (found.length) {
      const stamp = `${v.version}-${Date.now()}`;
      setBadges(found.map((b, i) => ({ ...b, key: `${stamp}-${i}` })));
      setTimeout(() => setBadges((bs) => bs.filter((b) => !b.key.startsWith(stamp))), BADGE_MS);
    }
  }, []);
  return { dice, badges, onStep, clearSteps: () => { setDice(null); setBadges([]); } };
}

// The sides this browser plays: its seats', or their sides when a side has a seat per player.
function sidesHeld(view, tokens) {
  return new Set(Object.keys(tokens).map((s) => (view.seats[s] && view.seats[s].side) || s));
}

// Each side's points in the header, the rival's always in sight.
function Score({ state, yours }) {
  return html`<span class="score" aria-label="the score">${state.seats.map((s) => html`<span class="score-side" title=${`${s}: ${state.sides[s].points} points`}>
    <span class="side-chip" style=${`background:${sideColor(s)}`} aria-hidden="true"></span><span class="score-name">${s}${yours.has(s) && yours.size === 1 ? " (you)" : ""}</span>
    <b>${state.sides[s].points}</b></span>`)}${state.target ? html`<span class="score-target">of ${state.target}</span>` : null}</span>`;
}

function App() {
  const tokens = useMemo(() => { takeSeatFromLink(GAME); return seatsOf(GAME); }, []);
  const [content, setContent] = useState(null);
  const [map, setMap] = useState(null);
  const [hover, setHover] = useState(null);
  const [spot, setSpot] = useState(null);
  const [hint, setHint] = useState(null);
  const [card, setCard] = useState(null);
  const [rule, setRule] = useState(null);
  const [tab, setTab] = useState(null);
  const [showAll, setShowAll] = useState(false);
  const [handover, setHandover] = useState(null);
  const steps = useSteps();
  const [replayMode, setReplayMode] = useState(location.hash === "#replay");
  const game = useLive(GAME, tokens, steps.onStep, replayMode, { onOpen: onSocketOpen, onMessage: onSocketMessage });
  const { view, error, setError, sending } = game;
  const replaying = useReplay(GAME, replayMode, (v, step) => { if (!step) steps.clearSteps(); game.showNow({ ...v, seats: view ? view.seats : {} }, step); }, setError);
  const replay = replaying.replay;

  useEffect(() => { api("/api/content").then(setContent).catch((e) => setError(e.message)); }, []);
  useEffect(() => {
    if (view && (!map || map.id !== view.state.map)) api(`/api/maps/${encodeURIComponent(view.state.map)}`).then(setMap).catch((e) => setError(e.message));
  }, [view && view.state.map]);
  // each new view: no stale hint
  useEffect(() => { setHint(null); }, [view && view.version]);

  // choices are offered once the newest view is shown (never an older one's, while a turn
  // is still being shown); with a seat per player, either player of a side may be deciding
  const deciding = Boolean(view && !replay && view.seat && decidersOf(view).includes(view.seat) && !game.behind && !game.holding);
  const choices = deciding ? listOrder(view.state, view.choices) : [];
  const boardOnly = onBoardOnly(choices);
  const listed = choices.filter((c) => showAll || !boardOnly.has(c.id));

  // secret picks on one screen: hand the device over before the next seat sees its choices
  useEffect(() => {
    if (!view || replay) return;
    if (view.secret_pick && Object.keys(tokens).length > 1 && deciding && handover !== view.seat) setHandover(`ask:${view.seat}`);
  }, [view && view.version, view && view.seat, deciding]);

  const names = useCallback((id) => {
    if (!view) return id;
    const c = view.state.characters.find((x) => x.id === id) || view.state.things.find((x) => x.id === id);
    return c ? c.name : id;
  }, [view]);
  const labels = useMemo(() => (view ? pieceLabels(view.state.characters) : {}), [view && view.state.characters.map((c) => c.name).join()]);
  const taps = useTaps({ game: GAME, view, choices, tokens, choose: game.choose, makeNext: game.choose, names, setCard, hover, spot, badges: steps.badges });
  const { selected, setSelected, marks, pointed, setPointed } = taps;
  const choose = useCallback((c, from) => { setHover(null); return taps.make(c, from); }, [taps.make]);

  const askHint = useCallback(async () => {
    if (!deciding) return;
    setHint({ loading: true });
    try {
      const found = await api(`/api/games/${encodeURIComponent(GAME)}/hint`, { token: tokens[view.seat] });
      setHint(found.version === view.version ? { list: found.hint } : null);
    } catch (e) { setHint(null); setError(e.message); }
  }, [deciding, view, tokens]);

  // number keys choose (the first nine listed), Escape lets go of a selection or a dialog; the
  // listener reads the list of the last render
  const keyed = { listed, choose, handover, letGo: taps.letGo };
  const ref = useMemo(() => ({ current: keyed }), []);
  ref.current = keyed;
  useEffect(() => {
    const key = (e) => {
      if (e.target && ["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;
      if (e.key === "Escape") { ref.current.letGo(); setCard(null); setRule(null); return; }
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const { listed: now, choose: make, handover: cover } = ref.current;
      const n = Number(e.key);
      if (n >= 1 && n <= 9 && now[n - 1] && !(cover && cover.startsWith("ask:"))) make(now[n - 1]);
    };
    window.addEventListener("keydown", key);
    return () => window.removeEventListener("keydown", key);
  }, []);

  if (error && !view) return html`<div class="bar"><a class="brand" href="/">FUNKOVERSE</a></div><main class="panel" style="margin:20px" role="alert">${error}</main>`;
  if (!view || !content) return html`<div class="bar"><a class="brand" href="/">FUNKOVERSE</a><span class="what">Loading…</span></div><main></main>`;

  const state = view.state;
  // a spectator holds no seat: no Hint, no Undo
  const held = Object.keys(tokens).some((s) => view.seats[s]);
  const yours = sidesHeld(view, tokens);
  // the side this screen sits on: its seat's side when a side has a seat per player
  const seated = (!replay && view.seat) || Object.keys(tokens)[0];
  const me = (seated && view.seats[seated] && view.seats[seated].side) || seated || state.seats[0];
  const others = state.seats.filter((s) => s !== me);
  const cards = content.cards;
  const who = (id) => {
    const c = state.characters.find((x) => x.id === id);
    return { name: c ? c.name : id, label: labels[id] || "?", side: c ? c.side : "" };
  };
  const undoing = undoWords(view, tokens);
  const canUndo = !replay && mayUndo(view, tokens);
  const selectedChoose = selected && choices.find((c) => c.preview && c.where.piece === selected);
  const tray = marks.tray.length ? html`<div class="tray" role="group" aria-label="the piece to place">${marks.tray.map((id) => {
    const c = state.characters.find((x) => x.id === id);
    return html`<button class=${"tray-piece" + (id === marks.placing ? " on" : "")} data-place-piece=${id} onClick=${() => setSelected(id)} aria-pressed=${id === marks.placing}>
      ${c ? html`<${MiniPiece} c=${c} label=${labels[id]} size=${30} />` : null}${names(id)}</button>`;
  })}</div>` : null;

  const decision = html`<${Decision} view=${view} tokens=${tokens} deciding=${deciding} listed=${listed} choices=${choices} boardOnly=${boardOnly}
    showAll=${showAll} setShowAll=${setShowAll} hover=${hover} setHover=${setHover} choose=${choose} sending=${sending}
    selectedChoose=${selectedChoose} takeTurn=${() => choose(selectedChoose)} names=${names} pointed=${pointed} setPointed=${setPointed}
    hint=${hint} error=${error} behind=${game.behind} skip=${game.skip} onCard=${setCard} tray=${tray}
    replayBar=${replay ? html`<${ReplayBar} replay=${replay} go=${replaying.go} game=${GAME} />` : null}
    onReplay=${() => { setReplayMode(true); replaying.start(); }} replaying=${Boolean(replay)} />`;
  const log = html`<${Log} log=${view.log} state=${state} spot=${spot} setSpot=${setSpot} onRule=${setRule} undone=${replay && replay.undone} />`;
  const panel = (s) => html`<${SidePanel} name=${s} state=${state} labels=${labels} mine=${yours.has(s)} onCard=${setCard} cards=${cards} />`;
  const online = !replay ? html`<${OnlineBar} view=${view} tokens=${tokens} live=${game.live} game=${GAME} onView=${(v) => game.receive(v, true)} />` : null;

  // on a phone the side panels and the log are tabs beneath the decision
  const open = tab || others[0] || "log";
  const phone = (name) => (open === name ? "" : " hide-phone");
  const tabs = [[me, `${me}${yours.has(me) ? " (you)" : ""}`], ...others.map((s) => [s, s]), ["log", "Log"]].filter(([s]) => s);
  const focus = focusColumn(state, view.log, marks, selected, xy);

  return html`
    <header class="bar">
      <a class="brand" href="/" aria-label="Funkoverse: the lobby"><img src="/static/icon.svg" alt="" width="26" height="26" /><span>FUNKOVERSE</span></a>
      <span class="what"><b>${state.scenario_name}</b><span class="map-name"> on ${map ? map.name : state.map}</span><span class="sep"> · </span><span>${state.round ? `round ${state.round}` : "setup"}${replay ? " · replay" : ""}</span></span>
      <${Score} state=${state} yours=${yours} />
      ${steps.dice ? html`<${Dice} key=${steps.dice.entry} event=${steps.dice} who=${who} onFaces=${game.faced} />` : null}
      <span class="tools">
        ${!replay ? html`<span class=${"dot-live" + (game.live ? "" : " off")} role="img" aria-label=${game.live ? "live" : "reconnecting"} title=${game.live ? "live" : "reconnecting"}></span>` : null}
        ${!replay && held ? html`<button class="tool" onClick=${askHint} disabled=${!deciding}>Hint</button>` : null}
        ${!replay && held ? html`<button class="tool undo" onClick=${game.undo} disabled=${!canUndo || sending} title=${undoing.title} aria-label=${undoing.long}>
          <span class="long">${undoing.long}</span><span class="short">${undoing.short}</span></button>` : null}
        <button class="tool" onClick=${() => setCard(`scenario:${state.scenario}`)}>Rules</button>
      </span>
    </header>
    <main class="table" data-version=${view.version} data-decider=${view.decider || ""} data-seat=${view.seat || ""}
      data-phase=${state.phase} data-round=${state.round} data-status=${view.status} data-sending=${sending ? "1" : ""} data-behind=${game.behind || undefined} data-deciding=${deciding ? "1" : undefined}>
      <div class="slot-decision">${decision}${online}</div>
      <div class="board-wrap"><${BoardFrame} map=${map} focus=${focus}><${Board} map=${map} state=${state} labels=${labels} marks=${marks} onSquare=${taps.onSquare} onPiece=${taps.onPiece} hover=${marks.hover}
        rules=${content.scenarios.find((s) => s.id === state.scenario)} areas=${view.start_areas} /><//></div>
      <div class="tabs" role="tablist" aria-label="panels">${tabs.map(([s, words]) => html`<button role="tab" class=${open === s ? "on" : ""} aria-selected=${open === s} onClick=${() => setTab(s)}>
        ${s !== "log" ? html`<span class="side-chip" style=${`background:${sideColor(s)}`}></span>` : null}${words}</button>`)}</div>
      <div class=${"slot-log" + phone("log")}>${log}</div>
      <div class=${"slot-mine" + phone(me)}>${panel(me)}</div>
      <div class="slot-rivals">${others.map((s) => html`<div class=${phone(s).trim()}>${panel(s)}</div>`)}</div>
    </main>
    ${card ? html`<${CardModal} card=${card} cards=${cards} onClose=${() => setCard(null)} />` : null}
    ${rule ? html`<${RuleModal} cite=${rule} onClose=${() => setRule(null)} />` : null}
    ${handover && handover.startsWith("ask:") ? html`<div class="handover" role="dialog" aria-modal="true" aria-label="pass the device"><div>${handover.slice(4)} chooses in secret now.<br />Pass the device to ${handover.slice(4)}.</div>
      <button class="big-button" onClick=${() => setHandover(handover.slice(4))}>I am ${handover.slice(4)}: show my choices</button></div>` : null}
  `;
}

render(html`<${App} />`, document.getElementById("app"));
export { pct };
