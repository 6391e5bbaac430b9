// Spaghetti Code in the browser: the new-game form, the table (live over a WebSocket) and the
// replay viewer. Plain JavaScript, no build step. The server checks every move; this page only
// shows what it is sent and sends the option the player clicked.
"use strict";

// ------------------------------------------------------------------ words (EN / JA)

const UI = {
  en: {
    title: "Spaghetti Code", newGame: "New game", level: "Level", players: "Players",
    seats: "Seats", you: "You", person: "A person (invite link)", computer: "Computer",
    difficulty: "Difficulty", options: "Rule options", clock: "Chess clock",
    puzzle: "Puzzle of the day", puzzleOf: "Puzzle", puzzleGoal: "to move: find the one option that wins within {n} of your turns",
    right: "Right!", wrong: "Not this one.", streak: "Streak", nextPuzzle: "Next puzzle", theAnswer: "The answer",
    minutesEach: "minutes per player", create: "Create the game", openRecord: "Replay a record file",
    openHint: "Open a game record (.json) to replay it move by move.",
    program: "Program", cursor: "cursor", running: "running", life: "life", supply: "supply",
    toPlace: "to place", removed: "removed", out: "out", winner: "winner", toMove: "to move",
    online: "online", offline: "offline", waiting: "not joined yet", lastMoves: "Last moves",
    noMoves: "(no moves yet)", yourOptions: "Your options", allOptions: "All options (list)",
    invite: "Invite links (each works once)", watchLink: "Spectator link (read only)",
    copy: "Copy", copied: "Copied", replay: "Replay the game", download: "Download the record",
    back: "Back to the table", move: "move", of: "of", spectating: "You are watching.",
    hint: "Hint", hintThinking: "Thinking…", thinking: "thinking…", chips: "Chip supply",
    increment: "Increment", decrement: "Decrement", connecting: "connecting…", live: "live",
    reconnecting: "reconnecting…", home: "Home", replayOf: "Replay", autoplay: "Play forced moves by themselves",
    seed: "Seed (empty: random)", random: "random", easy: "easy", normal: "normal", hard: "hard", perfect: "perfect",
    forward: "→ forward", backward: "← backward", play: "▶ play", pause: "❚❚ pause",
    clockOut: "out of time: the computer plays this seat", yes: "on", no: "off",
    instant: "Instant card", instantHidden: "instant card (hidden)", instantUsed: "used",
    instantDiscarded: "instant card discarded",
    variant: "Game", yourGames: "Your games", analyse: "Analyse this position",
    analysisOf: "The computer's view of the options of", noAnalysis: "The game is over here.",
    "btn.run": "▶ run", "btn.pass": "pass", "btn.done": "done", "btn.declare": "declare a stalemate", noGames: "(none yet: create one)", finished: "finished", inPlay: "in play",
    haveSeat: "You already have a seat in this game: send this invite link to someone else.",
    headNote: "Flags head first (top). Ringed: the flag with the turn. Dashed: still to act in this visit.",
  },
  ja: {
    title: "スパゲッティコード", newGame: "新しいゲーム", level: "レベル", players: "人数",
    seats: "席", you: "あなた", person: "ほかの人（招待リンク）", computer: "コンピュータ",
    difficulty: "強さ", options: "ルールオプション", clock: "チェスクロック",
    puzzle: "今日の詰め問題", puzzleOf: "詰め問題", puzzleGoal: "の番: 自分の{n}手番以内に勝てる唯一の選択肢を見つけてください",
    right: "正解！", wrong: "残念、違います。", streak: "連続正解", nextPuzzle: "次の問題", theAnswer: "正解は",
    minutesEach: "分（1人あたり）", create: "ゲームを作る", openRecord: "棋譜ファイルを再生",
    openHint: "棋譜（.json）を開いて一手ずつ再生します。",
    program: "プログラム", cursor: "カーソル", running: "実行中", life: "ライフ", supply: "手持ち",
    toPlace: "配置残り", removed: "除去", out: "脱落", winner: "勝者", toMove: "手番",
    online: "接続中", offline: "未接続", waiting: "未参加", lastMoves: "最近の手",
    noMoves: "(まだ手はありません)", yourOptions: "選択肢", allOptions: "選択肢の一覧",
    invite: "招待リンク（各1回のみ有効）", watchLink: "観戦リンク（閲覧のみ）",
    copy: "コピー", copied: "コピーしました", replay: "ゲームを再生", download: "棋譜をダウンロード",
    back: "テーブルに戻る", move: "手", of: "/", spectating: "観戦中です。",
    hint: "ヒント", hintThinking: "考え中…", thinking: "考え中…", chips: "チップの山",
    increment: "インクリメント", decrement: "デクリメント", connecting: "接続中…", live: "ライブ",
    reconnecting: "再接続中…", home: "ホーム", replayOf: "再生", autoplay: "選択肢が1つの手は自動で指す",
    seed: "シード（空欄: ランダム）", random: "ランダム", easy: "やさしい", normal: "ふつう", hard: "つよい", perfect: "完全",
    forward: "→ 順方向", backward: "← 逆方向", play: "▶ 再生", pause: "❚❚ 停止",
    clockOut: "時間切れ: この席はコンピュータが指します", yes: "あり", no: "なし",
    instant: "インスタントカード", instantHidden: "インスタントカード（非公開）", instantUsed: "使用済み",
    instantDiscarded: "インスタントカードは捨てられた",
    variant: "ゲーム", yourGames: "あなたのゲーム", analyse: "この局面を解析",
    analysisOf: "コンピュータの評価: 手番", noAnalysis: "この局面でゲームは終わっています。",
    "btn.run": "▶ 実行", "btn.pass": "パス", "btn.done": "選択終了", "btn.declare": "膠着状態を宣言", noGames: "(まだありません)", finished: "終了", inPlay: "対局中",
    haveSeat: "このゲームにはすでに席があります。この招待リンクはほかの人に送ってください。",
    headNote: "フラグは先頭が上。囲み: 手番のフラグ。点線: この訪問でまだ手番が来るフラグ。",
  },
};

