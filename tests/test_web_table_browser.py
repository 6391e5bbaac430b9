"""The table, replay and puzzle pages in a real headless Chromium: the motion between boards (and
none under reduced motion), the card help with the rulebook's tips in both languages, the guided
first game, a whole game played with the keyboard alone, and an axe-core accessibility check.

Skipped like tests/test_web_browser.py when Playwright or Debian's chromium is missing.
"""

from __future__ import annotations

import json
import random

import httpx
import pytest

from web_helpers import ServerThread
from test_web_browser import _at_move, _new_game, _open_seat, sync_api

pytestmark = pytest.mark.browser

# Records, from the first update on, whether the board ever animated and whether anything moved.
WATCH = """() => {
  window.seen = { animating: 0, moving: 0 };
  new MutationObserver(() => {
    if (document.querySelector('.board.animating')) window.seen.animating++;
    const m = document.querySelector('.moving');
    if (m && m.getAnimations().length) window.seen.moving++;
  }).observe(document.body, { subtree: true, childList: true, attributes: true });
}"""


#: Where the options of the seat to move are shown: on the cards, on the players (a command
#: that chooses a player, such as ForkBomb's target), and as buttons.
OPTIONS = "#program .legal, .players .legal[data-option], .buttons button.legal"


def _against_the_computer(url: str, seed: int = 3) -> dict:
    res = httpx.post(url + "/api/games", json={
        "level": 1, "players": 2, "you": 0, "seed": seed, "autoplay": True,
        "seats": [{"kind": "human"}, {"kind": "computer", "difficulty": "easy"}]})
    assert res.status_code == 201, res.text
    return res.json()


def _moves(page) -> int:
    return page.evaluate("live && live.msg ? live.msg.view.moves : -1")


def _play_some_moves_by_clicking(page, count: int) -> None:
    """Click the first option of the player's until the game has gone `count` moves on."""
    start = _moves(page)
    while _moves(page) < start + count and not page.locator("#result").count():
        page.wait_for_selector(OPTIONS + ", #result")
        target = page.locator(OPTIONS).first
        if target.count():
            try:
                target.click(timeout=2_000)
            except sync_api.Error:
                pass  # redrawn under the pointer
        page.wait_for_timeout(50)


@pytest.mark.parametrize("reduced", [False, True])
def test_a_computer_move_is_animated_and_not_under_reduced_motion(tmp_path, browser, reduced):
    with ServerThread(str(tmp_path / "games.db"), autoplay_delay=0.3) as url:
        game = _against_the_computer(url)
        page = _open_seat(browser, url, game["id"], game["token"])
        if reduced:
            page.emulate_media(reduced_motion="reduce")
        page.evaluate(WATCH)
        _play_some_moves_by_clicking(page, 8)  # placements of both: flags appear, the cursor walks
        page.wait_for_timeout(500)
        seen = page.evaluate("window.seen")
        if reduced:
            assert seen == {"animating": 0, "moving": 0}
        else:
            assert seen["animating"] > 0 and seen["moving"] > 0
            # a click skips the motion under way: nothing is left moving
            page.wait_for_selector(OPTIONS)
            page.locator(OPTIONS).first.click()
            page.wait_for_selector(".board.animating", state="attached")
            page.evaluate("""document.addEventListener('pointerdown', () => { window.left =
                document.querySelectorAll('.board.animating, .moving').length; }, { once: true })""")
            page.mouse.click(5, 5)
            assert page.evaluate("window.left") == 0
            page.click("#sound")  # the beep is off until asked for
            assert page.locator("#sound").get_attribute("aria-pressed") == "true"
            assert page.evaluate("localStorage.getItem('spaghetti.sound')") == "on"
        assert not page.errors, page.errors


