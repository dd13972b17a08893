// What the board shows of the legal choices, and which choices a tap on the board means.
// Every choice says what to tap for it (`where`: a piece, a square), what it moves or places
// (`actor`) and the odds of the challenges it can lead to; nothing here knows a kind of
// choice.

// Where a piece or marker stands.
export function squareOf(state, id) {
  const c = state.characters.find((x) => x.id === id) || state.things.find((x) => x.id === id);
  return c ? c.square : null;
}

// The pieces whose choices are made square by square (placing, returning, pushing), and the
// one whose squares are shown: the one selected, else the first.
export function actorsOf(choices, selected) {
  const actors = [...new Set(choices.filter((c) => c.where.square && c.actor).map((c) => c.actor))];
  return { actors, actor: actors.includes(selected) ? selected : actors[0] || null };
}

// Squares to tap: the choices with a square, of the actor shown when several pieces have some.
export function squareChoices(choices, actor, actors) {
  return choices.filter((c) => c.where.square && (actors.length < 2 || !c.actor || c.actor === actor));
}

// A choice that is a piece's own square (moving 0 squares) is never what tapping the piece
// itself means.
function stays(state, c) {
  return c.actor && c.where.square && squareOf(state, c.actor) === c.where.square;
}

// The choices a tap on a piece (or marker) means: those aimed at it, else those of its square
// (a marker under a character: tapping the character reaches the marker's choices).
export function tapPiece(state, choices, id) {
  const aimed = choices.filter((c) => c.where.piece === id);
  if (aimed.length) return aimed;
  const square = squareOf(state, id);
  return square ? choices.filter((c) => c.where.square === square && c.where.piece !== id && !stays(state, c)) : [];
}

// The choices a tap on a square means: those of the square, else those aimed at what stands
// on it (a character on a point marker: the character's, then the marker's).
export function tapSquare(state, choices, square, actor, actors) {
  const here = squareChoices(choices, actor, actors).filter((c) => c.where.square === square);
  if (here.length) return here;
  const standing = [...state.characters, ...state.things].filter((p) => p.square === square).map((p) => p.id);
  return choices.filter((c) => standing.includes(c.where.piece));
}

// The rings with odds: the target of each choice aimed at a piece that challenges it (the
// plain challenge's odds where there is one, else the best), and every target of the choice
// pointed at.
function targets(state, choices, hover) {
  const found = {};
  const ring = (piece, odds, plain) => {
    const square = squareOf(state, piece);
    if (!square) return;
    const was = found[piece];
    if (!was || (plain && !was.plain) || (plain === was.plain && odds > was.odds)) found[piece] = { piece, square, odds, plain };
  };
  for (const c of choices) {
    for (const t of c.challenges || []) if (t.target === c.where.piece) ring(t.target, t.odds, !c.cost);
  }
  if (hover) for (const t of hover.challenges || []) ring(t.target, t.odds, false);
  return Object.values(found);
}

// Everything the board draws of the decision: the squares and pieces to tap (with their
// words for a screen reader), the move squares (and which keep a target), the preview of a
// selected character, the rings with odds, the square pointed at.
export function boardMarks({ state, choices, selected, previewed, hover, spot, badges }) {
  const m = { squares: [], pieces: new Set(), moves: [], sees: [], targets: [], badges, selected, keeps: {}, squareWords: {}, pieceWords: {}, tray: [], placingPieces: [] };
  if (!state) return m;
  const { actors, actor } = actorsOf(choices, selected);
  m.placing = actor;
  m.placingPieces = actors;
  // a tray to pick which piece is placed or returned (not the character taking its turn)
  m.tray = actors.filter((a) => a !== state.active);
  if (actor && !m.selected) m.selected = actor;
  for (const c of choices) {
    if (c.where.piece) {
      m.pieces.add(c.where.piece);
      m.pieceWords[c.where.piece] = m.pieceWords[c.where.piece] ? `${m.pieceWords[c.where.piece]}; ${c.words}` : c.words;
    }
  }
  for (const id of actors) m.pieces.add(id);
  for (const c of squareChoices(choices, actor, actors)) {
    m.squares.push(c.where.square);
    m.squareWords[c.where.square] = m.squareWords[c.where.square] ? `${m.squareWords[c.where.square]}; ${c.words}` : c.words;
    if (!c.where.piece) m.moves.push(c.where.square);
    if (c.keeps_target !== undefined) m.keeps[c.where.square] = c.keeps_target;
  }
  // a marker under a character: tapping the character reaches the marker's choices too
  for (const c of choices) {
    if (!c.where.piece || !c.where.square) continue;
    for (const p of state.characters) if (p.square === c.where.square) m.pieces.add(p.id);
  }
  if (previewed && selected === previewed.piece) {
    m.moves = m.moves.concat(previewed.moves);
    m.squares = m.squares.concat(previewed.moves);
    m.sees = previewed.sees;
    for (const t of previewed.targets) m.pieces.add(t.piece);
  }
  m.targets = targets(state, choices, hover);
  if (previewed && selected === previewed.piece) {
    m.targets = m.targets.concat(previewed.targets.map((t) => ({ ...t, square: squareOf(state, t.piece) })));
  }
  if (hover) m.hover = { square: hover.where.square || (hover.where.piece && squareOf(state, hover.where.piece)) };
  else if (spot) m.hover = { square: spot };
  return m;
}

// Where a phone's board frame looks: the choice pointed at, the character selected or taking
// its turn, else the middle of the squares to choose from, else the last event.
export function focusColumn(state, log, marks, selected, xy) {
  const column = (square) => { const p = xy(square); return p ? p[0] : null; };
  const spread = marks.moves.map(column).filter((x) => x !== null);
  const latest = [...log].reverse().find((e) => !e.undone && (e.square || squareOf(state, e.piece)));
  return [marks.hover && marks.hover.square, selected && squareOf(state, selected), state.active && squareOf(state, state.active)]
    .map(column).find((x) => x !== null && x !== undefined)
    ?? (spread.length ? (Math.min(...spread) + Math.max(...spread)) / 2 : latest ? column(latest.square || squareOf(state, latest.piece)) : null);
}

// With many squares to choose from, they stay on the board and the list keeps the rest (what
// is aimed at a piece or marker stays listed).
export function onBoardOnly(choices) {
  const onSquares = choices.filter((c) => c.where.square && !c.where.piece);
  return onSquares.length > 6 ? new Set(onSquares.map((c) => c.id)) : new Set();
}

// The list's order: the server's, a piece staying where it is last.
export function listOrder(state, choices) {
  return choices.filter((c) => !stays(state, c)).concat(choices.filter((c) => stays(state, c)));
}