// The rule options of every game, in words: OPTION_WORDS[lang][name] = [name in words,
// {value: value in words}] (a value not listed is shown as it is: a number).
const OPTION_WORDS = {
  en: {
    placement_order: ["Placement order", { round_robin: "round robin", snake: "snake (back and forth)" }],
    remove_all_winner: ["When every flag is removed, the winner is", { head: "the head flag's owner", tail: "the tail flag's owner" }],
    stalemate: ["Stalemate", { auto: "ends the game by itself", manual: "is declared by a player" }],
    reverse_priority: ["Extra card: ReversePriority", {}],
    memory: ["Extra card: Memory", {}],
    reverse_flips_priority: ["Variant: Reverse also flips priority", {}],
    instant_cards: ["Expansion: instant cards", {}],
    interrupt: ["Expansion: interrupt (3 players or more)", {}],
    sequential_open: ["Expansion: sequential open", {}],
    fair_first: ["Expansion: fair first player (2 players)", {}],
    setup: ["Setup", { rulebook: "the rulebook's deal", "we-are-programmer": "We are programmers", "life-race": "Life race",
      inflation: "Inflation", catastrophe: "Catastrophe", novice: "Novice" }],
    life_cap: ["Life cap (the die)", { null: "no cap" }],
    bits: ["Bits per player", { auto: "by the number of players" }],
    start_hp: ["Starting HP", {}],
    win_hp: ["HP that wins", { null: "none" }],
    coin_flip: ["Coin flip", {}],
  },
  ja: {
    placement_order: ["配置の順番", { round_robin: "順番に", snake: "折り返し" }],
    remove_all_winner: ["全フラグ除去時の勝者", { head: "先頭のフラグの持ち主", tail: "末尾のフラグの持ち主" }],
    stalemate: ["膠着状態", { auto: "自動で終了", manual: "プレイヤーが宣言" }],
    reverse_priority: ["追加カード: 優先順位反転", {}],
    memory: ["追加カード: メモリ", {}],
    reverse_flips_priority: ["変種: リバースで優先順位も反転", {}],
    instant_cards: ["拡張: インスタントカード", {}],
    interrupt: ["拡張: 割り込み（3人以上）", {}],
    sequential_open: ["拡張: 順次公開", {}],
    fair_first: ["拡張: 公平な先手決め（2人）", {}],
    setup: ["セットアップ", { rulebook: "ルールブックの配り方", "we-are-programmer": "We are programmer", "life-race": "ライフレース",
      inflation: "インフレーション", catastrophe: "カタストロフ", novice: "初心者" }],
    life_cap: ["ライフの上限（ダイス）", { null: "上限なし" }],
    bits: ["1人あたりのビット", { auto: "人数による" }],
    start_hp: ["開始時のHP", {}],
    win_hp: ["勝利するHP", { null: "なし" }],
    coin_flip: ["コイントス", {}],
  },
};
const optionName = (name) => (OPTION_WORDS[lang][name] ? OPTION_WORDS[lang][name][0] : name.replace(/_/g, " "));
function optionValue(name, value) {
  if (typeof value === "boolean") return w(value ? "yes" : "no");
  const words = OPTION_WORDS[lang][name] ? OPTION_WORDS[lang][name][1] : {};
  const key = String(value);
  return words[key] !== undefined ? words[key] : key;
}

