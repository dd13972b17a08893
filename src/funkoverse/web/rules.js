// How to play: the rulebooks' sections, as the server ships them (/api/rules), with a list
// of the headings to jump to. A section is linked as /rules#<book>/<id>.

import { html, render, useEffect, useState } from "./vendor/htm-preact.module.js";
import { api } from "./api.js";

function Paragraphs({ text }) {
  return text.split("\n\n").map((p) => html`<p>${p}</p>`);
}

function Rules() {
  const [books, setBooks] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    api("/api/rules").then((r) => setBooks(r.books)).catch((e) => setError(e.message));
  }, []);
  useEffect(() => {
    if (!books || !location.hash) return;
    const el = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (el) el.scrollIntoView();
  }, [books]);
  const head = html`<header class="head"><h1>How to play</h1>
    <p class="tagline">The rulebooks, section by section. <a href="/">Back to the games</a></p></header>`;
  if (error) return html`<div class="rules-page">${head}<div class="panel" role="alert">${error}</div></div>`;
  if (!books) return html`<div class="rules-page">${head}</div>`;
  return html`<div class="rules-page">${head}
    <nav class="panel rules-toc" aria-label="the rulebooks' sections">${books.map((b) => html`<section>
      <h2>${b.box}</h2>
      <ul>${b.sections.filter((s) => s.part === s.title || !s.part).map((s) => html`<li><a href=${`#${b.id}/${s.id}`}>${s.title}</a></li>`)}</ul>
    </section>`)}</nav>
    <main class="rules-text">${books.map((b) => html`<article class="panel" aria-label=${b.title}>
      <h2>${b.title}</h2>
      ${b.sections.map((s) => html`<section id=${`${b.id}/${s.id}`} class=${s.part === s.title ? "top" : ""}>
        ${s.part === s.title ? html`<h3>${s.title}</h3>` : html`<h4>${s.title}</h4>`}
        <${Paragraphs} text=${s.text} />
      </section>`)}
    </article>`)}</main>
  </div>`;
}

render(html`<${Rules} />`, document.getElementById("app"));
