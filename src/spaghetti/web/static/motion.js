// Spaghetti Code in the browser: the motion between two boards. Before a board is replaced the
// page takes a snapshot of where every card, flag and the cursor were; after, each is played from
// its old place to its new one (FLIP: the new layout, shifted back by a transform that runs out).
// What appeared grows in, what left fades out where it was. A click, a key or the next update
// skips to the end; with prefers-reduced-motion there is no motion at all. An optional beep.
"use strict";

const MOTION_MS = 300;

const Motion = {
  running: [],  // the animations under way, to finish them at once
  ghosts: [],   // copies of what left the board, fading out

  reduced() { return window.matchMedia("(prefers-reduced-motion: reduce)").matches; },

  // Where everything is now (finishing any motion first, so the places are the final ones).
  snapshot(root) {
    Motion.skip();
    const board = root && root.querySelector(".program");
    if (!board) return null;
    const rect = (n) => n.getBoundingClientRect();
    const snap = { cards: new Map(), flags: new Map(), cursor: null, order: [] };
    board.querySelectorAll(".card[data-key]").forEach((n) => {
      snap.cards.set(n.dataset.key, { rect: rect(n), node: n });
      snap.order.push(n.dataset.key);
      if (n.classList.contains("here")) snap.cursor = { key: n.dataset.key, rect: rect(n.querySelector(".cursor")) };
    });
    board.querySelectorAll(".flag[data-key]").forEach((n) => snap.flags.set(n.dataset.key, { rect: rect(n), node: n }));
    return snap;
  },

  // Play the change from the snapshot `before` to the board now in `root`; true if anything moved.
  play(root, before) {
    if (!before || Motion.reduced()) return false;
    const board = root.querySelector(".program");
    if (!board) return false;
    // Every place is measured before anything starts to move (a transform shifts the measure).
    const cards = [...board.querySelectorAll(".card[data-key]")];
    const newFlags = [...board.querySelectorAll(".flag[data-key]")];
    const at = new Map([...cards, ...newFlags, ...board.querySelectorAll(".cursor")]
      .map((n) => [n, n.getBoundingClientRect()]));
    const shift = new Map();  // card -> how far it is shifted back: its flags go along
    const moves = [];
    const slide = (node, from, card) => {
      const to = at.get(node);
      const carried = (card && shift.get(card)) || { dx: 0, dy: 0 };
      const dx = from.left - to.left - carried.dx;
      const dy = from.top - to.top - carried.dy;
      if (!card) shift.set(node, { dx, dy });
      if (Math.abs(dx) >= 1 || Math.abs(dy) >= 1) moves.push(() => Motion.run(node, [{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }]));
    };
    const grow = (node) => moves.push(() => Motion.run(node, [{ transform: "scale(0.2)", opacity: 0 }, { transform: "none", opacity: 1 }]));
    cards.forEach((n) => {
      const old = before.cards.get(n.dataset.key);
      if (old) slide(n, old.rect); else grow(n);
    });
    const present = new Set(newFlags.map((n) => n.dataset.key));
    // A flag of an owner that left one place and appeared in another moved there.
    const left = {};
    for (const [key, old] of before.flags) {
      if (present.has(key)) continue;
      const owner = key.split("@")[0];
      (left[owner] = left[owner] || []).push(old);
    }
    newFlags.forEach((n) => {
      const card = n.closest(".card");
      const old = before.flags.get(n.dataset.key);
      if (old) { slide(n, old.rect, card); return; }
      const owner = n.dataset.key.split("@")[0];
      const from = left[owner] && left[owner].shift();
      if (from) slide(n, from.rect, card); else grow(n);
    });
    Object.values(left).flat().forEach((old) => moves.push(() => Motion.fade(old)));
    const kept = new Set(cards.map((n) => n.dataset.key));
    for (const [key, old] of before.cards) if (!kept.has(key)) moves.push(() => Motion.fade(old));
    const walk = Motion.walk(cards, before, at, shift);
    if (walk) moves.push(walk);
    if (!moves.length) return false;
    moves.forEach((start) => start());
    root.querySelector(".board").classList.add("animating");
    const batch = Motion.running;
    Promise.all(batch.map((a) => a.finished.catch(() => null))).then(() => {
      if (Motion.running === batch) Motion.skip();
    });
    return true;
  },

  // The cursor walks from its old card over the cards between to its new one (the shorter way
  // round the loop: the cursor may have turned on its way).
  walk(cards, before, at, shift) {
    const here = cards.find((n) => n.classList.contains("here"));
    if (!here || !before.cursor) return null;
    const from = cards.findIndex((n) => n.dataset.key === before.cursor.key);
    const to = cards.indexOf(here);
    if (from === to) return null;
    const marker = here.querySelector(".cursor");
    const end = at.get(marker);
    const carried = shift.get(here) || { dx: 0, dy: 0 };
    const points = [before.cursor.rect];
    if (from >= 0) {
      const n = cards.length;
      const step = (to - from + n) % n <= (from - to + n) % n ? 1 : -1;
      for (let i = (from + step + n) % n; i !== to; i = (i + step + n) % n) points.push(at.get(cards[i].querySelector(".cursor")));
    }
    const frames = points.map((r) => ({ transform: `translate(${r.left - end.left - carried.dx}px, ${r.top - end.top - carried.dy}px)` }));
    frames.push({ transform: "none" });
    return () => {
      Motion.run(marker, frames, Math.min(400, 150 + 50 * (frames.length - 2)));
      marker.classList.add("walking");
    };
  },

  run(node, frames, ms) {
    node.classList.add("moving");
    const a = node.animate(frames, { duration: ms || MOTION_MS, easing: "ease-out" });
    a.node = node;
    Motion.running.push(a);
  },

  // A copy of what left, where it was, fading away.
  fade(old) {
    const ghost = old.node.cloneNode(true);
    ghost.removeAttribute("id");
    ghost.setAttribute("aria-hidden", "true");
    ghost.removeAttribute("tabindex");
    ghost.classList.add("ghost");
    Object.assign(ghost.style, { position: "fixed", left: `${old.rect.left}px`, top: `${old.rect.top}px`,
      width: `${old.rect.width}px`, height: `${old.rect.height}px`, margin: 0, pointerEvents: "none" });
    document.body.append(ghost);
    Motion.ghosts.push(ghost);
    Motion.run(ghost, [{ opacity: 1, transform: "none" }, { opacity: 0, transform: "scale(0.4)" }]);
  },

  // Straight to the final board.
  skip() {
    const running = Motion.running;
    Motion.running = [];
    running.forEach((a) => { a.finish(); a.node.classList.remove("moving", "walking"); });
    Motion.ghosts.forEach((g) => g.remove());
    Motion.ghosts = [];
    document.querySelectorAll(".board.animating").forEach((b) => b.classList.remove("animating"));
  },
};