// A card's name with places to break between its words ("Remove<wbr>Flag"), never inside one.
function cardNameNode(name) {
  const out = el("span", { class: "nm" });
  String(name).split(/(?<=[a-z])(?=[A-Z])/).forEach((part, i) => {
    if (i) out.append(el("wbr"));
    out.append(part);
  });
  return out;
}

// The words of the other games of the family, where they differ: Battle of the Spaghetti
// Monsters (islands, inhabitants, a wizard) and the Nightmare notes (bits, the PC, HP).
const VOCAB = {
  monsters: {
    en: { program: "Islands", running: "casting", increment: "Blessing", decrement: "Curse",
      headNote: "Inhabitants head first (top). Ringed: the inhabitant with the turn. Dashed: still to act in this visit.",
      "btn.run": "▶ cast" },
    ja: { program: "島", running: "発動中", increment: "祝福", decrement: "呪い",
      headNote: "島民は先頭が上。囲み: 手番の島民。点線: この訪問でまだ手番が来る島民。", "btn.run": "▶ 発動" },
  },
  nightmare: {
    en: { life: "HP", headNote: "Bits head first (top). Ringed: the bit with the turn. Dashed: still to act in this visit." },
    ja: { life: "HP", headNote: "ビットは先頭が上。囲み: 手番のビット。点線: この訪問でまだ手番が来るビット。" },
  },
};
let vocabulary = "code";  // of the game on the table

let lang = localStorage.getItem("spaghetti.lang") ||
  ((navigator.language || "en").toLowerCase().startsWith("ja") ? "ja" : "en");
const w = (key) => {
  const own = VOCAB[vocabulary] && VOCAB[vocabulary][lang];
  if (own && own[key] !== undefined) return own[key];
  return UI[lang][key] !== undefined ? UI[lang][key] : key;
};
const gameTitle = (variant) => (META && META.games && META.games[variant]
  ? META.games[variant].title[lang] : w("title"));
let META = null;

// ------------------------------------------------------------------ small helpers

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

function toast(message) {
  const box = document.getElementById("toast");
  box.textContent = message;
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.hidden = true; }, 5000);
}

async function api(method, path, body) {
  const res = await fetch(path, {
    method, headers: body !== undefined ? { "Content-Type": "application/json" } : {},
    body: body !== undefined ? (typeof body === "string" ? body : JSON.stringify(body)) : undefined,
  });
  let data = null;
  try { data = await res.json(); } catch (e) { data = { error: res.statusText }; }
  if (!res.ok) throw new Error(data.error || res.statusText);
  return data;
}

