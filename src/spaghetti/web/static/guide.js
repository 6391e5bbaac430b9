// Spaghetti Code in the browser: the guided first game. A level-1 game of two against the easy
// computer, the learner moving first (the rulebook: the first player has the edge at level 1, so
// give it to the newcomer), with a panel above the board that teaches the rules step by step and
// moves on as the player acts. The step reached is kept in this browser, per game.
"use strict";

const GUIDE = {
  en: {
    learn: "Learn to play", guideStep: "Step {i} of {n}", hideGuide: "Hide the guide",
    place: ["Place your flags",
      "You are Red, against the easy computer (Blue). The goal: bring the other player's life (♥) to 0, or " +
      "remove all their flags. First you each place 4 flags, one at a time: click a highlighted card (or " +
      "Tab to it and press Enter) to place a flag there. While placing, at most one of your flags per " +
      "card. You move first: at level 1 that is an advantage, and the rulebook gives it to the newcomer."],
    "place-more": ["Flags queue up",
      "A flag joins the tail of its card's queue, and the flag placed first acts first. On RemoveFlag and " +
      "MoveFlag the first flag has the edge: it can remove or move the ones behind it. No need to hurry onto " +
      "a card the computer took first: that choice stays yours. Not sure? Place them anywhere and see how " +
      "the program runs."],
    cursor: ["The program runs",
      "The cursor ▲ walks the cards in order and loops back to the first. On a card with flags, each flag of " +
      "the queue, head first, gets a turn: its owner runs the card's command or passes. A card without flags " +
      "is left at once; a flag that arrives during a visit waits for the next one (C1)."],
    "run-pass": ["Your flag's turn",
      "Your ringed flag has the turn: run the card's command (▶ run, key r) or pass (key p). Running is " +
      "never required, and it is offered only when it changes something (C4)."],
    choose: ["Choose the targets",
      "Now choose what the command acts on: a highlighted flag, card or player. \"{2} flags\" means up to " +
      "2: after the first choice you may stop with done (key d) (C5)."],
    win: ["How the game ends",
      "A player is out at 0 life or with no flag left on the cards; the last one in wins. ForkBomb takes the " +
      "life first and its flag after, so your last flag can win with it (C6). If a position comes back, it " +
      "is a stalemate (C9): most life wins, then most flags, then most flags at the head of a queue."],
    over: ["Well played",
      "The game is over. Replay it to see each move again, then try level 2 (MoveCommand, RemoveCommand, " +
      "Reverse) from the home page. Hover over, focus or tap a card to read its text and the rulebook's tip."],
  },
  ja: {
    learn: "遊び方を学ぶ", guideStep: "ステップ {i} / {n}", hideGuide: "ガイドを閉じる",
    place: ["フラグを立てる",
      "あなたは赤、相手はやさしいコンピュータ（青）です。目的は、相手のライフ（♥）を0以下にするか、相手のフラグを" +
      "全部取り除くこと。まず4個ずつ交互にフラグを立てます。光っているカードをクリック（またはTabで選んでEnter）" +
      "するとそこにフラグが立ちます。配置のときは1枚のカードに自分のフラグは1個まで。レベル1では先手が有利なので、" +
      "ルールブックのとおり先手は初めての人、あなたです。"],
    "place-more": ["フラグの列",
      "フラグはカードの列の末尾に並び、先に立てたフラグが先に実行します。RemoveFlagやMoveFlagでは先のフラグが" +
      "後ろのフラグを取り除いたり動かしたりできるので、先に立てた方が有利です。コンピュータが先に立てたカードに" +
      "急いで置かなくても、その選択肢は奪われません。迷ったら適当に置いて、実行の様子を体験しましょう。"],
    cursor: ["プログラムの実行",
      "カーソル▲がカードを順に進み、最後まで行くと最初に戻ります。フラグのあるカードでは、列の先頭から順に" +
      "各フラグの持ち主がコマンドを実行するかパスします。フラグのないカードはすぐ通過し、訪問中に来たフラグは" +
      "次の訪問まで待ちます（C1）。"],
    "run-pass": ["あなたのフラグの手番",
      "囲まれたあなたのフラグの手番です。コマンドを実行する（▶ 実行、キー r）かパスする（キー p）かを選びます。" +
      "実行は義務ではなく、何かが変わるときだけ選べます（C4）。"],
    choose: ["対象を選ぶ",
      "コマンドの対象を選びます: 光っているフラグ・カード・プレイヤー。「{2}個」は2個まで: 1つ選んだ後は" +
      "選択終了（キー d）で止められます（C5）。"],
    win: ["ゲームの終わり",
      "ライフが0以下になるか、カード上のフラグがなくなったプレイヤーは脱落し、最後に残った人が勝ちます。" +
      "ForkBombは先にライフを減らしてからフラグを取り除くので、最後のフラグで勝つこともあります（C6）。" +
      "同じ局面が繰り返されたら膠着状態（C9）: ライフの多い方、次にフラグの多い方、次に列の先頭のフラグの多い方の勝ちです。"],
    over: ["おつかれさまでした",
      "ゲーム終了です。再生して一手ずつ振り返り、ホームからレベル2（MoveCommand・RemoveCommand・Reverse）に" +
      "挑戦しましょう。カードにポインタを合わせるか、フォーカスかタップすると、説明とルールブックのヒントが読めます。"],
  },
};
Object.assign(UI.en, { learn: GUIDE.en.learn, guideStep: GUIDE.en.guideStep, hideGuide: GUIDE.en.hideGuide });
Object.assign(UI.ja, { learn: GUIDE.ja.learn, guideStep: GUIDE.ja.guideStep, hideGuide: GUIDE.ja.hideGuide });