// A click or a key anywhere skips the motion under way.
document.addEventListener("pointerdown", () => Motion.skip(), true);
document.addEventListener("keydown", () => Motion.skip(), true);

// ------------------------------------------------------------------ sound (off unless asked)

const Sound = {
  on() { return localStorage.getItem("spaghetti.sound") === "on"; },
  toggle() { localStorage.setItem("spaghetti.sound", Sound.on() ? "off" : "on"); },
  // A short beep: higher when it is the player's turn.
  beep(high) {
    if (!Sound.on() || !window.AudioContext) return;
    Sound.ctx = Sound.ctx || new AudioContext();
    const osc = Sound.ctx.createOscillator();
    const gain = Sound.ctx.createGain();
    osc.frequency.value = high ? 880 : 440;
    gain.gain.setValueAtTime(0.08, Sound.ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, Sound.ctx.currentTime + 0.15);
    osc.connect(gain).connect(Sound.ctx.destination);
    osc.start();
    osc.stop(Sound.ctx.currentTime + 0.15);
  },
  button() {
    const b = el("button", { id: "sound", "aria-pressed": Sound.on() ? "true" : "false",
      onclick: () => { Sound.toggle(); b.setAttribute("aria-pressed", Sound.on() ? "true" : "false"); Sound.beep(true); } },
    w("sound"));
    return b;
  },
};