def test_card_help_shows_the_text_and_the_rulebooks_tip_in_both_languages(tmp_path, browser):
    with ServerThread(str(tmp_path / "games.db")) as url:
        meta = httpx.get(url + "/api/meta").json()
        assert meta["cards"]["RemoveFlag"]["tips"]["ja"].startswith("レベル1では")
        game = _against_the_computer(url)
        page = _open_seat(browser, url, game["id"], game["token"])
        card = page.locator("#program .card").first
        name = card.get_attribute("data-card")
        info = meta["cards"][name]
        card.hover()
        help_box = page.locator("#card-help")
        help_box.wait_for(state="visible")
        text = help_box.text_content()
        assert info["tips"]["en"] in text and "Tip" in text
        assert info["text"]["en"].split("{")[0] in text
        page.mouse.move(1, 1)
        page.select_option("#lang", "ja")
        page.wait_for_function("document.querySelector('h2').textContent === 'プログラム'")
        page.locator("#program .card").first.focus()  # focus shows it as well as the pointer
        help_box.wait_for(state="visible")
        text = help_box.text_content()
        assert info["tips"]["ja"] in text and "ヒント" in text
        assert info["text"]["ja"].split("{")[0] in text
        assert page.locator("#program .card").first.get_attribute("aria-describedby") == "card-help"
        page.keyboard.press("Escape")
        help_box.wait_for(state="hidden")
        assert not page.errors, page.errors


#: Where a card's help box is, and what is under its middle (the box takes no tap).
HELP_BOX = """() => { const b = document.querySelector('#card-help');
    if (!b || b.hidden) return null;
    const r = b.getBoundingClientRect();
    const under = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom,
             under: under.closest('#card-help') ? 'help' : under.closest('.card')?.dataset.index,
             owner: document.querySelector('[aria-describedby="card-help"]')?.dataset.index };
}"""
CARD_MIDDLES = """() => [...document.querySelectorAll('#program .card')].map((c) => {
    const r = c.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })"""


def test_on_a_touch_phone_the_card_help_never_stands_between_the_player_and_a_card(tmp_path,
                                                                                   browser):
    """Blue, on a phone, taps a card while Red moves: its help opens over the cards below it,
    which a tap still reaches; a tap elsewhere closes it. Blue taps the first card again, Red
    moves, and Blue taps the card that lay under the help: the move is played, and the help is
    gone."""
    from websockets.sync.client import connect

    with ServerThread(str(tmp_path / "games.db")) as url:
        game, tokens = _new_game(url, seed=5)
        phone = _open_seat(browser, url, game["id"], tokens[1], viewport={"width": 390,
                           "height": 844}, has_touch=True, is_mobile=True)
        middles = phone.evaluate(CARD_MIDDLES)
        phone.touchscreen.tap(*middles[0])
        box = phone.evaluate(HELP_BOX)
        assert box and box["owner"] == "0", box
        covered = [i for i, (x, y) in enumerate(middles)
                   if box["left"] <= x <= box["right"] and box["top"] <= y <= box["bottom"]]
        assert covered, (box, middles)  # the help lies over a card, as on a real phone
        assert box["under"] in [str(i) for i in covered]  # not the help: a tap reaches a card
        phone.touchscreen.tap(*middles[covered[0]])
        assert phone.evaluate(HELP_BOX)["owner"] == str(covered[0])
        phone.touchscreen.tap(195, 5)  # the page's head: nothing to choose there
        assert phone.evaluate(HELP_BOX) is None
        phone.touchscreen.tap(*middles[0])
        assert phone.evaluate(HELP_BOX)["owner"] == "0"
        red = url.replace("http://", "ws://") + f"/ws/{game['id']}?token={tokens[0]}"
        with connect(red) as ws:
            ws.recv(timeout=10)
            ws.send(json.dumps({"type": "play", "option": f"place {len(middles) - 1}",
                                "moves": 0}))
            _at_move(phone, 1)
        phone.touchscreen.tap(*phone.evaluate(CARD_MIDDLES)[covered[0]])
        _at_move(phone, 2)
        assert phone.evaluate("live.msg.view.program[%d].flags" % covered[0]) == [1]
        assert phone.evaluate(HELP_BOX) is None
        assert not phone.errors, phone.errors


def test_on_a_desktop_the_hover_help_closes_after_a_click_until_the_mouse_moves_on(tmp_path,
                                                                                   browser):
    with ServerThread(str(tmp_path / "games.db"), autoplay_delay=0.05) as url:
        game = _against_the_computer(url)
        page = _open_seat(browser, url, game["id"], game["token"])
        card = page.locator("#program .card").first
        card.hover()
        assert page.evaluate(HELP_BOX)["owner"] == "0"
        card.click()  # place a flag on it: the help goes, and the computer answers
        page.wait_for_function("live.msg.view.moves >= 2 && live.msg.view.to_move === 0")
        page.wait_for_timeout(300)  # a redraw under a mouse that has not moved shows nothing
        assert page.evaluate(HELP_BOX) is None
        page.locator("#program .card").nth(1).hover()
        assert page.evaluate(HELP_BOX)["owner"] == "1"
        assert not page.errors, page.errors


