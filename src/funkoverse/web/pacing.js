// Pacing: the views of a game are shown one at a time, each change on screen long enough for
// a person to follow it (../shared/ux.md, "Motion and feedback"): at least PACE_MS a step,
// and a roll until its faces have been shown for FACES_MS, whether the views arrive together
// or apart (the dice say when their faces came on screen: a page drawing late holds the
// step longer). A player may skip to the newest view.

import { useCallback, useRef, useState } from "./vendor/htm-preact.module.js";

export const PACE_MS = 550;
export const ROLLING_MS = 380; // the dice tumble, then show their faces
export const FACES_MS = 700;
// the dice are drawn a frame or two after their view: a roll is held that much longer, so
// that its faces are on screen the whole FACES_MS
const SETTLE_MS = 60;
export const ROLL_MS = ROLLING_MS + FACES_MS + SETTLE_MS;

// The events of a view that are rolls of the dice (a roll says what each face scored).
export function rollsOf(events) {
  return events.filter((e) => e.counted);
}

// How long a step with these new events stays on screen before the next one.
export function holdFor(fresh) {
  if (!fresh.length) return 0;
  return Math.max(PACE_MS, rollsOf(fresh).length * ROLL_MS);
}

// `show(view)` draws a view and answers its new events. `add(view, now)` queues a view (now:
// the player's own answer, shown at once, the older views queued before it dropped); the
// queue is released at the pace of the steps shown. `behind` is how many views wait;
// `holding` whether a step of someone else's is still within its time on screen (the
// player's choices wait for it: acting at once would cut the last step short).
export function usePacing(show) {
  const queue = useRef([]);
  const until = useRef(0);
  const timer = useRef(null);
  const [behind, setBehind] = useState(0);
  const [holding, setHolding] = useState(false);
  const held = useRef(null);
  const others = useRef(false); // the step on screen is someone else's (the choices wait)
  const newest = useRef(-1); // the newest version shown or queued
  const pumpRef = useRef(() => {});

  const display = useCallback((v, own) => {
    const fresh = show(v);
    if (own) {
      // the player's own answer (its live update may have come first): nothing to wait for
      clearTimeout(held.current);
      setHolding(false);
    }
    if (!fresh.length) return;
    const hold = holdFor(fresh);
    others.current = !own;
    if (!own) {
      clearTimeout(held.current);
      setHolding(true);
    }
    // the step's time on screen counts from when it is drawn (the next frame), not from when
    // it was handed over: drawing a busy board can take a while
    // (a hidden page draws no frames: its steps count from now)
    until.current = Infinity;
    const drawn = () => {
      until.current = performance.now() + hold;
      if (!own) held.current = setTimeout(() => setHolding(false), hold);
      pumpRef.current();
    };
    if (document.hidden) drawn();
    else requestAnimationFrame(drawn);
  }, [show]);

  const pump = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = null;
    if (until.current === Infinity) return; // the step shown is not drawn yet
    const wait = until.current - performance.now();
    if (queue.current.length && wait > 0) {
      timer.current = setTimeout(pump, wait);
    } else if (queue.current.length) {
      display(queue.current.shift(), false);
      // a step drawn calls back when its frame comes; one that adds nothing goes on at once
      if (queue.current.length && until.current !== Infinity) {
        timer.current = setTimeout(pump, Math.max(0, until.current - performance.now()));
      }
    }
    setBehind(queue.current.length);
  }, [display]);

  pumpRef.current = pump;

  // a roll's faces came on screen (the dice say so when they are drawn): the step stays at
  // least FACES_MS more, however late a busy page drew them
  const faced = useCallback(() => {
    const end = performance.now() + FACES_MS;
    if (until.current === Infinity || end <= until.current) return;
    until.current = end;
    if (others.current) {
      clearTimeout(held.current);
      setHolding(true);
      held.current = setTimeout(() => setHolding(false), FACES_MS);
    }
    if (timer.current !== null) {
      clearTimeout(timer.current);
      timer.current = setTimeout(pump, FACES_MS);
    }
  }, [pump]);

  const add = useCallback((v, now) => {
    if (now) {
      queue.current = queue.current.filter((q) => q.version > v.version);
      display(v, true);
    } else if (v.version <= newest.current && !queue.current.length) {
      display(v, false); // nothing new to pace (the same version again, or another held seat's)
    } else {
      queue.current.push(v);
    }
    newest.current = Math.max(newest.current, v.version);
    pump();
  }, [display, pump]);

  // to the newest view at once (the rest of a rival's turn is in the log)
  const skip = useCallback(() => {
    const last = queue.current[queue.current.length - 1];
    queue.current = [];
    clearTimeout(timer.current);
    if (last) show(last);
    until.current = 0;
    clearTimeout(held.current);
    setHolding(false);
    setBehind(0);
  }, [show]);

  return { add, skip, faced, behind, holding };
}
