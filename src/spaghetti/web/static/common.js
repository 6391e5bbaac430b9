// Spaghetti Code in the browser: the words (EN / JA), small helpers and the board, shared by
// every page (home.js, table.js, replay.js, puzzle.js; main.js routes between them), with
// motion.js (the motion between boards), help.js (card help, keys, focus, the live region) and
// guide.js (the guided first game) loaded right after this file. Plain JavaScript loaded as
// classic scripts in that order, no build step. The server checks every
// move; the pages only show what they are sent and send the option the player clicked.
// A page's own words may be added to UI.en / UI.ja from its file.
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

// The words of the board's labels, the card help, the keys and the sound.
Object.assign(UI.en, {
  flagOf: "{c} flag, {n} in the queue of {card}", hasTurn: "has the turn", flags: "flags", noFlags: "no flags",
  cursorHere: "The cursor is here", tip: "Tip", keys: "Keys", close: "Close", sound: "Sound",
  first: "first move", previous: "previous move", next: "next move", last: "last move",
});
Object.assign(UI.ja, {
  flagOf: "{c}のフラグ、{card}の列の{n}番目", hasTurn: "手番", flags: "フラグ", noFlags: "フラグなし",
  cursorHere: "カーソルはここ", tip: "ヒント", keys: "キー操作", close: "閉じる", sound: "音",
  first: "最初の手", previous: "前の手", next: "次の手", last: "最後の手",
});

// The rule options in words come with META (each option is declared once, in the engine):
// META.options[name] = {values, label: {en, ja}, value_labels: {value: {en, ja}}, players}.
const optionName = (name) => (META.options[name] ? META.options[name].label[lang] : name.replace(/_/g, " "));
function optionValue(name, value) {
  if (typeof value === "boolean") return w(value ? "yes" : "no");
  const words = META.options[name] ? META.options[name].value_labels : {};
  const key = value === null ? "none" : String(value);
  return words[key] !== undefined ? words[key][lang] : key;
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
function cardText(card, index, legal, labels) {
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
    const isLegal = legal.has(option);
    out.append(el("span", {
      class: "param" + (isLegal ? " legal" : ""), "data-option": option,
      title: mod ? `${mod > 0 ? "+" : ""}${mod}` : null,
      role: isLegal ? "button" : null, tabindex: isLegal ? 0 : null,
      "aria-label": isLegal ? `{${card.params[p]}}` + (labels && labels[option] ? ` — ${labels[option]}` : "") : null,
    }, `{${card.params[p]}}`, mod ? el("sup", { class: mod > 0 ? "chip inc" : "chip dec" },
      (mod > 0 ? "+" : "") + mod) : null));
  });
  return out;
}

// A card's text with its values now, for its label ("Move {2} flag(s) ...").
function cardTextNow(card) {
  if (card.card === null) return "";
  const tmpl = card.template ? card.template[lang]
    : (META.cards[card.card] ? META.cards[card.card].text[lang] : card.card);
  return tmpl.replace(/\{(\d+)\}/g, (_, p) => `{${card.params[Number(p)]}}`);
}

// Each card and flag gets a key that stays with it across positions (the card's name and
// occurrence; the flag's owner, card and rank among that owner's flags there), so the motion can
// tell what moved from one view to the next.
function renderBoard(v, ctx) {
  const legal = new Set(ctx.legal || []);
  const labels = ctx.labels || {};
  const said = (option) => (labels[option] ? ` — ${labels[option]}` : "");
  const cards = el("div", { class: "program", id: "program" });
  const seen = {};
  v.program.forEach((card, i) => {
    const here = v.cursor === i && v.phase !== "placement";
    const ident = card.card === null ? "?" : card.card;
    seen[ident] = (seen[ident] || 0) + 1;
    const key = `${ident}#${seen[ident]}`;
    const cardOptions = [`place ${i}`, `card ${i}`, `to ${i}`, `at ${i}`].filter((o) => legal.has(o));
    const queue = el("div", { class: "queue" });
    const ranks = {};
    const name = card.name ? card.name[lang] : (card.card === null ? "?" : cardName(card.card));
    card.flags.forEach((owner, k) => {
      const option = `flag ${i}.${k}`;
      const turn = ctx.turnFlag && ctx.turnFlag[0] === i && ctx.turnFlag[1] === k;
      const picked = ctx.selected && ctx.selected.flag && ctx.selected.flag[0] === i && ctx.selected.flag[1] === k;
      ranks[owner] = (ranks[owner] || 0) + 1;
      const isLegal = legal.has(option);
      queue.append(el("span", {
        class: `flag c${owner}` + (card.pending[k] && here ? " pending" : "") +
          (turn ? " turn" : "") + (picked ? " picked" : "") +
          (isLegal ? " legal" : ""),
        "data-option": option, "data-key": `${owner}@${key}#${ranks[owner]}`,
        title: `${colourName(owner)} · ${k}`,
        role: isLegal ? "button" : "img", tabindex: isLegal ? 0 : null,
        "aria-label": `${w("flagOf").replace("{c}", colourName(owner)).replace("{n}", k + 1).replace("{card}", name)}` +
          (turn ? `, ${w("hasTurn")}` : "") + said(option),
      }, lang === "ja" ? META.colours[owner].ja : META.colours[owner].mark));
    });
    const flagWords = card.flags.length
      ? `${w("flags")}: ${card.flags.map((o) => colourName(o)).join(", ")}` : w("noFlags");
    const box = el("div", {
      class: "card" + (here ? " here" : "") + (v.running === i ? " running" : "") +
        (ctx.selected && ctx.selected.card === i ? " picked" : "") +
        (cardOptions.length ? " legal" : ""),
      "data-index": i, "data-option": cardOptions[0] || null, "data-key": key, "data-card": card.card,
      tabindex: 0, role: cardOptions.length ? "button" : "group",
      "aria-label": `${i}: ${name}. ${cardTextNow(card)} ${flagWords}.` + (here ? ` ${w("cursorHere")}.` : "") +
        (cardOptions.length ? said(cardOptions[0]) : ""),
    },
    el("div", { class: "idx" }, i),
    el("div", { class: "name" }, cardNameNode(name)),
    cardText(card, i, legal, labels),
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
      role: legal.has(option) ? "button" : null, tabindex: legal.has(option) ? 0 : null,
      "aria-label": legal.has(option) ? `${colourName(s)}${said(option)}` : null,
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
  const board = el("div", { class: "board" },
    el("div", { class: "program-head" }, el("h2", {}, w("program")),
      el("span", { class: "dir" }, v.direction > 0 ? w("forward") : w("backward"))),
    el("p", { class: "note" }, w("headNote")), cards, chips, table);
  board.addEventListener("keydown", (ev) => boardKeys(ev, board, ctx.arrows !== false));
  return board;
}

// Enter or Space chooses the focused option; the arrow keys walk the cards and options.
function boardKeys(ev, board, arrows) {
  const target = ev.target;
  if ((ev.key === "Enter" || ev.key === " ") && target.matches(".legal[data-option]")) {
    ev.preventDefault();
    target.click();
    return;
  }
  if (!arrows || !["ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"].includes(ev.key)) return;
  const stops = [...board.querySelectorAll('[tabindex="0"]')];
  const at = stops.indexOf(target);
  if (at < 0) return;
  ev.preventDefault();
  const step = ev.key === "ArrowRight" || ev.key === "ArrowDown" ? 1 : -1;
  stops[(at + step + stops.length) % stops.length].focus();
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

