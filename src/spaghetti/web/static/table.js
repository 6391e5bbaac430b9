// Spaghetti Code in the browser: the live table over a WebSocket.
"use strict";

// ------------------------------------------------------------------ the live table

// The games this browser holds a seat in, newest first (for the home page).
function remember(id) {
  const known = JSON.parse(localStorage.getItem("spaghetti.games") || "[]").filter((x) => x !== id);
  known.unshift(id);
  localStorage.setItem("spaghetti.games", JSON.stringify(known.slice(0, 50)));
}

let live = null; // {id, token, ws, msg, retry, closed}

function tablePage(id) {
  if (live) { live.closed = true; if (live.ws) live.ws.close(); }
  live = { id, token: localStorage.getItem(`spaghetti.token.${id}`), ws: null, msg: null, retry: 0, closed: false, hint: null };
  main().replaceChildren(el("div", { class: "panel" }, w("connecting")));
  document.getElementById("subtitle").textContent = "";
  const params = new URLSearchParams(location.search);
  const invite = params.get("invite");
  const start = () => connect(live);
  if (invite && live.token) {
    // This browser already holds a seat here: keep it, and leave the invite for someone else.
    toast(w("haveSeat"));
    history.replaceState({}, "", `/g/${id}`);
    start();
  } else if (invite) {
    api("POST", `/api/games/${id}/claim`, { invite }).then((r) => {
      localStorage.setItem(`spaghetti.token.${id}`, r.token);
      remember(id);
      live.token = r.token;
    }).catch((e) => { if (!live.token) toast(e.message); })
      .finally(() => { history.replaceState({}, "", `/g/${id}`); start(); });
  } else start();
}

function connect(t) {
  if (t.closed) return;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const q = new URLSearchParams({ lang });
  if (t.token) q.set("token", t.token);
  const ws = new WebSocket(`${proto}://${location.host}/ws/${t.id}?${q}`);
  t.ws = ws;
  setConn(w("connecting"));
  ws.onopen = () => { t.retry = 0; setConn(w("live"), true); };
  ws.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    if (m.type === "state") { t.msg = m; t.received = performance.now(); drawTable(t); }
    else if (m.type === "error") {
      toast(m.message);
      if (t.hint && t.hint.pending) { t.hint = null; if (t.msg) drawTable(t); }  // no hint is coming
      if (m.code === "bad_token") { localStorage.removeItem(`spaghetti.token.${t.id}`); t.token = null; }
      if (m.code === "not_found") { t.closed = true; }
    } else if (m.type === "hint") { t.hint = m; drawTable(t); }
  };
  ws.onclose = () => {
    if (t.closed || live !== t) return;
    setConn(w("reconnecting"));
    t.retry = Math.min(t.retry + 1, 6);
    setTimeout(() => connect(t), 250 * 2 ** t.retry);
  };
}

function setConn(text, ok) {
  const c = document.getElementById("conn");
  c.textContent = text;
  c.className = "conn" + (ok ? " ok" : "");
}

function send(t, message) {
  if (t.ws && t.ws.readyState === WebSocket.OPEN) t.ws.send(JSON.stringify(message));
  else toast(w("reconnecting"));
}

// Draws the table anew: with the motion from the board before, the focus kept, what happened said.
function drawTable(t) {
  const m = t.msg;
  const v = m.view;
  const mine = m.you !== null && v.to_move === m.you;
  const before = Motion.snapshot(main());
  const moved = t.shownMoves !== undefined && t.shownMoves !== v.moves;
  const turnCame = mine && (!t.wasMine || moved);
  keepFocus(() => drawTableNow(t), turnCame, "#program .legal[data-option], .players .legal[data-option], .buttons button.legal");
  if (moved && Motion.play(main(), before)) Sound.beep(mine);
  const newest = m.log.length ? m.log[m.log.length - 1].n : 0;
  if (t.said !== undefined && newest > t.said) {
    announce(m.log.filter((e) => e.n > t.said).map((e) => e.text).concat(mine ? [m.status] : []).join(" "));
  }
  t.said = newest;
  t.shownMoves = v.moves;
  t.wasMine = mine;
  shortcuts = mine ? {
    r: () => t.play("run"), p: () => t.play("pass"), d: () => t.play("done"),
    h: () => { const b = document.getElementById("hint"); if (b) b.click(); return !!b; },
  } : {};
}

