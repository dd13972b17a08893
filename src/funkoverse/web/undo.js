// Undo, in the player's words: what it takes back, in the order it was chosen (the view's
// `undo_order`: each run of one seat's choices since the last roll or reveal).

const many = (n, what = "choice") => (n === 1 ? `1 ${what}` : `${n} ${what}s`);

// The computer's choices made before this seat's first one are not a reply to it: an undo
// that would take them back is not offered (they would be made again, differently).
export function takesComputerFirst(view) {
  const order = view.undo_order || [];
  const first = order[0];
  return Boolean(first && first.seat !== view.seat && view.seats[first.seat] && view.seats[first.seat].player === "ai");
}

export function undoWords(view, tokens) {
  const order = view.undo_order || [];
  const mine = order.filter((r) => r.seat === view.seat).reduce((a, r) => a + r.choices, 0);
  const nothing = { long: "Undo", short: "Undo", title: "Nothing of yours to take back since the last die roll or secret reveal" };
  if (!view.undo || !mine) return nothing;
  if (!heldHere(view, tokens)) {
    return { ...nothing, title: "An undo would take back another person's choices: it is offered only when every other seat is the computer's or on this screen" };
  }
  if (takesComputerFirst(view)) {
    return { ...nothing, title: "An undo now would also take back the computer's choices made before yours; it is offered again after the next roll" };
  }
  const isComputer = (s) => view.seats[s] && view.seats[s].player === "ai";
  const others = order.filter((r) => r.seat !== view.seat);
  const computer = others.filter((r) => isComputer(r.seat)).reduce((a, r) => a + r.choices, 0);
  const friends = others.filter((r) => !isComputer(r.seat));
  let long;
  let short = `Undo ${many(mine)}`;
  if (friends.length) {
    const counts = {};
    for (const r of order) counts[r.seat] = (counts[r.seat] || 0) + r.choices;
    const all = Object.values(counts).reduce((a, b) => a + b, 0);
    long = `Undo the last ${all} choices (${Object.entries(counts).map(([s, n]) => `${s} ${n}`).join(", ")})`;
    short = `Undo ${many(all)}`;
  } else {
    const reply = computer === 1 ? " and the computer's reply" : computer ? ` and the computer's ${computer} replies` : "";
    long = `Undo ${mine === 1 ? "your last choice" : `your last ${mine} choices`}${reply}`;
  }
  return { long, short, title: `${long}: everything since the last die roll or secret reveal` };
}

// Undo is offered only where it can be done: every other person's seat held on this screen,
// and nothing of the computer's before this seat's first choice taken back.
function heldHere(view, tokens) {
  return Object.entries(view.seats || {}).every(([s, x]) => s === view.seat || x.player === "ai" || tokens[s]);
}

export function mayUndo(view, tokens) {
  return Boolean(view.undo && view.seat && !takesComputerFirst(view) && heldHere(view, tokens));
}