const colourName = (seat) => META.colours[seat % META.colours.length][lang];
const cardName = (name) => (META.cards[name] ? META.cards[name].name[lang] : name);
const main = () => document.getElementById("main");

function applyStaticWords() {
  document.documentElement.lang = lang;
  document.title = w("title");
  document.querySelectorAll("[data-t]").forEach((n) => { n.textContent = w(n.dataset.t); });
  document.getElementById("lang").value = lang;
}

// ------------------------------------------------------------------ the board (live and replay)

// The text of a card with its parameters as chips: {1} in the text becomes a clickable span.
function cardText(card, index, legal) {
  if (card.card === null) return el("div", { class: "text" }, "?");  // face down
  const tmpl = card.template ? card.template[lang]
    : (META.cards[card.card] ? META.cards[card.card].text[lang] : card.card);
  const out = el("div", { class: "text" });
  const parts = tmpl.split(/\{(\d+)\}/);
  parts.forEach((part, i) => {
    if (i % 2 === 0) { if (part) out.append(part); return; }
    const p = Number(part);
    const option = `param ${index}.${p}`;
    const mod = card.modifiers[p] || 0;
    out.append(el("span", {
      class: "param" + (legal.has(option) ? " legal" : ""), "data-option": option,
      title: mod ? `${mod > 0 ? "+" : ""}${mod}` : null,
    }, `{${card.params[p]}}`, mod ? el("sup", { class: mod > 0 ? "chip inc" : "chip dec" },
      (mod > 0 ? "+" : "") + mod) : null));
  });
  return out;
}

