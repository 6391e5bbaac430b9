// Spaghetti Code in the browser: help for learning and playing without a mouse. The card help
// (the printed text and the rulebook's tip, on hover, focus or tap), the list of keys, the live
// region that says what happened, and keeping the focus where the player was across redraws.
"use strict";

// ------------------------------------------------------------------ card help

// The help box of one card: its name, its printed text (with its printed values) and the tip.
function cardHelp(name) {
  const info = META.cards[name];
  if (!info) return null;
  const text = info.text[lang].replace(/\{(\d+)\}/g, (_, i) => `{${info.params[Number(i)]}}`);
  return [el("strong", {}, info.name[lang]), lang === "ja" ? null : el("span", { class: "muted" }, ` · ${info.name.ja}`),
    el("p", { class: "help-text" }, text),
    info.tips ? el("p", { class: "help-tip" }, el("strong", {}, `${w("tip")}: `), info.tips[lang]) : null];
}

// The help shows for the card under a mouse, the focused card, or a card tapped that is not an
// option. It never takes a tap (style.css: pointer-events), and gets out of the way: a choice
// closes it, and so does a tap elsewhere or a redraw that takes its card away.
const CardHelp = {
  box: null,
  owner: null,  // the card it is shown for
  quiet: null,  // the index of the card just chosen: no hover help for it until the mouse leaves

  show(card) {
    const content = card.dataset.card ? cardHelp(card.dataset.card) : null;
    if (!content) return CardHelp.hide();
    if (!CardHelp.box) {
      // in the main landmark but beside #main, whose children every drawing replaces
      CardHelp.box = el("div", { id: "card-help", role: "tooltip" });
      main().after(CardHelp.box);
    }
    if (CardHelp.owner && CardHelp.owner !== card) CardHelp.owner.removeAttribute("aria-describedby");
    CardHelp.owner = card;
    card.setAttribute("aria-describedby", "card-help");
    CardHelp.box.replaceChildren(...content.filter(Boolean));
    CardHelp.box.hidden = false;
    const r = card.getBoundingClientRect();
    const width = Math.min(320, window.innerWidth - 16);
    CardHelp.box.style.width = `${width}px`;
    CardHelp.box.style.left = `${Math.max(8, Math.min(r.left + window.scrollX, window.scrollX + window.innerWidth - width - 8))}px`;
    CardHelp.box.style.top = `${r.bottom + window.scrollY + 6}px`;
  },

  hide() {
    if (CardHelp.box) CardHelp.box.hidden = true;
    if (CardHelp.owner) CardHelp.owner.removeAttribute("aria-describedby");
    CardHelp.owner = null;
  },
};

const helpCard = (node) => (node && node.closest ? node.closest(".program .card[data-card]") : null);
const chosen = (node) => (node && node.closest ? node.closest(".legal[data-option], button, a, summary") : null);
let restoringFocus = false;  // keepFocus is putting the focus back: that is no request for help

document.addEventListener("pointerover", (ev) => {
  if (ev.pointerType !== "mouse") return;  // a finger asks by tapping (the click below)
  const card = helpCard(ev.target);
  if (!card || card.dataset.index !== CardHelp.quiet) CardHelp.quiet = null;
  if (card && CardHelp.quiet === null && card !== CardHelp.owner) CardHelp.show(card);
  else if (!card && CardHelp.owner && !CardHelp.owner.contains(document.activeElement)) CardHelp.hide();
});
document.addEventListener("click", (ev) => {
  const card = helpCard(ev.target);
  if (chosen(ev.target)) {
    CardHelp.hide();
    CardHelp.quiet = card ? card.dataset.index : null;
  } else if (card) CardHelp.show(card);
  else CardHelp.hide();
}, true);
document.addEventListener("focusin", (ev) => {
  if (restoringFocus) return;
  const card = helpCard(ev.target);
  if (card) CardHelp.show(card); else CardHelp.hide();
});
document.addEventListener("keydown", (ev) => { if (ev.key === "Escape") CardHelp.hide(); });

// ------------------------------------------------------------------ what happened, said

