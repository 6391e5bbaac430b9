// Spaghetti Code in the browser: the puzzle page.
"use strict";

// ------------------------------------------------------------------ puzzles

// A proven "win in N" puzzle: click the option (or its button); the server checks it against the
// proof and answers with the winning line or why the option fails. The streak stays in this
// browser.
async function puzzlePage(n) {
  setConn("");
  document.getElementById("subtitle").textContent = w("puzzle");
  const q = n ? `n=${encodeURIComponent(n)}&` : "";
  let p;
  try { p = await api("GET", `/api/puzzle?${q}lang=${lang}`); } catch (e) { toast(e.message); return; }
  vocabulary = META.games && META.games[p.view.variant] ? META.games[p.view.variant].vocabulary : "code";
  const streak = () => Number(localStorage.getItem("spaghetti.streak") || 0);
  const result = el("div", { class: "status", id: "puzzle-result", "aria-live": "polite" });
  const count = el("span", { id: "puzzle-streak" }, `${w("streak")}: ${streak()}`);
  let answered = false;
  async function answer(option) {
    if (answered) return;
    answered = true;
    try {
      const a = await api("POST", `/api/puzzle/answer?lang=${lang}`, { n: p.n, option });
      const s = a.right ? streak() + 1 : 0;
      localStorage.setItem("spaghetti.streak", String(s));
      count.textContent = `${w("streak")}: ${s}`;
      result.replaceChildren(el("strong", {}, a.right ? w("right") : w("wrong")),
        a.right ? el("ol", { id: "puzzle-line" }, a.said.map((t) => el("li", {}, t)))
          : el("p", { id: "puzzle-why" }, `${a.why}. ${w("theAnswer")}: `, el("code", {}, a.answer)));
    } catch (e) { answered = false; toast(e.message); }
  }
  const board = renderBoard(p.view, { legal: p.legal, seats: [], labels: p.labels });
  shortcuts = {};
  board.addEventListener("click", (ev) => {
    const target = ev.target.closest(".legal[data-option]");
    if (target) answer(target.dataset.option);
  });
  const goal = `${colourName(p.to_move)} ${w("puzzleGoal").replace("{n}", p.turns)}`;
  main().replaceChildren(el("div", { class: "panel", id: "puzzle" },
    el("h2", { id: "puzzle-title" }, `${w("puzzleOf")} ${p.n} / ${p.total}`),
    el("p", { id: "puzzle-goal" }, goal), board,
    el("div", { class: "buttons" }, p.legal.map((o) =>
      el("button", { class: "legal", "data-option": o, title: p.labels[o], onclick: () => answer(o) }, o))),
    result, el("p", {}, count, " · ",
      el("a", { href: `/puzzle?n=${p.n % p.total + 1}`, id: "puzzle-next" }, w("nextPuzzle")))));
}

