// Spaghetti Code in the browser: the lobby (a name and a rating, play now, the games waiting
// for players, your finished games) on the home page, and at the live table the players' names
// and ratings and the rematch. The player is a name and a secret token kept in this browser
// (localStorage "spaghetti.player"); the server keeps only a digest of the token.
"use strict";

Object.assign(UI.en, {
  "lobby.title": "Lobby", "lobby.yourName": "Your name", "lobby.save": "Save",
  "lobby.playingAs": "You play as", "lobby.rename": "Change name",
  "lobby.playNow": "Play now",
  "lobby.playNowHint": "You are paired with whoever waits for the same game, level and number of players; if nobody does, the others are paired with you.",
  "lobby.open": "Games waiting for players", "lobby.none": "(nobody is waiting: press Play now)",
  "lobby.join": "Join", "lobby.free": "free seat", "lobby.rated": "rated", "lobby.unrated": "unrated",
  "lobby.finished": "Your finished games", "lobby.noFinished": "(none yet)",
  "lobby.win": "won", "lobby.loss": "lost", "lobby.draw": "draw", "lobby.nameFirst": "Choose a name first.",
  "lobby.ratedGame": "Rated game (needs your name; no seed)", "lobby.rematch": "Rematch",
  "lobby.joinRematch": "Join the rematch", "lobby.toRematch": "Go to the rematch",
  "lobby.watchRematch": "Watch the rematch", "lobby.offered": "A rematch is offered: Join the rematch, under the result.",
  "lobby.best": "Best players", "lobby.noBest": "(no rated game yet)", "lobby.games": "rated games: {n}",
  "lobby.yours": "your table", "lobby.vs": "against", "lobby.listed": "Open to anyone in the lobby (the seats of people)", "lobby.players": "{n} players", "lobby.level": "level {n}",
  "lobby.ratingNote": "Ratings: 1500 to start, ? while provisional (fewer than 5 rated games); the computer's are fixed.",
});
Object.assign(UI.ja, {
  "lobby.title": "ロビー", "lobby.yourName": "あなたの名前", "lobby.save": "保存",
  "lobby.playingAs": "プレイヤー名", "lobby.rename": "名前を変える",
  "lobby.playNow": "すぐに対戦",
  "lobby.playNowHint": "同じゲーム・レベル・人数で待っている人と対戦します。誰もいなければ、あなたが相手を待ちます。",
  "lobby.open": "参加者を待っているゲーム", "lobby.none": "(待っている人はいません。「すぐに対戦」を押してください)",
  "lobby.join": "参加", "lobby.free": "空席", "lobby.rated": "レート戦", "lobby.unrated": "非レート戦",
  "lobby.finished": "終わったゲーム", "lobby.noFinished": "(まだありません)",
  "lobby.win": "勝ち", "lobby.loss": "負け", "lobby.draw": "引き分け", "lobby.nameFirst": "先に名前を決めてください。",
  "lobby.ratedGame": "レート戦（名前が必要・シードなし）", "lobby.rematch": "再戦",
  "lobby.joinRematch": "再戦に参加", "lobby.toRematch": "再戦のテーブルへ",
  "lobby.watchRematch": "再戦を観戦", "lobby.offered": "再戦の申し込みがあります。結果の下の「再戦に参加」からどうぞ。",
  "lobby.best": "上位のプレイヤー", "lobby.noBest": "(まだレート戦はありません)", "lobby.games": "レート戦{n}局",
  "lobby.yours": "あなたのテーブル", "lobby.vs": "相手:", "lobby.listed": "ロビーで誰でも参加できるようにする（人の席）", "lobby.players": "{n}人", "lobby.level": "レベル{n}",
  "lobby.ratingNote": "レーティング: 最初は1500、レート戦5局未満は「?」付きの暫定値。コンピュータの値は固定です。",
});

const LOBBY_REFRESH = 4000;  // ms between two looks at the games waiting

const me = () => JSON.parse(localStorage.getItem("spaghetti.player") || "null");
const ratingText = (r, provisional) => (r === null || r === undefined ? "" : `${r}${provisional ? "?" : ""}`);

// A seat this browser now holds: remembered like any other, then its table. (No token: a seat
// it holds already, e.g. Play now pressed again while waiting.)
function enterGame(g) {
  if (g.token) localStorage.setItem(`spaghetti.token.${g.id}`, g.token);
  remember(g.id);
  history.pushState({}, "", `/g/${g.id}`);
  route();
}