def test_the_guided_first_game_teaches_step_by_step_as_the_player_acts(tmp_path, browser):
    with ServerThread(str(tmp_path / "games.db"), autoplay_delay=0.05) as url:
        page = browser.new_page(viewport={"width": 1280, "height": 900}, locale="en-US")
        page.set_default_timeout(20_000)
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(url + "/")
        page.click("#learn")
        page.wait_for_selector("#guide")
        step = lambda: page.locator("#guide").get_attribute("data-step")  # noqa: E731
        assert step() == "place"
        assert "Step 1 of 7" in page.locator("#guide").text_content()
        assert "easy" in page.locator(".player.c1").text_content()
        page.locator("#program .card.legal").first.click()
        page.wait_for_function("document.querySelector('#guide').dataset.step === 'place-more'")
        page.evaluate("""() => { window.steps = ['place', 'place-more'];
          new MutationObserver(() => { const g = document.querySelector('#guide');
            if (g && g.dataset.step !== window.steps[window.steps.length - 1]) window.steps.push(g.dataset.step);
          }).observe(document.body, { subtree: true, childList: true, attributes: true }); }""")
        rng = random.Random(2)
        for _ in range(400):
            if page.locator("#result").count():
                break
            targets = page.locator(OPTIONS)
            count = targets.count()  # once: the page changes as it likes
            if count:
                try:
                    targets.nth(rng.randrange(count)).click(timeout=1_000)
                except sync_api.Error:
                    pass
            page.wait_for_timeout(40)
        page.wait_for_function("document.querySelector('#guide').dataset.step === 'over'")
        seen = page.evaluate("window.steps")
        order = ["place", "place-more", "cursor", "run-pass", "choose", "win", "over"]
        assert seen == sorted(set(seen), key=order.index)  # only ever forward
        assert {"run-pass", "win"} <= set(seen)
        page.select_option("#lang", "ja")
        page.wait_for_function("document.querySelector('#guide h2').textContent === 'おつかれさまでした'")
        page.click("#guide-hide")
        page.wait_for_selector("#guide", state="detached")
        assert not errors, errors


def _focused(page) -> dict:
    return page.evaluate("""() => { const a = document.activeElement;
        return { legal: a.matches('.legal[data-option]'), option: a.dataset.option || null,
                 label: a.getAttribute('aria-label') || a.textContent }; }""")


def test_a_whole_level_1_game_against_the_computer_with_the_keyboard_only(tmp_path, browser):
    with ServerThread(str(tmp_path / "games.db"), autoplay_delay=0.02) as url:
        game = _against_the_computer(url, seed=11)
        page = _open_seat(browser, url, game["id"], game["token"])
        rng = random.Random(4)
        page.keyboard.press("Tab")  # into the page: from here on only keys
        turns = came_by_itself = 0
        keys_used = set()
        for _ in range(300):
            page.wait_for_selector(OPTIONS + ", #result")
            if page.locator("#result").count():
                break
            moves = _moves(page)
            turns += 1
            if _focused(page)["legal"]:
                came_by_itself += 1
            legal = page.evaluate("live.msg.view.legal")
            if "run" in legal and rng.random() < 0.5:
                key = "r"
            elif "pass" in legal and rng.random() < 0.2:
                key = "p"
            else:
                key = None
                for _ in range(60):  # the arrows walk the board, Tab goes on to the buttons
                    if _focused(page)["legal"] and rng.random() < 0.6:
                        break
                    on_board = page.evaluate("!!document.activeElement.closest('.board')")
                    page.keyboard.press(rng.choice(["ArrowRight", "Tab"]) if on_board else "Tab")
                assert _focused(page)["legal"], "no option reached by the keyboard"
                assert _focused(page)["label"]
                key = rng.choice(["Enter", " "])
            keys_used.add(key)
            page.keyboard.press(key)
            page.wait_for_function("(n) => !live.msg || live.msg.view.moves !== n "
                                   "|| document.querySelector('#result')", arg=moves)
        else:
            raise AssertionError("the game did not end")
        assert page.locator("#result").text_content()
        assert turns > 4
        # the focus goes to the options when the turn comes (from the first key on)
        assert came_by_itself >= turns - 1
        assert {"Enter", " ", "r"} <= keys_used
        said = page.locator("#announce").text_content()
        assert "wins" in said or "draw" in said  # the live region says how it ended
        page.keyboard.press("?")
        page.wait_for_selector("#keys-help[open]")
        assert "pass" in page.locator("#keys-help").text_content()
        page.keyboard.press("Escape")
        page.wait_for_selector("#keys-help[open]", state="detached")
        assert not page.errors, page.errors