function renderBoard(v, ctx) {
  const legal = new Set(ctx.legal || []);
  const cards = el("div", { class: "program", id: "program" });
  v.program.forEach((card, i) => {
    const here = v.cursor === i && v.phase !== "placement";
    const cardOptions = [`place ${i}`, `card ${i}`, `to ${i}`, `at ${i}`].filter((o) => legal.has(o));
    const queue = el("div", { class: "queue" });
    card.flags.forEach((owner, k) => {
      const option = `flag ${i}.${k}`;
      const turn = ctx.turnFlag && ctx.turnFlag[0] === i && ctx.turnFlag[1] === k;
      const picked = ctx.selected && ctx.selected.flag && ctx.selected.flag[0] === i && ctx.selected.flag[1] === k;
      queue.append(el("span", {
        class: `flag c${owner}` + (card.pending[k] && here ? " pending" : "") +
          (turn ? " turn" : "") + (picked ? " picked" : "") +
          (legal.has(option) ? " legal" : ""),
        "data-option": option, title: `${colourName(owner)} · ${k}`,
      }, lang === "ja" ? META.colours[owner].ja : META.colours[owner].mark));
    });
    const box = el("div", {
      class: "card" + (here ? " here" : "") + (v.running === i ? " running" : "") +
        (ctx.selected && ctx.selected.card === i ? " picked" : "") +
        (cardOptions.length ? " legal" : ""),
      "data-index": i, "data-option": cardOptions[0] || null,
    },
    el("div", { class: "idx" }, i),
    el("div", { class: "name" }, cardNameNode(card.name ? card.name[lang] : (card.card === null ? "?" : cardName(card.card)))),
    cardText(card, i, legal),
    queue,
    el("div", { class: "cursor" }, here ? `▲ ${v.direction > 0 ? "→" : "←"}` : "",
      v.running === i ? el("span", { class: "badge" }, w("running")) : null));
    cards.append(box);
  });
  const seats = ctx.seats || [];
  const table = el("div", { class: "players" });
  for (let s = 0; s < v.players; s++) {
    const info = seats[s] || {};
    const option = `player ${s}`;
    let who = "";
    if (ctx.you === s) who = w("you");
    else if (info.kind === "computer") who = `${w("computer")} · ${w(info.difficulty || "easy")}`;
    else if (info.kind === "human") who = info.claimed ? (info.online ? w("online") : w("offline")) : w("waiting");
    const marks = [];
    if (v.eliminated[s]) marks.push(el("span", { class: "tag out" }, w("out")));
    if (v.winner === s) marks.push(el("span", { class: "tag win" }, w("winner")));
    if (v.to_move === s) marks.push(el("span", { class: "tag move" }, w("toMove")));
    if (info.flag_fell) marks.push(el("span", { class: "tag out", title: w("clockOut") }, "⌛"));
    const clock = ctx.clock ? el("span", { class: "clock", "data-seat": s }, fmtClock(ctx.clock[s])) : null;
    const instant = v.instant ? instantNode(v.instant[s], s === ctx.you) : null;
    table.append(el("div", {
      class: `player c${s}` + (v.to_move === s ? " to-move" : "") + (v.eliminated[s] ? " is-out" : "") +
        (legal.has(option) ? " legal" : ""),
      "data-option": legal.has(option) ? option : null, "data-seat": s,
    },
    el("span", { class: `swatch c${s}` }, lang === "ja" ? META.colours[s].ja : META.colours[s].mark),
    el("span", { class: "pname" }, colourName(s), el("small", {}, who)),
    el("span", { class: "stat life", title: w("life") }, vocabulary === "nightmare" ? "HP " : "♥ ", v.lives[s]),
    el("span", { class: "stat", title: w("supply") }, `${w("supply")} ${v.supply[s]}`),
    v.phase === "placement" ? el("span", { class: "stat" }, `${w("toPlace")} ${v.hand[s]}`) : null,
    el("span", { class: "stat" }, `${w("removed")} ${v.removed[s]}`),
    clock, marks, instant));
  }
  const chips = v.chips.increment + v.chips.decrement > 0 || v.level >= 3 && vocabulary !== "nightmare" ? el("div", { class: "chips" }, `${w("chips")}: `,
    el("span", { class: "chip inc" }, `${w("increment")} ${v.chips.increment}`), " ",
    el("span", { class: "chip dec" }, `${w("decrement")} ${v.chips.decrement}`)) : null;
  return el("div", { class: "board" },
    el("div", { class: "program-head" }, el("h2", {}, w("program")),
      el("span", { class: "dir" }, v.direction > 0 ? w("forward") : w("backward"))),
    el("p", { class: "note" }, w("headNote")), cards, chips, table);
}

// A seat's instant card: the holder sees theirs at all times (name and text with its values);
// the others see that one is held, and which it was once it is used.
function instantNode(entry, mine) {
  if (!entry || entry.status === "none") return null;
  const cls = "instant" + (mine ? " mine" : "");
  if (entry.status === "discarded") return el("span", { class: cls }, w("instantDiscarded"));
  if (!entry.card) return el("span", { class: cls }, "⚡ ", w("instantHidden"));
  const info = META.cards[entry.card];
  const values = entry.params || (info ? info.params : []);  // its values, else as printed
  const text = (info ? info.text[lang] : "").replace(/\{(\d+)\}/g,
    (_, i) => (values[Number(i)] !== undefined ? `{${values[Number(i)]}}` : ""));
  return el("span", { class: cls, title: text },
    el("span", {}, "⚡ ", el("strong", {}, cardName(entry.card)), entry.status === "used" ? ` (${w("instantUsed")})` : ""),
    text ? el("small", {}, text) : null);
}

