// Taps on the board: a character's first tap selects it and shows what it could do (the
// server's preview), its second takes its turn; a tap on one of a previewed character's
// squares or targets takes its turn and makes that move or challenge; any other tap makes
// the choice it means, lists the choices when it means several, or shows a character's
// card. What a tap means comes from marks.js (the choices' own `where`).

import { useCallback, useEffect, useMemo, useState } from "./vendor/htm-preact.module.js";
import { api } from "./api.js";
import { boardMarks, tapPiece, tapSquare } from "./marks.js";

export function useTaps({ game, view, choices, tokens, choose, makeNext, names, setCard, hover, spot, badges }) {
  const [selected, setSelected] = useState(null);
  const [previewed, setPreviewed] = useState(null);
  const [pointed, setPointed] = useState(null);

  const marks = useMemo(() => boardMarks({ state: view && view.state, choices, selected, previewed, hover, spot, badges }),
    [view, choices.length, selected, previewed, hover, spot, badges]);

  const letGo = useCallback(() => { setSelected(null); setPreviewed(null); setPointed(null); }, []);
  useEffect(() => setPointed(null), [view && view.version]); // a new view: nothing pointed at

  const make = useCallback((c, from) => { letGo(); return choose(c, from); }, [choose, letGo]);

  // a tap that means several choices lists them above the others
  const act = useCallback((found, label) => {
    if (found.length === 1) { make(found[0]); return true; }
    if (found.length > 1) { setPointed({ label, choices: found }); return true; }
    return false;
  }, [make]);

  const previewing = previewed && previewed.piece === selected;
  const throughPreview = useCallback(async (pick) => {
    const take = choices.find((c) => c.preview && c.where.piece === selected);
    if (!take) return;
    const after = await make(take);
    const next = after && after.choices && after.choices.find(pick);
    if (next) await makeNext(next, after);
  }, [choices, selected, make, makeNext]);

  const onSquare = useCallback((square) => {
    if (!view) return;
    if (previewing && previewed.moves.includes(square)) {
      throughPreview((c) => c.where.square === square && c.actor === selected);
      return;
    }
    act(tapSquare(view.state, choices, square, marks.placing, marks.placingPieces), `At ${square}:`);
  }, [view, choices, previewing, previewed, selected, marks, act, throughPreview]);

  const onPiece = useCallback(async (id) => {
    if (!view) return;
    if (previewing && previewed.targets.some((t) => t.piece === id)) {
      throughPreview((c) => c.where.piece === id && c.challenges && !c.cost);
      return;
    }
    const found = tapPiece(view.state, choices, id);
    if (found.length === 1 && found[0].preview) {
      if (selected === id) { make(found[0]); return; }
      setSelected(id);
      setPreviewed(null);
      try {
        setPreviewed(await api(`/api/games/${encodeURIComponent(game)}/preview?piece=${encodeURIComponent(id)}`, { token: tokens[view.seat] }));
      } catch (e) { /* the preview is a help, not a rule */ }
      return;
    }
    if (marks.placingPieces.includes(id) && !found.length) { setSelected(id); return; }
    if (act(found, `On ${names(id)}:`)) return;
    const c = view.state.characters.find((x) => x.id === id);
    if (c && c.card) setCard(c.card);
  }, [view, choices, selected, previewing, previewed, tokens, marks, act, make, names, throughPreview]);

  return { selected, setSelected, marks, pointed, setPointed, onSquare, onPiece, make, letGo };
}