def _axe(page, where: str) -> None:
    """No violation of impact moderate, serious or critical (axe-core through
    axe-playwright-python)."""
    from axe_playwright_python.sync_playwright import Axe

    # A card or flag that has just arrived fades in (motion.js): measured mid-fade, its colours
    # are not the ones the page settles on, so the check waits for the motion to end.
    page.evaluate("Promise.allSettled(document.getAnimations().map(a => a.finished))")
    found = Axe().run(page).response["violations"]
    bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:4]) for v in found
           if v["impact"] in ("moderate", "serious", "critical")]
    assert not bad, f"{where}: {bad}"


def test_axe_finds_nothing_serious_on_the_table_replay_and_puzzle(tmp_path, browser):
    with ServerThread(str(tmp_path / "games.db"), autoplay_delay=0.02) as url:
        game = _against_the_computer(url, seed=7)
        page = _open_seat(browser, url, game["id"], game["token"])
        _axe(page, "the table, at the start")
        _play_some_moves_by_clicking(page, 12)  # flags on the cards, the cursor running
        page.locator("#program .card").first.hover()  # the card help open
        _axe(page, "the table, in play")
        _play_some_moves_by_clicking(page, 10_000)
        _axe(page, "the table, over")
        page.click("#replay")
        page.wait_for_selector("#replay-board .card")
        page.click("#replay-prev")
        assert (page.locator("#announce").text_content()
                == page.locator("#replay-text").text_content())
        _axe(page, "the replay")
        page.goto(url + "/puzzle?n=1")
        page.wait_for_selector("#puzzle .card")
        _axe(page, "the puzzle")
        assert not page.errors, page.errors
        # Level 3 of four in Japanese: four colours of flags, the chips, parameters to choose.
        res = httpx.post(url + "/api/games", json={
            "level": 3, "players": 4, "you": 0, "seed": 2, "autoplay": True,
            "seats": [{"kind": "human"}] + [{"kind": "computer", "difficulty": "random"}] * 3})
        game = res.json()
        page = _open_seat(browser, url, game["id"], game["token"], locale="ja-JP")
        # Three computers play on between our moves (and to the end once we are out), so a
        # card could start to fade in between _axe's wait and its scan: no motion here (the
        # colours checked are those the page settles on; motion has tests of its own).
        page.emulate_media(reduced_motion="reduce")
        _play_some_moves_by_clicking(page, 30)
        _axe(page, "level 3, four players, in Japanese")
        _play_some_moves_by_clicking(page, 10_000)
        _axe(page, "level 3, four players, over")


def test_axe_finds_nothing_serious_on_the_home_page(tmp_path, browser):
    """The new-game form (its options open), the lobby with nobody named, then named with a game
    waiting for players listed, in both languages."""
    with ServerThread(str(tmp_path / "games.db")) as url:
        ada = httpx.post(url + "/api/players", json={"name": "Ada"}).json()
        res = httpx.post(url + "/api/lobby/play", json={"player": ada["token"]})
        assert res.status_code == 200, res.text
        waiting = res.json()["id"]
        for locale in ("en-US", "ja-JP"):
            page = browser.new_context(locale=locale).new_page()
            page.set_default_timeout(20_000)
            page.goto(url + "/")
            page.wait_for_selector(f'#open-games li[data-game="{waiting}"]')
            page.click("#new-game summary")
            page.select_option("#players", "4")
            _axe(page, f"the home page, {locale}")
            page.fill("#player-name", "Bob")
            page.click("#save-name")
            page.wait_for_selector("#me-name")
            _axe(page, f"the home page, named, {locale}")
            assert page.locator('select[name="diff1"]').get_attribute("aria-label") == (
                "Blue · Difficulty" if locale == "en-US" else "青 · 強さ")