function fmtClock(sec) {
  if (sec === null || sec === undefined) return "";
  sec = Math.max(0, Math.ceil(sec));
  return `${Math.floor(sec / 60)}:${String(sec % 60).padStart(2, "0")}`;
}

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
      const kind = el("select", { class: "kind", name: `seat${s}` },
        el("option", { value: "you" }, w("you")), el("option", { value: "human" }, w("person")),
        el("option", { value: "computer" }, w("computer")));
      kind.value = k;
      const diff = el("select", { class: "diff", name: `diff${s}` },
        META.difficulties.map((x) => el("option", { value: x }, w(x))));
      diff.value = d;
      const sync = () => { diff.disabled = kind.value !== "computer"; };
      kind.addEventListener("change", () => {
        if (kind.value === "you") seatBox.querySelectorAll(".kind").forEach((o) => { if (o !== kind && o.value === "you") o.value = "human"; });
        seatBox.querySelectorAll(".kind").forEach((o) => o.dispatchEvent(new Event("sync")));
      });
      kind.addEventListener("sync", sync);
      sync();
      seatBox.append(el("div", { class: "seat-row" }, el("span", { class: `swatch c${s}` }, META.colours[s].mark),
        el("span", { class: "pname" }, colourName(s)), kind, diff));
    }
  }
  players.addEventListener("change", drawSeats);
  const opts = el("div", { class: "opts" });
  for (const [name, values] of Object.entries(META.options)) {
    // The value is the index in META.options[name]: booleans, numbers and null come back as such.
    const sel = el("select", { name, "data-option-name": name },
      values.map((v, i) => el("option", { value: String(i) }, optionValue(name, v))));
    opts.append(el("label", { "data-option-name": name }, el("span", {}, optionName(name)), sel));
  }
  // Only the levels, player counts and options of the chosen game.
  function fitGame() {
    const g = META.games[variant.value];
    opts.querySelectorAll("label").forEach((l) => {
      const name = l.querySelector("select").dataset.optionName;
      l.hidden = !g.options.includes(name);
    });
    for (const [box, allowed] of [[level, g.levels], [players, g.players]]) {
      [...box.options].forEach((o) => { o.hidden = !allowed.includes(Number(o.value)); });
      if (!allowed.includes(Number(box.value))) box.value = String(allowed[0]);
    }
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
    el("button", { type: "submit", id: "create", class: "primary" }, w("create")));
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
      if (own.includes(name)) options[name] = META.options[name][Number(s.value)];
    });
    const body = {
      variant: variant.value, level: Number(level.value), players: Number(players.value), seats, options,
      you: youIdx >= 0 ? youIdx : (seats.some((s) => s.kind === "human") ? seats.findIndex((s) => s.kind === "human") : null),
      clock: clockOn.checked ? Number(clockMin.value) * 60 : null, autoplay: autoplay.checked,
    };
    if (seed.value !== "") body.seed = Number(seed.value);
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
  const openPanel = el("div", { class: "panel" }, el("h2", {}, w("openRecord")), el("p", {}, w("openHint")), file,
    el("p", {}, el("a", { href: "/puzzle", id: "puzzle-link" }, w("puzzle"))));
  const mine = el("ul", { class: "my-games", id: "my-games" });
  const gamesPanel = el("div", { class: "panel" }, el("h2", {}, w("yourGames")), mine);
  main().replaceChildren(el("div", { class: "home" }, form, el("div", {}, gamesPanel, openPanel)));
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

