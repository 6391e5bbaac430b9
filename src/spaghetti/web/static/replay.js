// Spaghetti Code in the browser: the replay viewer.
"use strict";

// ------------------------------------------------------------------ replay

let replaying = null; // {id, back, text, at}: to draw the replay again in another language

function replayPage(data, id, back, text, startAt) {
  setConn("");
  let i = startAt !== undefined ? startAt : data.frames.length - 1;
  replaying = { id, back, text, at: () => i };
  let timer = null;
  const view = el("div", { id: "replay-board" });
  const slider = el("input", { type: "range", min: 0, max: data.frames.length - 1, value: i, id: "replay-slider",
    "aria-label": w("move") });
  const counter = el("span", { id: "replay-counter" });
  const said = el("div", { class: "status", id: "replay-text" });
  const result = el("div", { class: "result", id: "replay-result" });
  const playBtn = el("button", { id: "replay-play" }, w("play"));
  const analysis = el("div", { class: "analysis", id: "replay-analysis" });
  const analyseBtn = el("button", { id: "replay-analyse", onclick: async () => {
    const at = i;
    analysis.replaceChildren(w("hintThinking"));
    try {
      const a = await api("POST", `/api/analyse?lang=${lang}`, { record: data.record, upto: at });
      if (at !== i) return;
      analysis.replaceChildren(a.to_move === null ? w("noAnalysis") : el("div", {},
        el("strong", {}, `${w("analysisOf")} ${colourName(a.to_move)}`),
        el("ol", { class: "hint" }, a.options.slice(0, 5).map((h) =>
          el("li", {}, el("code", {}, h.option), ` ${h.label} · ${Math.round(h.chance * 100)}%`)))));
    } catch (e) { analysis.replaceChildren(); toast(e.message); }
  } }, w("analyse"));
  function show(n) {  // n: a step the player asked for (said aloud), none for the first drawing
    if (n !== undefined) i = Math.max(0, Math.min(data.frames.length - 1, n));
    const f = data.frames[i];
    slider.value = i;
    counter.textContent = lang === "ja" ? `${i}手目 / ${data.frames.length - 1}` : `move ${i} of ${data.frames.length - 1}`;
    said.textContent = f.text || "—";
    if (n !== undefined) announce(said.textContent);
    analysis.replaceChildren();
    result.textContent = f.view.phase === "over" ? data.status : "";
    vocabulary = META.games && META.games[f.view.variant] ? META.games[f.view.variant].vocabulary : "code";
    const before = Motion.snapshot(view);
    view.replaceChildren(renderBoard(f.view, { legal: [], seats: [], arrows: false }));
    Motion.play(view, before);
  }
  function stop() { clearInterval(timer); timer = null; playBtn.textContent = w("play"); }
  playBtn.addEventListener("click", () => {
    if (timer) return stop();
    if (i >= data.frames.length - 1) show(0);
    playBtn.textContent = w("pause");
    timer = setInterval(() => { if (i >= data.frames.length - 1) stop(); else show(i + 1); }, 700);
  });
  slider.addEventListener("input", () => { stop(); show(Number(slider.value)); });
  const controls = el("div", { class: "controls" },
    el("button", { id: "replay-first", "aria-label": w("first"), onclick: () => { stop(); show(0); } }, "|◀"),
    el("button", { id: "replay-prev", "aria-label": w("previous"), onclick: () => { stop(); show(i - 1); } }, "◀"),
    playBtn,
    el("button", { id: "replay-next", "aria-label": w("next"), onclick: () => { stop(); show(i + 1); } }, "▶"),
    el("button", { id: "replay-last", "aria-label": w("last"), onclick: () => { stop(); show(data.frames.length - 1); } }, "▶|"),
    slider, counter, analyseBtn, keysButton());
  const record = text || JSON.stringify(data.record);
  const dl = el("a", { class: "button", id: "replay-download", download: id ? `spaghetti-${id}.json` : "spaghetti-record.json",
    href: URL.createObjectURL(new Blob([record], { type: "application/json" })) }, w("download"));
  document.getElementById("subtitle").textContent = w("replayOf");
  main().replaceChildren(el("div", { class: "panel replay" }, controls, said, analysis, view, result,
    el("div", { class: "buttons" }, el("button", { id: "replay-back", onclick: () => { stop(); back(); } }, id ? w("back") : w("home")), dl)));
  document.onkeydown = (ev) => {
    if (!document.getElementById("replay-board")) return;
    if (ev.key === "ArrowRight") { stop(); show(i + 1); }
    if (ev.key === "ArrowLeft") { stop(); show(i - 1); }
    if (ev.key === "Home" && !ev.target.closest("input")) { stop(); show(0); }
    if (ev.key === "End" && !ev.target.closest("input")) { stop(); show(data.frames.length - 1); }
  };
  shortcuts = {};
  show();
}

