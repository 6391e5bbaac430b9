// Spaghetti Code in the browser: the home page (the lobby of lobby.js, new game, open a record).
"use strict";

// ------------------------------------------------------------------ home: new game, open record

function homePage() {
  document.querySelector(".brand").textContent = w("title");
  vocabulary = "code";
  document.getElementById("subtitle").textContent = "";
  document.getElementById("conn").textContent = "";
  const form = el("form", { id: "new-game", class: "panel" });
  const level = el("select", { name: "level", id: "level" },
    [1, 2, 3].map((n) => el("option", { value: n }, n)));
  const players = el("select", { name: "players", id: "players" },
    [2, 3, 4, 5].map((n) => el("option", { value: n }, n)));
  const variant = el("select", { name: "variant", id: "variant" },
    META.variants.map((x) => el("option", { value: x }, gameTitle(x))));
  const seatBox = el("div", { class: "seats" });
  function drawSeats() {
    const kept = [...seatBox.querySelectorAll(".seat-row")].map((r) => [r.querySelector(".kind").value, r.querySelector(".diff").value]);
    seatBox.innerHTML = "";
    for (let s = 0; s < Number(players.value); s++) {
      const [k, d] = kept[s] || [s === 0 ? "you" : "computer", "easy"];
      const kind = el("select", { class: "kind", name: `seat${s}`, "aria-label": colourName(s) },
        el("option", { value: "you" }, w("you")), el("option", { value: "human" }, w("person")),
        el("option", { value: "computer" }, w("computer")));
      kind.value = k;
      const diff = el("select", { class: "diff", name: `diff${s}`, "aria-label": `${colourName(s)} · ${w("difficulty")}` },
        META.difficulties.map((x) => el("option", { value: x, title: META.difficulty_words[x][lang] }, w(x))));
      diff.value = d;
      // What the chosen difficulty does and how long it thinks, as the ladder measures it.
      const words = el("small", { class: "diff-words" });
      const sync = () => {
        diff.disabled = kind.value !== "computer";
        words.textContent = diff.disabled ? "" : META.difficulty_words[diff.value][lang];
      };
      diff.addEventListener("change", sync);
      kind.addEventListener("change", () => {
        if (kind.value === "you") seatBox.querySelectorAll(".kind").forEach((o) => { if (o !== kind && o.value === "you") o.value = "human"; });
        seatBox.querySelectorAll(".kind").forEach((o) => o.dispatchEvent(new Event("sync")));
      });
      kind.addEventListener("sync", sync);
      sync();
      seatBox.append(el("div", { class: "seat-row" }, el("span", { class: `swatch c${s}` }, META.colours[s].mark),
        el("span", { class: "pname" }, colourName(s)), kind, diff, words));
    }
  }
  players.addEventListener("change", drawSeats);
  const opts = el("div", { class: "opts" });
  for (const [name, option] of Object.entries(META.options)) {
    // The value is the index in option.values: booleans, numbers and null come back as such.
    const sel = el("select", { name, "data-option-name": name },
      option.values.map((v, i) => el("option", { value: String(i) }, optionValue(name, v))));
    opts.append(el("label", { "data-option-name": name }, el("span", {}, optionName(name)), sel));
  }
  // Only the levels, player counts and options of the chosen game (and of its player count).
  const fitOptions = () => {
    const g = META.games[variant.value];
    opts.querySelectorAll("label").forEach((l) => {
      const name = l.querySelector("select").dataset.optionName;
      const counts = META.options[name].players;
      l.hidden = !g.options.includes(name) || (counts.length > 0 && !counts.includes(Number(players.value)));
    });
  };
  players.addEventListener("change", fitOptions);
  function fitGame() {
    const g = META.games[variant.value];
    for (const [box, allowed] of [[level, g.levels], [players, g.players]]) {
      [...box.options].forEach((o) => { o.hidden = !allowed.includes(Number(o.value)); });
      if (!allowed.includes(Number(box.value))) box.value = String(allowed[0]);
    }
    fitOptions();
    drawSeats();
  }
  variant.addEventListener("change", fitGame);
  const clockOn = el("input", { type: "checkbox", id: "clock-on" });
  const clockMin = el("input", { type: "number", id: "clock-min", min: 1, max: 600, value: 10 });
  const autoplay = el("input", { type: "checkbox", id: "autoplay", checked: true });
  const seed = el("input", { type: "number", id: "seed", min: 0 });
  form.append(
    el("h2", {}, w("newGame")),
    META.variants.length > 1 ? el("div", { class: "row" }, el("label", {}, w("variant"), " ", variant)) : null,
    el("div", { class: "row" }, el("label", {}, w("level"), " ", level), el("label", {}, w("players"), " ", players)),
    el("h3", {}, w("seats")), seatBox,
    el("details", {}, el("summary", {}, w("options")), opts,
      el("div", { class: "row" }, el("label", {}, autoplay, " ", w("autoplay"))),
      el("div", { class: "row" }, el("label", {}, w("seed"), " ", seed))),
    el("div", { class: "row" }, el("label", {}, clockOn, " ", w("clock")), el("label", {}, clockMin, " ", w("minutesEach"))),
    ratedRow(),
    el("button", { type: "submit", id: "create", class: "primary" }, w("create")));
  form.prepend(el("p", {}, learnButton()));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const rows = [...seatBox.querySelectorAll(".seat-row")];
    const seats = rows.map((r) => {
      const k = r.querySelector(".kind").value;
      return k === "computer" ? { kind: "computer", difficulty: r.querySelector(".diff").value } : { kind: "human" };
    });
    const youIdx = rows.findIndex((r) => r.querySelector(".kind").value === "you");
    const options = {};
    const own = META.games[variant.value].options;  // only the chosen game's options
    opts.querySelectorAll("select").forEach((s) => {
      const name = s.dataset.optionName;
      if (own.includes(name) && !s.closest("label").hidden) options[name] = META.options[name].values[Number(s.value)];
    });
    const body = {
      variant: variant.value, level: Number(level.value), players: Number(players.value), seats, options,
      you: youIdx >= 0 ? youIdx : (seats.some((s) => s.kind === "human") ? seats.findIndex((s) => s.kind === "human") : null),
      clock: clockOn.checked ? Number(clockMin.value) * 60 : null, autoplay: autoplay.checked,
    };
    if (seed.value !== "") body.seed = Number(seed.value);
    Object.assign(body, ratedFields());  // this browser's player, if it has one (lobby.js)
    try {
      const g = await api("POST", "/api/games", body);
      if (g.token) { localStorage.setItem(`spaghetti.token.${g.id}`, g.token); remember(g.id); }
      localStorage.setItem(`spaghetti.invites.${g.id}`, JSON.stringify(g.invites));
      history.pushState({}, "", `/g/${g.id}`);
      route();
    } catch (e) { toast(e.message); }
  });
  const file = el("input", { type: "file", id: "record-file", accept: ".json,application/json" });
  file.addEventListener("change", async () => {
    if (!file.files.length) return;
    const text = await file.files[0].text();
    try {
      const data = await api("POST", `/api/replay?lang=${lang}`, text);
      replayPage(data, null, () => { history.pushState({}, "", "/"); route(); }, text);
    } catch (e) { toast(e.message); }
  });
  const openPanel = el("div", { class: "panel" }, el("h2", {}, w("openRecord")),
    el("p", {}, el("label", { for: "record-file" }, w("openHint"))), file,
    el("p", {}, el("a", { href: "/puzzle", id: "puzzle-link" }, w("puzzle"))));
  const mine = el("ul", { class: "my-games", id: "my-games" });
  const gamesPanel = el("div", { class: "panel" }, el("h2", {}, w("yourGames")), mine);
  main().replaceChildren(lobbyPanel(), el("div", { class: "home" }, form, el("div", {}, gamesPanel, openPanel)));
  const known = JSON.parse(localStorage.getItem("spaghetti.games") || "[]");
  if (!known.length) mine.append(el("li", { class: "muted" }, w("noGames")));
  for (const id of known.slice(0, 12)) {
    const item = el("li", {}, el("a", { href: `/g/${id}` }, id));
    mine.append(item);
    api("GET", `/api/games/${id}`).then((g) => {
      item.append(" · ", lang === "ja" ? `レベル${g.level} · ${g.players}人 · ${g.moves}手目` : `level ${g.level} · ${g.players} players · move ${g.moves}`,
        " · ", g.over ? w("finished") : w("inPlay"));
    }).catch(() => item.remove());
  }
  fitGame();
}