function drawTableNow(t) {
  const m = t.msg;
  const v = m.view;
  vocabulary = META.games && META.games[v.variant] ? META.games[v.variant].vocabulary : "code";
  document.title = gameTitle(v.variant);
  document.querySelector(".brand").textContent = gameTitle(v.variant);
  document.getElementById("subtitle").textContent = lang === "ja"
    ? `レベル${v.level} · ${v.players}人 · ${v.moves}手目` : `level ${v.level} · ${v.players} players · move ${v.moves}`;
  const mine = m.you !== null && v.to_move === m.you;
  const legal = mine ? v.legal : [];
  t.play = (o) => { if (live !== t || t.closed || !legal.includes(o)) return false; send(t, { type: "play", option: o, moves: v.moves }); return true; };
  const board = renderBoard(v, { legal, seats: m.seats, you: m.you, clock: m.clock,
    turnFlag: m.turn_flag, selected: m.selected, labels: mine ? m.labels : {} });
  board.addEventListener("click", (ev) => {
    const target = ev.target.closest(".legal[data-option]");
    if (!target || !mine) return;
    ev.stopPropagation();
    send(t, { type: "play", option: target.dataset.option, moves: v.moves });
  });
  const status = el("div", { class: "status" + (mine ? " mine" : "") + (v.phase === "over" ? " over" : ""), id: "status" },
    m.status, m.thinking ? el("span", { class: "thinking" }, " · ", w("thinking")) : null);
  const side = el("div", { class: "side" });
  if (mine) {
    const buttons = el("div", { class: "buttons" });
    for (const o of legal) {
      if (["pass", "run", "done", "declare"].includes(o)) {
        buttons.append(el("button", { class: "legal big", "data-option": o, title: m.labels[o],
          onclick: () => send(t, { type: "play", option: o, moves: v.moves }) }, w(`btn.${o}`), el("small", {}, m.labels[o])));
      }
    }
    const list = el("ol", { class: "options", id: "options" }, legal.map((o) => el("li", {},
      el("button", { "data-option": o, onclick: () => send(t, { type: "play", option: o, moves: v.moves }) },
        el("code", {}, o), " ", m.labels[o] || ""))));
    let hintBox = null;
    if (t.hint && t.hint.pending && t.hint.moves === v.moves) {
      hintBox = el("p", { class: "hint muted", id: "hint-wait" }, w("hintThinking"));
    } else if (t.hint && t.hint.options && t.hint.moves === v.moves) {
      hintBox = el("ol", { class: "hint", id: "hint-answer" }, t.hint.options.slice(0, 3).map((h) =>
        el("li", {}, el("code", {}, h.option), ` ${h.label} · ${Math.round(h.chance * 100)}%`)));
    }
    side.append(el("h3", {}, w("yourOptions")), buttons,
      el("details", { open: legal.length <= 12 }, el("summary", {}, w("allOptions")), list),
      el("button", { id: "hint", onclick: () => { t.hint = { pending: true, moves: v.moves }; send(t, { type: "hint" }); drawTable(t); } }, w("hint")),
      hintBox || "");
  } else if (m.may_declare) {
    // C9 manual: at a repeated position any player still in may declare, not only the mover.
    side.append(el("div", { class: "buttons" },
      el("button", { class: "legal big", id: "declare", "data-option": "declare", title: m.labels.declare || "",
        onclick: () => send(t, { type: "play", option: "declare", moves: v.moves }) },
        w("btn.declare"), el("small", {}, m.labels.declare || ""))));
  } else if (m.you === null) {
    side.append(el("p", { class: "muted" }, w("spectating")));
  }
  if (v.phase === "over") {
    side.append(el("div", { class: "result", id: "result" }, m.status),
      el("div", { class: "buttons" },
        el("button", { id: "replay", class: "primary", onclick: () => openGameReplay(t.id) }, w("replay")),
        el("a", { class: "button", id: "download", href: `/api/games/${t.id}/record`, download: `spaghetti-${t.id}.json` }, w("download"))));
  }
  const log = el("ol", { class: "log", id: "log", start: m.log.length ? m.log[0].n : 1, tabindex: 0, "aria-label": w("lastMoves") },
    m.log.length ? m.log.map((e) => el("li", {}, e.text)) : el("li", { class: "muted" }, w("noMoves")));
  side.append(el("h3", {}, w("lastMoves")), log, el("div", { class: "buttons" }, keysButton(), Sound.button()));
  const invites = JSON.parse(localStorage.getItem(`spaghetti.invites.${t.id}`) || "{}");
  const links = el("details", { class: "links" }, el("summary", {}, w("invite")));
  for (const [seat, code] of Object.entries(invites)) {
    if (m.seats[seat] && m.seats[seat].claimed) continue;
    links.append(linkRow(colourName(Number(seat)), `${location.origin}/g/${t.id}?invite=${code}`));
  }
  links.append(linkRow(w("watchLink"), `${location.origin}/g/${t.id}`));
  main().replaceChildren(el("div", { class: "table" }, el("div", { class: "left" }, guidePanel(t), status, board), side), links);
  decorateTable(t);  // the players' names and ratings, the rematch (lobby.js)
  log.scrollTop = log.scrollHeight;  // the newest move in view
  tickClock(t);
}

function tickClock(t) {
  clearInterval(tickClock.timer);
  const m = t.msg;
  if (!m.clock || m.view.phase === "over") return;
  tickClock.timer = setInterval(() => {
    const s = m.view.to_move;
    const node = document.querySelector(`.clock[data-seat="${s}"]`);
    if (node && m.seats[s].kind === "human") node.textContent = fmtClock(m.clock[s] - (performance.now() - t.received) / 1000);
  }, 250);
}

function linkRow(label, url) {
  const input = el("input", { value: url, readonly: true, size: 40 });
  return el("div", { class: "link" }, el("span", {}, label), input,
    el("button", { onclick: () => { input.select(); navigator.clipboard && navigator.clipboard.writeText(url); toast(w("copied")); } }, w("copy")));
}

async function openGameReplay(id) {
  try {
    const data = await api("GET", `/api/games/${id}/replay?lang=${lang}`);
    if (live) { live.closed = true; if (live.ws) live.ws.close(); }
    replayPage(data, id, () => tablePage(id));
  } catch (e) { toast(e.message); }
}

