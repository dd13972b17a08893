// The connection to one game: its views over the WebSocket (or from a choice's answer),
// merged by `log_from` (server-api.md, "Views that stay small") and shown at the pace of
// pacing.js; the choices and undos this browser sends.

import { useCallback, useEffect, useRef, useState } from "./vendor/htm-preact.module.js";
import { api } from "./api.js";
import { usePacing } from "./pacing.js";

// The seats that may act in a view: `deciders` (two when either player of a side, each with
// a seat, may choose which character takes the turn), else the one decider.
export function decidersOf(v) {
  if (!v) return [];
  return v.deciders || (v.decider ? [v.decider] : []);
}

// The seat this browser plays in a view: a deciding one when it holds one (hot-seat).
function seatFor(tokens, v) {
  const held = Object.keys(tokens);
  if (!held.length) return null;
  const deciding = decidersOf(v).find((s) => tokens[s]);
  if (deciding) return deciding;
  if (v && v.seat && tokens[v.seat]) return v.seat;
  return held[0];
}

// A view's log holds the events from entry `log_from` on: laid over the log already held, it
// gives the whole log. A view older than the one held is dropped (null); a gap (events
// missed between the two) is answered "gap".
export function merge(held, v) {
  if (held && v.version < held.version) return null;
  const from = v.log_from || 0;
  if (from > (held ? held.version : 0)) return "gap";
  const log = (held ? held.log.filter((e) => e.entry < from) : []).concat(v.log);
  return { ...v, log };
}

// `onStep(view, fresh)` is told each view shown and the events it adds (to draw the dice
// and what happened where). `off`: no live updates (a replay). `hooks.onOpen(ws)` is told
// each socket opened and `hooks.onMessage(data)` each message that is neither a view nor an
// error (online.js: the heartbeat's pongs, a rematch offered).
export function useLive(game, tokens, onStep, off, hooks = {}) {
  const [view, setView] = useState(null);
  const [live, setLive] = useState(false);
  const [error, setError] = useState(null);
  const [sending, setSending] = useState(false);
  const shown = useRef(null);
  const known = useRef(null);
  const lastEvent = useRef(-1);
  const socket = useRef(null);
  const watchSeat = useRef(null);
  const stepRef = useRef(onStep);
  stepRef.current = onStep;
  const hooksRef = useRef(hooks);
  hooksRef.current = hooks;
  const path = `/api/games/${encodeURIComponent(game)}`;

  const show = useCallback((v) => {
    const was = shown.current;
    if (was && v.version < was.version) return [];
    // at one version, the deciding seat's view wins over another held seat's (hot-seat)
    if (was && v.version === was.version && was.seat && decidersOf(was).includes(was.seat) && !decidersOf(v).includes(v.seat)) return [];
    shown.current = v;
    setView(v);
    setError(null);
    const fresh = lastEvent.current >= 0 ? v.log.filter((e) => e.entry > lastEvent.current) : [];
    lastEvent.current = Math.max(lastEvent.current, ...v.log.map((e) => e.entry), -1);
    stepRef.current(v, fresh);
    const want = seatFor(tokens, v);
    if (want && socket.current && watchSeat.current !== want && decidersOf(v).includes(want)) {
      watchSeat.current = want;
      socket.current.send(JSON.stringify({ type: "token", token: tokens[want] }));
    }
    return fresh;
  }, [tokens]);

  const pacing = usePacing(show);

  const receive = useCallback((got, now) => {
    const v = merge(known.current, got);
    if (v === null) return;
    if (v === "gap") {
      api(path, { token: got.seat ? tokens[got.seat] : undefined })
        .then((full) => { known.current = null; receive(full, true); })
        .catch((e) => setError(e.message));
      return;
    }
    known.current = { version: v.version, log: v.log };
    pacing.add(v, now);
  }, [tokens, pacing.add]);

  const receiveRef = useRef(receive);
  receiveRef.current = receive;
  const since = () => (known.current ? `?since=${known.current.version}` : "");

  useEffect(() => {
    if (off) return undefined;
    let stop = false;
    let delay = 500;
    const connect = () => {
      const seat = seatFor(tokens, shown.current);
      watchSeat.current = seat;
      const query = new URLSearchParams();
      if (seat) query.set("token", tokens[seat]);
      if (known.current) query.set("since", String(known.current.version));
      const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}/ws?${query}`);
      socket.current = ws;
      ws.onopen = () => {
        setLive(true);
        delay = 500;
        if (hooksRef.current.onOpen) hooksRef.current.onOpen(ws);
      };
      ws.onmessage = (m) => {
        const data = JSON.parse(m.data);
        if (data.type === "view") receiveRef.current(data.view, false);
        else if (data.type === "error") setError(data.error.message);
        else if (hooksRef.current.onMessage) hooksRef.current.onMessage(data);
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
  }, [off]);

  // a choice, retried while the server cannot be reached; a stale one shows the game as it is
  const choose = useCallback(async (choice, from) => {
    const at = from || shown.current;
    if (!at || sending) return null;
    setSending(true);
    const body = { choice: choice.id, version: at.version };
    let answer = null;
    for (let tries = 0; ; tries += 1) {
      try {
        answer = await api(`${path}/choices${since()}`, { method: "POST", body, token: tokens[at.seat] });
        receive(answer, true);
        break;
      } catch (e) {
        if (e.code === "offline" && tries < 3) { await new Promise((r) => setTimeout(r, 600 * (tries + 1))); continue; }
        if (e.code === "stale") {
          const fresh = await api(path, { token: tokens[at.seat] }).catch(() => null);
          if (fresh) { known.current = null; receive(fresh, true); }
        }
        setError(e.message);
        break;
      }
    }
    setSending(false);
    return answer ? shown.current : null;
  }, [sending, tokens, receive]);

  const undo = useCallback(async () => {
    const at = shown.current;
    if (!at || !at.seat) return;
    const others = Object.entries(tokens).filter(([s]) => s !== at.seat).map(([, t]) => t);
    try {
      receive(await api(`${path}/undo${since()}`, { method: "POST", body: { version: at.version, tokens: others }, token: tokens[at.seat] }), true);
    } catch (e) { setError(e.message); }
  }, [tokens, receive]);

  // a replay shows views it fetched itself, at once
  const showNow = useCallback((v, step) => {
    lastEvent.current = step ? v.version - 2 : -1;
    shown.current = null;
    show(v);
  }, [show]);

  return { view, live, error, setError, sending, choose, undo, showNow, receive, behind: pacing.behind, holding: pacing.holding, skip: pacing.skip, faced: pacing.faced, lastEvent };
}