function drawTable(t) {
  const m = t.msg;
  const v = m.view;
  vocabulary = META.games && META.games[v.variant] ? META.games[v.variant].vocabulary : "code";
  document.title = gameTitle(v.variant);
  document.querySelector(".brand").textContent = gameTitle(v.variant);
  document.getElementById("subtitle").textContent = lang === "ja"
    ? `レベル${v.level} · ${v.players}人 · ${v.moves}手目` : `level ${v.level} · ${v.players} players · move ${v.moves}`;
  const mine = m.you !== null && v.to_move === m.you;
  const legal = mine ? v.legal : [];
  const board = renderBoard(v, { legal, seats: m.seats, you: m.you, clock: m.clock,
    turnFlag: m.turn_flag, selected: m.selected });
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
  const log = el("ol", { class: "log", id: "log", start: m.log.length ? m.log[0].n : 1 },
    m.log.length ? m.log.map((e) => el("li", {}, e.text)) : el("li", { class: "muted" }, w("noMoves")));
  side.append(el("h3", {}, w("lastMoves")), log);
  const invites = JSON.parse(localStorage.getItem(`spaghetti.invites.${t.id}`) || "{}");
  const links = el("details", { class: "links" }, el("summary", {}, w("invite")));
  for (const [seat, code] of Object.entries(invites)) {
    if (m.seats[seat] && m.seats[seat].claimed) continue;
    links.append(linkRow(colourName(Number(seat)), `${location.origin}/g/${t.id}?invite=${code}`));
  }
  links.append(linkRow(w("watchLink"), `${location.origin}/g/${t.id}`));
  main().replaceChildren(el("div", { class: "table" }, el("div", { class: "left" }, status, board), side), links);
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

// ------------------------------------------------------------------ replay

let replaying = null; // {id, back, text, at}: to draw the replay again in another language

function replayPage(data, id, back, text, startAt) {
  setConn("");
  let i = startAt !== undefined ? startAt : data.frames.length - 1;
  replaying = { id, back, text, at: () => i };
  let timer = null;
  const view = el("div", { id: "replay-board" });
  const slider = el("input", { type: "range", min: 0, max: data.frames.length - 1, value: i, id: "replay-slider" });
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
  function show(n) {
    i = Math.max(0, Math.min(data.frames.length - 1, n));
    const f = data.frames[i];
    slider.value = i;
    counter.textContent = lang === "ja" ? `${i}手目 / ${data.frames.length - 1}` : `move ${i} of ${data.frames.length - 1}`;
    said.textContent = f.text || "—";
    analysis.replaceChildren();
    result.textContent = f.view.phase === "over" ? data.status : "";
    vocabulary = META.games && META.games[f.view.variant] ? META.games[f.view.variant].vocabulary : "code";
    view.replaceChildren(renderBoard(f.view, { legal: [], seats: [] }));
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
    el("button", { id: "replay-first", onclick: () => { stop(); show(0); } }, "|◀"),
    el("button", { id: "replay-prev", onclick: () => { stop(); show(i - 1); } }, "◀"),
    playBtn,
    el("button", { id: "replay-next", onclick: () => { stop(); show(i + 1); } }, "▶"),
    el("button", { id: "replay-last", onclick: () => { stop(); show(data.frames.length - 1); } }, "▶|"),
    slider, counter, analyseBtn);
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
  };
  show(i);
}

// ------------------------------------------------------------------ routing

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
  const board = renderBoard(p.view, { legal: p.legal, seats: [] });
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

function route() {
  applyStaticWords();
  const m = location.pathname.match(/^\/g\/([A-Za-z0-9_-]+)$/);
  if (m) tablePage(m[1]);
  else if (location.pathname === "/puzzle") puzzlePage(new URLSearchParams(location.search).get("n"));
  else { if (live) { live.closed = true; if (live.ws) live.ws.close(); live = null; } homePage(); }
}

document.getElementById("lang").addEventListener("change", (ev) => {
  lang = ev.target.value;
  localStorage.setItem("spaghetti.lang", lang);
  applyStaticWords();
  if (live && live.msg && !live.closed) {
    send(live, { type: "lang", lang });
    if (live.ws && live.ws.readyState === WebSocket.OPEN) setConn(w("live"), true);
  }
  else if (!document.getElementById("replay-board")) route();  // (the puzzle page too)
  else {
    const r = replaying;
    const again = r.id ? api("GET", `/api/games/${r.id}/replay?lang=${lang}`) : api("POST", `/api/replay?lang=${lang}`, r.text);
    again.then((data) => replayPage(data, r.id, r.back, r.text, r.at())).catch((e) => toast(e.message));
  }
});
window.addEventListener("popstate", route);

fetch("/api/meta").then((r) => r.json()).then((m) => { META = m; route(); });