FLIP = """() => {
  const view = structuredClone(live.msg.view);
  view.phase = "run";
  const flagsOn = (card, owners) => { card.flags = owners; card.pending = owners.map(() => false); };
  view.program.forEach((c) => flagsOn(c, []));
  flagsOn(view.program[0], [0, 1]);
  flagsOn(view.program[2], [1]);
  view.cursor = 0;
  const after = structuredClone(view);
  [after.program[0], after.program[1]] = [after.program[1], after.program[0]];  // swapped
  flagsOn(after.program[1], [0]);           // Blue's flag left card 0 ...
  flagsOn(after.program[3], [1]);           // ... for card 3
  flagsOn(after.program[2], []);            // the flag of card 2 removed
  after.program.pop();                      // the last card removed
  after.cursor = 3;                         // the cursor walked on
  const root = document.createElement("div");
  main().append(root);
  const draw = (v) => root.replaceChildren(renderBoard(v, { legal: [], seats: [] }));
  const at = (sel) => { const r = root.querySelector(sel).getBoundingClientRect(); return [r.left, r.top]; };
  draw(view);
  const key0 = view.program[0].card + "#1";
  const was = { card: at(`.card[data-key="${key0}"]`), red: at(`.flag[data-key="0@${key0}#1"]`),
                blue: at(`.flag[data-key="1@${key0}#1"]`), cursor: at(".card.here .cursor") };
  const before = Motion.snapshot(root);
  draw(after);
  const moved = Motion.play(root, before);
  const running = document.getAnimations();
  running.forEach((a) => { a.pause(); a.currentTime = 0; });
  const key3 = after.program[3].card + "#1";
  const now = { card: at(`.card[data-key="${key0}"]`), red: at(`.flag[data-key="0@${key0}#1"]`),
                blue: at(`.flag[data-key="1@${key3}#1"]`), cursor: at(".card.here .cursor") };
  const ghosts = document.querySelectorAll(".ghost").length;
  const animating = root.querySelector(".board").classList.contains("animating");
  running.forEach((a) => a.play());
  Motion.skip();
  const end = { card: at(`.card[data-key="${key0}"]`), left: document.querySelectorAll(".ghost, .moving").length };
  root.remove();
  return { moved, was, now, ghosts, animating, end };
}"""


def test_the_motion_starts_everything_from_where_it_was(tmp_path, browser):
    """FLIP, checked at the first frame: a swapped card, a flag riding on it, a flag moved to
    another card and the cursor each start where they were; what was removed (a flag, a card)
    fades out as a copy; skipping leaves the final board and nothing moving."""
    with ServerThread(str(tmp_path / "games.db")) as url:
        game = _against_the_computer(url)
        page = _open_seat(browser, url, game["id"], game["token"])
        r = page.evaluate(FLIP)
        assert r["moved"] and r["animating"]
        for what in ("card", "red", "blue", "cursor"):
            assert r["now"][what] == pytest.approx(r["was"][what], abs=1.5), what
        assert r["ghosts"] == 2  # the removed flag and the removed card
        assert r["end"]["card"] != pytest.approx(r["was"]["card"], abs=1.5)
        assert r["end"]["left"] == 0
        assert not page.errors, page.errors


def test_a_puzzle_answered_with_the_keyboard(tmp_path, browser):
    from spaghetti.lab.puzzles import load as load_set

    answer = load_set()[0].answer
    with ServerThread(str(tmp_path / "games.db")) as url:
        page = browser.new_page()
        page.goto(url + "/puzzle?n=1")
        page.wait_for_selector("#puzzle .card")
        for _ in range(80):
            if page.evaluate("document.activeElement.dataset.option") == answer:
                break
            page.keyboard.press("Tab")
        else:
            raise AssertionError(f"{answer} not reached by Tab")
        assert page.evaluate("document.activeElement.matches('.legal')")
        page.keyboard.press("Enter")
        page.wait_for_selector("#puzzle-line")
        assert "Right!" in page.locator("#puzzle-result").text_content()