// The home page's lobby panel; it looks at the waiting games again while it is shown.
function lobbyPanel() {
  const box = el("section", { class: "panel lobby", id: "lobby", "aria-labelledby": "lobby-title" });
  const nameBox = el("div", { class: "row", id: "name-box" });
  const openList = el("ul", { class: "open-games", id: "open-games", "aria-live": "polite" });
  const finished = el("ul", { class: "finished", id: "finished" });
  const best = el("ol", { class: "best", id: "best" });
  const pick = (values, id, label) => el("label", {}, w(label), " ",
    el("select", { id }, values.map(([v, text]) => el("option", { value: v }, text))));
  const variants = META.variants.map((x) => [x, gameTitle(x)]);
  const seek = el("div", { class: "row seek" },
    variants.length > 1 ? pick(variants, "seek-variant", "variant") : null,
    pick([1, 2, 3].map((n) => [n, n]), "seek-level", "level"),
    pick([2, 3, 4, 5].map((n) => [n, n]), "seek-players", "players"),
    el("button", { id: "play-now", class: "primary", onclick: playNow }, w("lobby.playNow")));
  // Only the levels and player counts of the chosen game.
  const fit = () => {
    const v = seek.querySelector("#seek-variant");
    const g = META.games[v ? v.value : META.variants[0]];
    for (const [id, allowed] of [["seek-level", g.levels], ["seek-players", g.players]]) {
      const box = seek.querySelector(`#${id}`);
      [...box.options].forEach((o) => { o.hidden = !allowed.includes(Number(o.value)); });
      if (!allowed.includes(Number(box.value))) box.value = String(allowed[0]);
    }
  };
  seek.addEventListener("change", (ev) => { if (ev.target.id === "seek-variant") fit(); });
  fit();
  box.append(el("h2", { id: "lobby-title" }, w("lobby.title")), nameBox, seek,
    el("p", { class: "muted small" }, w("lobby.playNowHint")),
    el("h3", {}, w("lobby.open")), openList,
    el("h3", {}, w("lobby.finished")), finished,
    el("h3", {}, w("lobby.best")), best,
    el("p", { class: "muted small" }, w("lobby.ratingNote")));

  function drawName(editing) {
    const p = me();
    if (p && !editing) {
      nameBox.replaceChildren(el("span", {}, w("lobby.playingAs"), " ", el("strong", { id: "me-name" }, p.name), " ",
        el("span", { class: "rating", id: "me-rating" }, ratingText(p.rating, p.provisional))),
      el("button", { id: "rename", onclick: () => drawName(true) }, w("lobby.rename")));
      return;
    }
    const input = el("input", { id: "player-name", maxlength: 24, value: p ? p.name : "", autocomplete: "nickname" });
    const form = el("form", { class: "row name-form" }, el("label", {}, w("lobby.yourName"), " ", input),
      el("button", { type: "submit", id: "save-name" }, w("lobby.save")));
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      try {
        const q = p ? await api("POST", "/api/players/me", { token: p.token, name: input.value })
          : await api("POST", "/api/players", { name: input.value });
        localStorage.setItem("spaghetti.player", JSON.stringify({ ...q, token: p ? p.token : q.token, finished: undefined }));
        drawName(false);
        refresh();
      } catch (e) { toast(e.message); }
    });
    nameBox.replaceChildren(form);
    if (editing) input.focus();
  }

  async function playNow() {
    const p = me();
    if (!p) { toast(w("lobby.nameFirst")); const i = document.getElementById("player-name"); if (i) i.focus(); return; }
    const value = (id, fallback) => { const s = document.getElementById(id); return s ? s.value : fallback; };
    try {
      enterGame(await api("POST", "/api/lobby/play", { player: p.token, variant: value("seek-variant", META.variants[0]),
        level: Number(value("seek-level", 1)), players: Number(value("seek-players", 2)) }));
    } catch (e) { toast(e.message); }
  }

  async function join(id) {
    const p = me();
    if (!p) { toast(w("lobby.nameFirst")); return; }
    try { enterGame(await api("POST", `/api/games/${id}/join`, { player: p.token })); } catch (e) { toast(e.message); }
  }

  function seatText(s) {
    if (s.kind === "computer") return `${w("computer")} · ${w(s.difficulty)} ${ratingText(s.rating, false)}`;
    if (s.free) return w("lobby.free");
    return `${s.name || w("person")} ${ratingText(s.rating, s.provisional)}`.trim();
  }

  let timer = null;
  async function refresh() {
    if (!box.isConnected) { clearInterval(timer); return; }
    const p = me();
    try {
      const { open, best: top } = await api("GET", "/api/lobby");
      best.replaceChildren(...(top.length ? top.map((q) => el("li", { class: p && q.id === p.id ? "me" : null },
        el("span", {}, q.name), " ", el("span", { class: "rating" }, ratingText(q.rating, q.provisional)),
        el("span", { class: "muted" }, ` · ${w("lobby.games").replace("{n}", q.games)}`))) : [el("li", { class: "muted" }, w("lobby.noBest"))]));
      openList.replaceChildren(...(open.length ? open.map((g) => {
        const mine = !!localStorage.getItem(`spaghetti.token.${g.id}`);
        return el("li", { "data-game": g.id },
          el("span", {}, `${gameTitle(g.variant)} · ${w("lobby.level").replace("{n}", g.level)} · ${w("lobby.players").replace("{n}", g.players)} · `,
            w(g.rated ? "lobby.rated" : "lobby.unrated")),
          el("span", { class: "seats-of" }, g.seats.map((s) => el("span", { class: "seat-chip" + (s.free ? " free" : ""), "data-seat": s.seat },
            el("span", { class: `swatch c${s.seat}` }, META.colours[s.seat].mark), " ", seatText(s)))),
          mine ? el("a", { class: "button", href: `/g/${g.id}` }, w("lobby.yours"))
            : el("button", { class: "join", onclick: () => join(g.id) }, w("lobby.join")));
      }) : [el("li", { class: "muted" }, w("lobby.none"))]));
    } catch (e) { /* the next look tries again */ }
    if (!p) { finished.replaceChildren(el("li", { class: "muted" }, w("lobby.noFinished"))); return; }
    try {
      const q = await api("GET", `/api/players/${p.id}`);
      localStorage.setItem("spaghetti.player", JSON.stringify({ ...p, name: q.name, rating: q.rating, provisional: q.provisional }));
      const shown = document.getElementById("me-rating");
      if (shown) shown.textContent = ratingText(q.rating, q.provisional);
      finished.replaceChildren(...(q.finished.length ? q.finished.map((g) => el("li", {},
        el("a", { href: `/g/${g.game}`, onclick: (ev) => { ev.preventDefault(); history.pushState({}, "", `/g/${g.game}`); openGameReplay(g.game); } },
          new Date(g.ended * 1000).toLocaleString(lang)), " · ",
        el("span", { class: `outcome ${g.outcome}` }, w(`lobby.${g.outcome}`)), " · ", w("lobby.vs"), " ",
        g.others.map((o) => (o.kind === "computer" ? `${w("computer")} (${w(o.difficulty)})` : o.name || w("person"))).join(", "),
        g.rated ? ` · ${g.before} → ${g.after}` : ` · ${w("lobby.unrated")}`)) : [el("li", { class: "muted" }, w("lobby.noFinished"))]));
    } catch (e) {
      if (/no such player/.test(e.message)) { localStorage.removeItem("spaghetti.player"); drawName(false); }
    }
  }

  drawName(false);
  setTimeout(refresh);  // once the panel is on the page
  clearInterval(lobbyPanel.timer);  // a panel drawn before this one (e.g. in the other language)
  timer = lobbyPanel.timer = setInterval(refresh, LOBBY_REFRESH);
  return box;
}