// Says the text to a screen reader (a polite live region, visually hidden).
function announce(text) {
  let region = document.getElementById("announce");
  if (!region) {
    region = el("div", { id: "announce", class: "sr-only", "aria-live": "polite", "aria-atomic": "true" });
    document.body.append(region);
  }
  region.textContent = text;
}

// ------------------------------------------------------------------ focus across redraws

let lastInput = "pointer";
document.addEventListener("keydown", () => { lastInput = "keyboard"; }, true);
document.addEventListener("pointerdown", () => { lastInput = "pointer"; }, true);

// Something to find the focused element by in the next board: its id, its option, or its card.
function focusKey(node) {
  if (!node || node === document.body || !main().contains(node)) return null;
  if (node.id) return `#${CSS.escape(node.id)}`;
  const tag = node.tagName.toLowerCase();
  if (node.matches(".card")) return `.card[data-index="${node.dataset.index}"]`;
  if (node.matches(".player")) return `.player[data-seat="${node.dataset.seat}"]`;
  if (node.dataset.option) return `${tag}[data-option="${CSS.escape(node.dataset.option)}"]`;
  return null;
}

// Redraws with `draw` and puts the focus back on the same thing, or on the first option when the
// turn has just come to the player (`first`: where to look for it); an option that is gone
// leaves the focus on the cursor's card. The focus is left alone when it is outside the page's
// main part (the language switch, a field).
function keepFocus(draw, turnCame, first) {
  turnCame = turnCame && lastInput === "keyboard";  // a mouse's player is not moved about
  const active = document.activeElement;
  const free = !active || active === document.body || main().contains(active);
  const key = focusKey(active);
  draw();
  if (CardHelp.owner && !CardHelp.owner.isConnected) CardHelp.hide();
  if (!free) return;
  let target = key ? document.querySelector(key) : null;
  if (turnCame && !(target && target.matches(".legal"))) target = document.querySelector(first) || target;
  if (!target && key) target = document.querySelector("#program .card.here, #program .card");
  if (!target) return;
  restoringFocus = true;
  try { target.focus({ preventScroll: true }); } finally { restoringFocus = false; }
}

// ------------------------------------------------------------------ the keys

const KEYS = {
  en: [["Tab / Shift+Tab", "go to the next / previous card or option"], ["← → ↑ ↓", "move between the cards and options of the program"],
    ["Enter / Space", "choose the focused option"], ["← → · Home / End", "replay: previous / next, first / last move"], ["r", "run"], ["p", "pass"], ["d", "done"],
    ["h", "ask for a hint"], ["Esc", "close the help; skip the motion"], ["?", "this list"]],
  ja: [["Tab / Shift+Tab", "次 / 前のカードや選択肢へ"], ["← → ↑ ↓", "プログラムのカードと選択肢を移動"],
    ["Enter / Space", "フォーカスした選択肢を選ぶ"], ["← → · Home / End", "再生: 前 / 次の手、最初 / 最後の手"], ["r", "実行"], ["p", "パス"], ["d", "選択終了"],
    ["h", "ヒントを求める"], ["Esc", "ヘルプを閉じる・アニメーションを飛ばす"], ["?", "この一覧"]],
};

function showKeys() {
  let dialog = document.getElementById("keys-help");
  if (dialog) dialog.remove();
  dialog = el("dialog", { id: "keys-help", "aria-labelledby": "keys-title" },
    el("h2", { id: "keys-title" }, w("keys")),
    el("dl", {}, KEYS[lang].flatMap(([k, what]) => [el("dt", {}, el("kbd", {}, k)), el("dd", {}, what)])),
    el("form", { method: "dialog" }, el("button", { id: "keys-close", class: "primary" }, w("close"))));
  document.body.append(dialog);
  dialog.showModal();
}

const keysButton = () => el("button", { id: "keys", onclick: showKeys, "aria-keyshortcuts": "?" }, w("keys"), " (?)");

// The page's shortcuts: `actions` maps a key to what it does (the live table's r, p, d, h).
let shortcuts = {};
document.addEventListener("keydown", (ev) => {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.target.closest && ev.target.closest("input, select, textarea, dialog")) return;
  if (ev.key === "?") { ev.preventDefault(); showKeys(); return; }
  const act = shortcuts[ev.key.toLowerCase()];
  if (act && act()) ev.preventDefault();
});
