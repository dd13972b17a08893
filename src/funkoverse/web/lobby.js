// The lobby: make a game (scenario, map, teams, who holds each seat) and find the games
// this browser plays in.

import { html, render, useEffect, useMemo, useState } from "./vendor/htm-preact.module.js";
import { api, allSeats, keepSeats, sideColor } from "./api.js";
import { ClockChoice, CopyLink, clockOf, sortGames } from "./online.js";

const WHO = [
  ["me", "You, here"],
  ["hotseat", "A friend on this screen"],
  ["online", "A friend online (invite link)"],
  ["ai", "The computer"],
];

function seatsFor(scenario, players) {
  if (!scenario) return ["dark", "light"];
  if (scenario.free_for_all) return ["seat1", "seat2", "seat3", "seat4"].slice(0, players || 3);
  return ["dark", "light"];
}

// A new game in two panels: what is played (box, scenario, map, sizes) on the left, who
// plays it (the seats, their characters) and the Start button on the right, so that the
// whole form fits a desktop window; `side` follows them in the right column.
function NewGame({ content, onMade, side }) {
  // a newcomer's order: the first games, then the rulebooks' scenarios, then house-made ones
  const rank = (s) => (s.first_game ? 0 : s.box === "house-made" ? 2 : 1);
  const [box, setBox] = useState("");
  const boxes = [...new Set(content.characters.map((c) => c.box).filter((b) => b !== "house-made"))];
  const inBox = (x) => !box || x.box === box || x.box === "house-made";
  const scenarios = content.scenarios.filter((s) => s.id !== "none" && inBox(s)).sort((a, b) => rank(a) - rank(b));
  const [sid, setSid] = useState("flags");
  const [mode, setMode] = useState("standard");
  const scenario = scenarios.find((s) => s.id === sid) || scenarios[0];
  const [map, setMap] = useState("");
  const [size, setSize] = useState(3);
  const [clock, setClock] = useState("");
  const [perPlayer, setPerPlayer] = useState(false);
  const [players, setPlayers] = useState(2);
  const [draft, setDraft] = useState(false);
  const [seed, setSeed] = useState("");
  const [who, setWho] = useState({ dark: "me", light: "ai", seat1: "me", seat2: "ai", seat3: "ai", seat4: "ai" });
  const [level, setLevel] = useState({ dark: "normal", light: "normal", seat1: "normal", seat2: "normal", seat3: "normal", seat4: "normal" });
  const [teams, setTeams] = useState({});
  const [items, setItems] = useState({});
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const ffa = scenario && scenario.free_for_all;
  const ultimate = scenario && scenario.ultimate;
  const seats = seatsFor(scenario, ffa ? players : 2);
  const sizes = scenario ? scenario.sizes : [2, 3];
  const characters = content.characters.filter(inBox);
  const itemCards = content.items;

  // a scenario chosen: its own maps and team sizes
  const pickScenario = (s) => {
    setSid(s.id);
    setMap("");
    if (!s.sizes.includes(size)) setSize(s.sizes[s.sizes.length - 1]);
    if (s.free_for_all && players < 3) setPlayers(3);
  };

  const toggle = (side, cid) => {
    setTeams((t) => {
      const now = t[side] || [];
      return { ...t, [side]: now.includes(cid) ? now.filter((c) => c !== cid) : [...now, cid] };
    });
  };

  const create = async () => {
    setBusy(true);
    setError(null);
    const body = { scenario: scenario.id, seats: {} };
    if (clock) body.clock = clockOf(clock);
    if (map) body.map = map;
    if (!ultimate && !ffa && !(scenario && scenario.first_game)) body.size = size;
    if (ffa) body.players = players;
    if (!ffa && !ultimate && mode === "teams") { body.players = 4; body.mode = "teams"; if (perPlayer) body.seating = "per-player"; }
    if (draft) { body.draft = size; delete body.size; }
    if (seed !== "") body.seed = Number(seed);
    for (const s of seats) {
      body.seats[s] = who[s] === "ai" ? { player: "ai", level: level[s] } : { player: "human" };
    }
    if (!draft) {
      const chosen = Object.fromEntries(Object.entries(teams).filter(([s, ids]) => seats.includes(s) && ids.length));
      if (Object.keys(chosen).length) body.teams = chosen;
      const given = {};
      for (const [s, pair] of Object.entries(items)) {
        if (pair && pair.holder && pair.item && chosen[s]) given[s] = { [pair.holder]: pair.item };
      }
      if (Object.keys(given).length) body.items = given;
    }
    try {
      const made = await api("/api/games", { method: "POST", body });
      const kept = {};
      const invites = {};
      for (const [s, { token }] of Object.entries(made.seats)) {
        // a seat per player (dark-1, dark-2): the side's second player is always invited
        const side = s.split("-")[0];
        const online = (who[s] || who[side]) === "online" || (s !== side && s.endsWith("-2"));
        if (online) invites[s] = `${location.origin}/games/${made.game}#seat=${s}&token=${token}`;
        else kept[s] = token;
      }
      keepSeats(made.game, kept);
      onMade({ game: made.game, invites, spectate: `${location.origin}${made.spectate}` });
    } catch (e) {
      setError(e.message);
    }
    setBusy(false);
  };

  return html`<section class="panel new-game" aria-label="a new game">
    <h2>A new game</h2>
    <div class="field"><span>Box</span>
      <div class="boxes" role="group" aria-label="box">${["", ...boxes].map((b) => html`<button class=${"pick" + (box === b ? " on" : "")} aria-pressed=${box === b} onClick=${() => setBox(b)} data-box=${b || "all"}>${b || "Every box"}</button>`)}</div>
    </div>
    <div class="field"><span>Scenario</span>
      <div class="scenarios" role="group" aria-label="scenario">${scenarios.map((s) => html`<button class=${"scenario" + (scenario && s.id === scenario.id ? " on" : "")} aria-pressed=${Boolean(scenario && s.id === scenario.id)} onClick=${() => pickScenario(s)} data-scenario=${s.id}>
        <b>${s.name}</b><small>${s.box}</small></button>`)}</div>
      ${scenario ? html`<small class="muted">${scenario.text}</small>` : null}
    </div>
    <div class="options">
      <label class="field"><span>Map</span>
        <select value=${map} onChange=${(e) => setMap(e.target.value)} name="map">
          <option value="">drawn from the seed</option>
          ${(scenario ? scenario.maps : []).map((m) => html`<option value=${m}>${(content.maps.find((x) => x.id === m) || { name: m }).name}</option>`)}
        </select></label>
      ${!ultimate && !(scenario && scenario.first_game) ? html`<label class="field"><span>Characters a side</span>
        <select value=${size} onChange=${(e) => setSize(Number(e.target.value))} name="size">${sizes.map((n) => html`<option value=${n}>${n}</option>`)}</select></label>` : null}
      ${!ffa && !ultimate && !(scenario && scenario.first_game) ? html`<label class="field"><span>Way to play</span>
        <select value=${mode} onChange=${(e) => setMode(e.target.value)} name="mode">
          ${content.modes.filter((m) => m.id === "standard" || m.id === "teams").map((m) => html`<option value=${m.id} title=${m.text}>${m.name}</option>`)}
        </select></label>` : null}
      ${ffa ? html`<label class="field"><span>Players</span>
        <select value=${players} onChange=${(e) => setPlayers(Number(e.target.value))} name="players"><option value="3">3</option><option value="4">4</option></select></label>` : null}
      <${ClockChoice} value=${clock} onChange=${setClock} />
      ${mode === "teams" && !ffa && !ultimate ? html`<label class="secret-draft"><input type="checkbox" name="per-player" checked=${perPlayer} onChange=${(e) => setPerPlayer(e.target.checked)} /> a seat and a link for each of the four players</label>` : null}
      <label class="field"><span>Seed</span><input type="number" min="0" placeholder="any" value=${seed} onInput=${(e) => setSeed(e.target.value)} /></label>
      ${!ffa && !ultimate && !(scenario && scenario.first_game) ? html`<label class="secret-draft">
        <input type="checkbox" checked=${draft} onChange=${(e) => setDraft(e.target.checked)} /> choose the characters${size === 3 ? " and an item" : ""} in the game, in secret</label>` : null}
    </div>
  </section>
  <div class="lobby-side">
  <section class="panel who" aria-label="who plays">
    <h2>Who plays</h2>
      <div class="seats">${seats.map((s) => html`<div class="seat" data-seat=${s}>
        <h4><span class="side-chip" style=${`width:14px;height:14px;border-radius:50%;background:${sideColor(s)};display:inline-block`}></span>${s}</h4>
        <select value=${who[s]} onChange=${(e) => setWho({ ...who, [s]: e.target.value })} name=${`who-${s}`} aria-label=${`who plays ${s}`}>
          ${WHO.map(([v, t]) => html`<option value=${v}>${t}</option>`)}</select>
        ${who[s] === "ai" ? html`<select value=${level[s]} onChange=${(e) => setLevel({ ...level, [s]: e.target.value })} name=${`level-${s}`} aria-label=${`the computer's level for ${s}`} style="margin-top:6px;width:100%">
          ${content.levels.map((l) => html`<option value=${l}>${l}</option>`)}</select>` : null}
        ${!draft && !ultimate ? html`<div class="small muted" style="margin-top:8px">Characters (none chosen: drawn)</div>
          <div class="picker" role="group" aria-label=${`${s}'s characters`}>${characters.filter((c) => c.box !== "house-made").map((c) => html`<button class=${"pick" + ((teams[s] || []).includes(c.id) ? " on" : "")} aria-pressed=${(teams[s] || []).includes(c.id)} onClick=${() => toggle(s, c.id)}>${c.name}</button>`)}</div>
          ${(teams[s] || []).length ? html`<div class="small muted" style="margin-top:6px">Item</div>
            <select aria-label=${`an item for ${s}`} value=${(items[s] || {}).item || ""} onChange=${(e) => setItems({ ...items, [s]: { holder: (items[s] || {}).holder || (teams[s] || []).find((c) => !characters.find((x) => x.id === c).basic), item: e.target.value } })}>
              <option value="">none</option>${itemCards.filter((i) => i.box !== "house-made").map((i) => html`<option value=${i.id}>${i.name}</option>`)}</select>` : null}` : null}
      </div>`)}</div>
    <button class="create" onClick=${create} disabled=${busy}>${busy ? "Setting up…" : "Start the game"}</button>
    ${error ? html`<div class="error" role="alert">${error}</div>` : null}
  </section>
  ${side}
  </div>`;
}

// A finished game's result in this browser's words: "You won 6–3 in round 5".
function resultWords(r, held) {
  if (!r) return "finished";
  const score = Object.values(r.points).sort((a, b) => b - a).join("–");
  const mine = Object.keys(held);
  const who = mine.length === 1 ? (r.winner === mine[0] ? "You won" : `${r.winner} won, you lost`) : `${r.winner} won`;
  return `${who} ${score}, round ${r.round}`;
}

function Games({ content, games }) {
  const mine = allSeats();
  const names = Object.fromEntries(content.scenarios.map((s) => [s.id, s.name]));
  const maps = Object.fromEntries(content.maps.map((m) => [m.id, m.name]));
  const [results, setResults] = useState({});
  // each finished game's result, asked once
  useEffect(() => {
    for (const g of games) {
      if (g.status !== "finished" || g.game in results) continue;
      setResults((r) => ({ ...r, [g.game]: null }));
      api(`/api/games/${encodeURIComponent(g.game)}/result`).then((r) => setResults((x) => ({ ...x, [g.game]: r }))).catch(() => {});
    }
  }, [games]);
  if (!games.length) return html`<section class="panel games-panel" aria-label="games"><h2>Games</h2><p class="muted">No games yet: start one.</p></section>`;
  return html`<section class="panel games-panel" aria-label="games"><h2>Games</h2>
    <table class="games"><thead><tr><th>Game</th><th>Status</th><th>Turn</th><th><span class="visually-hidden">links</span></th></tr></thead><tbody>
    ${sortGames(games, mine).map((g) => {
      const held = mine[g.game] || {};
      const yours = g.turn && held[g.turn];
      return html`<tr class=${yours ? "mine-turn" : ""} data-game=${g.game}>
        <td><b>${names[g.scenario] || g.scenario}</b><br /><span class="small muted">${maps[g.map] || g.map} · ${Object.entries(g.seats).map(([s, x]) => `${s}: ${x.player === "ai" ? x.level || "computer" : held[s] ? "you" : "a person"}`).join(", ")}</span></td>
        <td>${g.status === "finished" ? html`<span class="result">${resultWords(results[g.game], held)}</span>` : g.status}</td>
        <td>${g.status === "finished" ? "" : yours ? html`<span class="turn-flag">your turn</span>` : g.turn || ""}</td>
        <td><a href=${`/games/${g.game}`}>${Object.keys(held).length ? "play" : "watch"}</a>${g.status === "finished" ? html` · <a href=${`/games/${g.game}#replay`}>replay</a>` : null}</td>
      </tr>`;
    })}</tbody></table></section>`;
}

function Lobby() {
  const [content, setContent] = useState(null);
  const [games, setGames] = useState([]);
  const [made, setMade] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    api("/api/content").then(setContent).catch((e) => setError(e.message));
    const load = () => api("/api/games").then((g) => setGames(g.games)).catch(() => {});
    load();
    const t = setInterval(load, 5000);
    return () => clearInterval(t);
  }, []);
  const onMade = (m) => {
    if (!Object.keys(m.invites).length) { location.href = `/games/${m.game}`; return; }
    setMade(m);
  };
  if (error) return html`<main class="lobby"><div class="panel" role="alert">${error}</div></main>`;
  const learned = localStorage.getItem("funkoverse.learned");
  const head = html`<header class="head"><h1>Funkoverse</h1>
    <a class=${"learn-cta" + (learned ? " done" : "")} href="/learn">${learned ? "Learn to play again" : html`<span>New here? <b>Learn to play</b>: a guided first game</span>`}</a>
    <p class="tagline">The strategy game of the rulebooks, every rule enforced and every chance shown: against the computer, on one screen with a friend, or online. <a href="/rules">How to play</a> · <a href="/report">The balance report</a></p></header>`;
  if (!content) return html`<main class="lobby">${head}</main>`;
  const links = made ? html`<section class="panel links">
    <b>Send each friend their link</b> (it holds their seat's secret token; keep it to them):
    ${Object.entries(made.invites).map(([s, url]) => html`<${CopyLink} seat=${s} url=${url} />`)}
    <div style="margin-top:6px">Anyone may watch: <code data-spectate="1">${made.spectate}</code></div>
    <div style="margin-top:10px"><a class="tool" style="color:#211d1a;border-color:#bbb;display:inline-flex;align-items:center;text-decoration:none" href=${`/games/${made.game}`}>Go to the game</a></div>
  </section>` : null;
  return html`<main class="lobby">${head}
    <${NewGame} content=${content} onMade=${onMade} side=${html`${links}<${Games} content=${content} games=${games} />`} />
  </main>`;
}

render(html`<${Lobby} />`, document.getElementById("app"));
export { useMemo };