const GUIDE_STEPS = ["place", "place-more", "cursor", "run-pass", "choose", "win", "over"];
const guideKey = (id) => `spaghetti.learn.${id}`;

// The home page's way in.
function learnButton() {
  return el("button", { id: "learn", type: "button", class: "primary", onclick: startGuidedGame }, w("learn"));
}

async function startGuidedGame() {
  try {
    const g = await api("POST", "/api/games", { variant: "spaghetti-code", level: 1, players: 2, you: 0,
      seats: [{ kind: "human" }, { kind: "computer", difficulty: "easy" }], autoplay: true });
    localStorage.setItem(`spaghetti.token.${g.id}`, g.token);
    localStorage.setItem(guideKey(g.id), "0");
    remember(g.id);
    history.pushState({}, "", `/g/${g.id}`);
    route();
  } catch (e) { toast(e.message); }
}

// Where the game is in the lesson, by what the board shows.
function guideReached(m) {
  const v = m.view;
  if (v.phase === "over") return GUIDE_STEPS.indexOf("over");
  if (v.phase === "placement") {
    return GUIDE_STEPS.indexOf(v.program.some((c) => c.flags.includes(m.you)) ? "place-more" : "place");
  }
  if (v.to_move === m.you) {
    return GUIDE_STEPS.indexOf(v.legal.includes("run") || v.legal.includes("pass") ? "run-pass" : "choose");
  }
  return GUIDE_STEPS.indexOf("cursor");
}

// The panel of the guided game (nothing for any other game): the step only ever goes forward;
// once the player has had a turn of their own, the computer's turns bring the way the game ends.
function guidePanel(t) {
  const stored = localStorage.getItem(guideKey(t.id));
  if (stored === null || stored === "off" || t.msg.you === null) return null;
  let at = Math.max(Number(stored), guideReached(t.msg));
  if (at >= GUIDE_STEPS.indexOf("run-pass") && at < GUIDE_STEPS.indexOf("win") && t.msg.view.to_move !== t.msg.you) {
    at = GUIDE_STEPS.indexOf("win");
  }
  localStorage.setItem(guideKey(t.id), String(at));
  const step = GUIDE_STEPS[at];
  const [title, text] = GUIDE[lang][step];
  return el("section", { class: "guide", id: "guide", "data-step": step, "aria-labelledby": "guide-title" },
    el("div", { class: "guide-head" },
      el("h2", { id: "guide-title" }, title),
      el("span", { class: "muted" }, w("guideStep").replace("{i}", at + 1).replace("{n}", GUIDE_STEPS.length)),
      el("button", { id: "guide-hide", type: "button", onclick: () => { localStorage.setItem(guideKey(t.id), "off"); drawTable(t); } },
        w("hideGuide"))),
    el("p", {}, text));
}