// For the new-game form: the "rated" and "in the lobby" boxes, and what the body of a new game
// gets from them (this browser's player names the creator's seat).
function ratedRow() {
  return el("div", { class: "row" },
    el("label", {}, el("input", { type: "checkbox", id: "rated" }), " ", w("lobby.ratedGame")),
    el("label", {}, el("input", { type: "checkbox", id: "listed" }), " ", w("lobby.listed")));
}

function ratedFields() {
  const p = me();
  const ticked = (id) => { const box = document.getElementById(id); return !!(box && box.checked); };
  return p ? { player: p.token, rated: ticked("rated"), lobby: ticked("listed") } : {};
}

// ------------------------------------------------------------------ at the live table

// The table page draws itself anew for every state message; drawTableNow (table.js) calls this
// on each drawing, to add the names and ratings, the rated mark and the rematch.
function decorateTable(t) {
  const m = t.msg;
  const p = me();
  for (const s of m.seats) {
    const name = document.querySelector(`.players .player[data-seat="${s.seat}"] .pname`);
    if (!name || (s.name === null && s.rating === null)) continue;
    name.append(el("small", { class: "rating", "data-seat": s.seat },
      [s.name, ratingText(s.rating, s.provisional)].filter((x) => x).join(" · ")));
  }
  if (m.rated) document.getElementById("subtitle").append(` · ${w("lobby.rated")}`);
  // A seat taken by an invite link gets this browser's player, so its games count for it.
  if (p && t.token && m.you !== null && !m.seats[m.you].player && m.view.phase !== "over" && !t.sitAsked) {
    t.sitAsked = true;
    api("POST", `/api/games/${t.id}/player`, { token: t.token, player: p.token }).catch(() => {});
  }
  const result = document.getElementById("result");
  if (!result) return;
  const held = m.rematch && localStorage.getItem(`spaghetti.token.${m.rematch}`);
  let action = null;
  if (held || (m.rematch && m.you === null)) {
    action = el("a", { class: "button primary", id: "rematch", href: `/g/${m.rematch}` }, w(held ? "lobby.toRematch" : "lobby.watchRematch"));
  } else if (m.you !== null && t.token) {
    action = el("button", { class: "primary", id: "rematch", onclick: async () => {
      try {
        const g = await api("POST", `/api/games/${t.id}/rematch`, { token: t.token });
        enterGame(g);
      } catch (e) { toast(e.message); }
    } }, w(m.rematch ? "lobby.joinRematch" : "lobby.rematch"));
    if (m.rematch && t.offered !== m.rematch) { t.offered = m.rematch; toast(w("lobby.offered")); }
  }
  if (action) result.after(el("div", { class: "buttons rematch" }, action));
}
