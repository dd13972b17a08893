// A replay of a finished game: the spectator's view after each entry of its log, stepped
// forward and back, dragged, or jumped to a round; entries an undo took back are marked
// (struck through in the log, named on the bar when the step is one of them).

import { html, useEffect, useRef, useState } from "./vendor/htm-preact.module.js";
import { api } from "./api.js";

export function useReplay(game, on, showNow, setError) {
  const [replay, setReplay] = useState(on ? { at: 0, total: 0, rounds: [], undone: new Set() } : null);
  const last = useRef(null);
  const path = `/api/games/${encodeURIComponent(game)}`;

  useEffect(() => {
    if (!replay || replay.total) return;
    Promise.all([api(`${path}/replay`), api(`${path}/rounds`)])
      .then(([r, chapters]) => setReplay((x) => ({ ...x, total: r.log.length, rounds: chapters.rounds, undone: new Set(chapters.undone) })))
      .catch((e) => { setError(e.message); setReplay(null); });
  }, [replay && replay.total === 0]);

  useEffect(() => {
    if (!replay || !replay.total) return;
    const at = replay.at;
    api(`${path}/at/${at}`).then((v) => {
      const step = last.current !== null && at === last.current + 1;
      last.current = at;
      showNow(v, step);
    }).catch((e) => setError(e.message));
  }, [replay && replay.at, replay && replay.total]);

  const go = (at) => setReplay((r) => ({ ...r, at: Math.max(0, Math.min(r.total, at)) }));
  const start = () => setReplay({ at: 0, total: 0, rounds: [], undone: new Set() });
  return { replay, go, start };
}

export function ReplayBar({ replay, go, game }) {
  const round = (replay.rounds || []).filter((r) => r.at <= replay.at).map((r) => r.at).pop() ?? 0;
  const undone = replay.at > 0 && replay.undone.has(replay.at - 1);
  return html`<div class="replay-bar">
    <div class="row">
      <button class="step" onClick=${() => go(0)} aria-label="the start">|◀</button>
      <button class="step" onClick=${() => go(replay.at - 1)} aria-label="back">◀</button>
      <input type="range" min="0" max=${replay.total} value=${replay.at} onInput=${(e) => go(Number(e.target.value))} aria-label="entry" />
      <button class="step" onClick=${() => go(replay.at + 1)} aria-label="next">▶</button>
      <button class="step" onClick=${() => go(replay.total)} aria-label="the end">▶|</button>
    </div>
    <div class="row">
      <select aria-label="jump to a round" value=${String(round)} onChange=${(e) => go(Number(e.target.value))}>
        <option value="0">setup</option>
        ${(replay.rounds || []).map((r) => html`<option value=${String(r.at)}>round ${r.round}</option>`)}
      </select>
      <span class="small muted" data-replay-at=${replay.at}>entry ${replay.at} of ${replay.total}</span>
      ${undone ? html`<span class="small undone-tag" data-undone="1">taken back by an undo</span>` : null}
      <a class="small" style="margin-left:auto" href=${`/games/${game}`}>back to the game</a>
    </div>
  </div>`;
}
