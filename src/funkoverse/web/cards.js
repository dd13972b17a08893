// Overlays: a card (a character's, an item's, a status card's, the scenario's) and the text
// of a rule the log cites, each as a dialog that Escape or Close shuts.

import { html, useEffect, useRef, useState } from "./vendor/htm-preact.module.js";
import { api } from "./api.js";

function Dialog({ label, onClose, children }) {
  const close = useRef(null);
  useEffect(() => {
    const was = document.activeElement;
    if (close.current) close.current.focus();
    return () => { if (was && was.focus) was.focus(); };
  }, []);
  return html`<div class="modal-back" onClick=${onClose}>
    <div class="modal" onClick=${(e) => e.stopPropagation()} role="dialog" aria-modal="true" aria-label=${label}>
      <button class="tool close" ref=${close} onClick=${onClose}>Close</button>
      ${children}
    </div></div>`;
}

function Paragraphs({ text }) {
  return (text || "").split("\n\n").map((p) => html`<p>${p}</p>`);
}

// A rule's text, fetched from the rulebooks the server ships (`cite`: the log's `rule`).
export function RuleText({ cite }) {
  const [found, setFound] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    api(`/api/rules/find?cite=${encodeURIComponent(cite)}`).then(setFound).catch((e) => setError(e.message));
  }, [cite]);
  if (error) return html`<p class="muted">${error}</p>`;
  if (!found) return html`<p class="muted">…</p>`;
  const where = found.book ? `/rules#${found.book}/${found.id}` : null;
  return html`<div class="rule-body">
    <div class="muted small">${found.box}${found.part && found.part !== found.title ? ` · ${found.part}` : ""}</div>
    <h4>${found.title}</h4>
    <${Paragraphs} text=${found.text} />
    ${where ? html`<p class="small"><a href=${where} target="_blank" rel="noopener">The whole rulebook: How to play</a></p>` : null}
  </div>`;
}

export function RuleModal({ cite, onClose }) {
  return html`<${Dialog} label=${`the rule: ${cite}`} onClose=${onClose}>
    <h3>${cite}</h3>
    <${RuleText} cite=${cite} />
  </${Dialog}>`;
}

export function CardModal({ card, cards, onClose }) {
  const c = cards[card];
  if (!c) return null;
  return html`<${Dialog} label=${c.name} onClose=${onClose}>
    <h3>${c.name}</h3>
    <div class="muted small">${c.kind} · ${c.box}${c.defense !== undefined ? ` · defense ${c.defense}` : ""}${c.dots && c.dots.length ? " · ability dots " : ""}
      ${(c.dots || []).map((d) => html`<span class=${`token ${d}`} title=${`${d} ability token`} style="width:12px;height:12px;vertical-align:-1px;margin-left:2px"></span>`)}</div>
    ${c.kind === "basic character" ? html`<${RuleText} cite="Basic Characters" />` : null}
    ${(c.abilities || []).map((a) => html`<div class="ability"><b>${a.name}${a.challenge ? " (a challenge action)" : ""} <span class=${`token ${a.type}`} style="width:12px;height:12px;vertical-align:-1px"></span> ${a.type} ${a.cost}</b>${a.text}</div>`)}
    ${c.trait ? html`<div class="ability"><b>Trait: ${c.trait.name}</b>${c.trait.text}</div>` : null}
    ${c.text ? html`<p>${c.text}</p>` : null}
    ${card.startsWith("scenario:") ? html`<p class="small"><a href="/rules" target="_blank" rel="noopener">How to play: the rulebooks</a></p>` : null}
  </${Dialog}>`;
}
