"""End to end in a real headless Chromium (Playwright): a person creates a game against the
computer, plays it to the end by clicking, sees the result and replays it.

Screenshots go to ``test-artifacts/`` (git-ignored). Skipped, with the reason, when Playwright or
Debian's chromium is not installed (``.ci/run`` installs both).
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from web_helpers import ServerThread

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"

sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")

CLICKABLE = "#program .legal, .players .legal, .buttons button.legal"


def play_by_clicking(page, rng: random.Random, limit: int = 600) -> int:
    """Click highlighted options until the result shows; returns the number of clicks."""
    clicks = 0
    while clicks < limit:
        page.wait_for_selector(f"{CLICKABLE}, #result", timeout=20_000)
        if page.locator("#result").count():
            return clicks
        targets = page.locator(CLICKABLE)
        n = targets.count()
        if not n:
            continue
        before = page.locator("#subtitle").text_content()
        try:
            targets.nth(rng.randrange(n)).click(timeout=2_000)
        except sync_api.Error:
            continue  # the table was redrawn under the pointer: look again
        clicks += 1
        if clicks == 12:
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "table.png"), full_page=True)
        page.wait_for_function("(s) => document.querySelector('#subtitle').textContent !== s "
                               "|| document.querySelector('#result')", arg=before, timeout=20_000)
    raise AssertionError(f"the game did not end after {limit} clicks")


def test_play_against_the_computer_to_the_end_and_replay(tmp_path, browser):
    with ServerThread(str(tmp_path / "games.db"), autoplay_delay=0.02) as url:
        page = browser.new_page(viewport={"width": 1280, "height": 900}, locale="en-US")
        page.set_default_timeout(20_000)
        try:
            _scenario(page, url)
        except Exception:
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "failure.png"), full_page=True)
            print(page.locator("body").inner_text())
            raise


def _scenario(page, url: str) -> None:
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url + "/")
    page.wait_for_selector("#create")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "home.png"), full_page=True)
    page.select_option("#level", "2")
    # each computer seat says what its difficulty does, as the ladder measures it
    words = page.locator(".seat-row >> nth=1 >> .diff-words")
    assert "at once" in words.text_content()  # easy, the default
    page.select_option(".seat-row >> nth=1 >> .diff", "hard")
    assert "5 s" in words.text_content()
    page.select_option(".seat-row >> nth=1 >> .diff", "random")
    page.click("#create")
    page.wait_for_selector("#program .card")
    assert "/g/" in page.url
    clicks = play_by_clicking(page, random.Random(1))
    assert clicks > 0
    result = page.locator("#result").text_content()
    assert "wins" in result or "draw" in result
    page.screenshot(path=str(ARTIFACTS / "result.png"), full_page=True)

    page.click("#replay")
    # the replay opens at the last move, where a game ended by RemoveCommand may have no card
    page.wait_for_function("/^move (\\d+) of \\1$/.test("
                           "document.querySelector('#replay-counter')?.textContent || '')")
    total = int(page.locator("#replay-slider").get_attribute("max"))
    assert total >= 2 * 5  # at least every placement of a level-2 game
    page.click("#replay-first")
    assert page.locator("#replay-counter").text_content() == f"move 0 of {total}"
    page.wait_for_selector("#replay-board .card")
    page.click("#replay-next")
    page.click("#replay-next")
    assert page.locator("#replay-counter").text_content() == f"move 2 of {total}"
    assert "placed a flag" in page.locator("#replay-text").text_content()
    page.select_option("#lang", "ja")  # the replay is drawn again in Japanese, at the same move
    page.wait_for_function("document.querySelector('#replay-text').textContent"
                           ".includes('フラグを置いた')")
    assert page.locator("#replay-counter").text_content() == f"2手目 / {total}"
    page.select_option("#lang", "en")
    page.wait_for_function("document.querySelector('#replay-text').textContent"
                           ".includes('placed a flag')")
    page.click("#replay-analyse")  # the computer's view of move 2's options
    page.wait_for_selector("#replay-analysis li")
    assert "Red" in page.locator("#replay-analysis").text_content()
    page.click("#replay-last")
    assert page.locator("#replay-result").text_content() == result
    page.screenshot(path=str(ARTIFACTS / "replay.png"), full_page=True)

    # Japanese at the flick of the switch.
    page.click("#replay-back")
    page.wait_for_selector("#result")
    page.select_option("#lang", "ja")
    page.wait_for_function("document.querySelector('#result').textContent.includes('勝ち') "
                           "|| document.querySelector('#result').textContent.includes('引き分け')")
    assert page.locator("h2").first.text_content() == "プログラム"
    page.screenshot(path=str(ARTIFACTS / "result-ja.png"), full_page=True)

    # Download the record, then open it from the home page and replay it.
    with page.expect_download() as download:
        page.click("#download")
    path = download.value.path()
    record = Path(path).read_text(encoding="utf-8")
    assert json.loads(record)["format"] == "spaghetti-record/1"
    page.select_option("#lang", "en")
    game_id = page.url.rsplit("/", 1)[1]
    page.goto(url + "/")
    page.wait_for_selector(f"#my-games a[href='/g/{game_id}']")  # this browser's games
    page.set_input_files("#record-file", path)
    page.wait_for_function("(n) => document.querySelector('#replay-counter')?.textContent"
                           " === `move ${n} of ${n}`", arg=total)  # at its end, as above
    assert page.locator("#replay-slider").get_attribute("max") == str(total)
    assert page.locator("#replay-result").text_content() == result
    assert not errors, errors


def move_number(page) -> int:
    """The move the page's subtitle shows (its last number, in English or Japanese)."""
    return int(re.findall(r"\d+", page.locator("#subtitle").text_content() or "")[-1])


def shows_the_same_move(page, other, seconds: float = 10.0) -> int:
    """Wait until ``page`` shows the move ``other`` shows, and say which. (A move clicked just
    before may still be on its way to either page: the two agree once it has arrived.)"""
    for _ in range(int(seconds / 0.05)):
        if move_number(page) == move_number(other):
            return move_number(page)
        page.wait_for_timeout(50)
    raise AssertionError(f"the pages show moves {move_number(page)} and {move_number(other)}")


def test_two_people_play_by_invite_link_and_a_spectator_watches(tmp_path, browser):
    with ServerThread(str(tmp_path / "games.db"), autoplay_delay=0.02) as url:
        red = browser.new_context(locale="en-US").new_page()
        blue = browser.new_context(locale="ja-JP").new_page()
        red.set_default_timeout(20_000)
        blue.set_default_timeout(20_000)
        red.goto(url + "/")
        red.select_option(".seat-row >> nth=1 >> .kind", "human")
        red.click("#create")
        red.wait_for_selector("#program .card")
        red.click(".links summary")
        invite = red.locator(".links input").first.input_value()
        watch = red.locator(".links input").last.input_value()
        assert "invite=" in invite and "invite=" not in watch
        blue.goto(invite)
        blue.wait_for_selector("#program .card")
        assert blue.locator("h2").first.text_content() == "プログラム"  # Japanese browser
        assert "/g/" in blue.url and "invite" not in blue.url
        spectator = browser.new_context().new_page()
        spectator.goto(watch)
        spectator.wait_for_selector("#program .card")
        rng = random.Random(5)
        for turn in range(400):
            if red.locator("#result").count() and blue.locator("#result").count():
                break
            if turn == 10:
                # A dropped connection: the page reconnects by itself and finds the game.
                before = move_number(blue)
                blue.evaluate("window.oldSocket = live.ws; live.ws.close()")
                blue.wait_for_function("live.ws !== window.oldSocket && live.ws.readyState === 1 "
                                       "&& document.querySelector('#conn').className === 'conn ok'")
                assert shows_the_same_move(blue, red) >= before
            if turn == 20:
                # A closed tab: a new one at the same address has the seat again.
                before = move_number(red)
                url_red = red.url
                context = red.context
                red.close()
                red = context.new_page()
                red.set_default_timeout(20_000)
                red.goto(url_red)
                red.wait_for_selector("#program .card")
                assert shows_the_same_move(red, blue) >= before
                assert "You" in red.locator(".player.c0").text_content()
            for page in (red, blue):
                targets = page.locator(CLICKABLE)
                count = targets.count()  # once: the page changes as it likes
                if count:
                    try:
                        targets.nth(rng.randrange(count)).click(timeout=1_000)
                    except sync_api.Error:
                        pass
            red.wait_for_timeout(30)
        else:
            raise AssertionError("the game did not end")
        spectator.wait_for_selector("#result")
        assert spectator.locator("#result").text_content() == red.locator("#result").text_content()
        assert not spectator.locator(CLICKABLE).count()


def test_c9_manual_a_player_not_to_move_sees_and_uses_declare(tmp_path, browser):
    """C9 manual: Blue joins by invite in the browser; the moves of a two-human game are sent
    over the WebSocket API until the position repeats with Red to move. Before the repeat Blue's
    page has no declare button; at the repeat it has, and clicking it ends the game by the
    stalemate tie-break on every page."""
    import httpx
    from websockets.sync.client import connect

    import spaghetti
    from helpers import placements
    from spaghetti import records

    program = ["AddFlag", "MoveFlag", "RemoveFlag", "Bug", "ForkBomb"]
    options = {"stalemate": "manual"}
    actions = placements(1, 2, [[0, 1, 2, 3], [1, 2, 3, 4]]) + ["pass"] * 8
    mirror = spaghetti.new_game(1, 2, program=program, options=options)
    with ServerThread(str(tmp_path / "games.db")) as url:
        res = httpx.post(url + "/api/games", json={
            "level": 1, "players": 2, "seats": [{"kind": "human"}] * 2, "program": program,
            "options": options, "autoplay": False})
        assert res.status_code == 201, res.text
        game = res.json()
        gid = game["id"]
        blue = browser.new_context(locale="en-US").new_page()
        blue.set_default_timeout(20_000)
        errors: list[str] = []
        blue.on("pageerror", lambda exc: errors.append(str(exc)))
        try:
            blue.goto(f"{url}/g/{gid}?invite={game['invites']['1']}")
            blue.wait_for_selector("#program .card")
            blue.wait_for_function("!location.search")  # the invite has been claimed
            token = blue.evaluate(f"localStorage.getItem('spaghetti.token.{gid}')")
            assert token
            ws_base = url.replace("http://", "ws://") + f"/ws/{gid}?token="
            with connect(ws_base + game["token"]) as red_ws, connect(ws_base + token) as blue_ws:
                conns = [red_ws, blue_ws]

                def settle(moves: int) -> None:
                    """Read every socket up to the state after ``moves`` moves; wait for the
                    page to show it."""
                    for ws in conns:
                        while True:
                            msg = json.loads(ws.recv(timeout=20))
                            assert msg["type"] == "state", msg
                            if msg["view"]["moves"] == moves:
                                break
                    blue.wait_for_function(
                        "(n) => document.querySelector('#subtitle').textContent.endsWith("
                        "'move ' + n)", arg=moves)

                settle(0)
                for i, option in enumerate(actions):
                    if mirror.to_move == 0:  # Blue is not to move: no button before the repeat
                        assert not mirror.repeated
                        assert blue.locator("#declare").count() == 0
                        assert "declare" not in (blue.locator(".side").text_content() or "")
                    conns[mirror.to_move].send(json.dumps({"type": "play", "option": option,
                                                           "moves": i}))
                    mirror.apply(option)
                    settle(i + 1)
                assert mirror.repeated and mirror.to_move == 0 and not mirror.is_over
                expected = mirror.copy()
                expected.declare(1)
                assert expected.is_over and expected.reason == "stalemate"

                # At the repeat, Blue (not to move) sees the declare button, and uses it.
                button = blue.locator("#declare")
                button.wait_for(state="visible")
                assert "declare a stalemate" in button.text_content()
                assert "would win" in button.text_content()
                assert blue.locator(CLICKABLE).count() == 1  # only the declaration: not its turn
                button.click()
                blue.wait_for_selector("#result")
                winner = ["Red", "Blue"][expected.winner]
                result = blue.locator("#result").text_content()
                assert result == (f"{winner} wins by the stalemate tie-break "
                                  "(the position repeated).")
                assert blue.locator("#declare").count() == 0
                assert blue.locator("#log li").last.text_content().startswith(
                    "Blue declared a stalemate.")
                for ws in conns:  # Red hears the same end
                    while True:
                        msg = json.loads(ws.recv(timeout=20))
                        if msg["type"] == "state" and msg["view"]["phase"] == "over":
                            break
                    assert msg["view"]["result"] == "stalemate" and msg["may_declare"] is False
            record = httpx.get(f"{url}/api/games/{gid}/record")
            assert record.status_code == 200
            final = records.loads(record.text)
            assert final.reason == "stalemate" and final.history == expected.history
            assert not errors, errors
        except Exception:
            ARTIFACTS.mkdir(exist_ok=True)
            blue.screenshot(path=str(ARTIFACTS / "declare-failure.png"), full_page=True)
            print(blue.locator("body").inner_text())
            raise


# ---------------------------------------------------------------------- what a player sees

def _new_game(url: str, **body) -> tuple[dict, list[str]]:
    """A game of people created over the API: the game and every seat's token."""
    import httpx

    players = body.get("players", 2)
    body = {"seats": [{"kind": "human"}] * players, "autoplay": False, **body}
    res = httpx.post(url + "/api/games", json=body)
    assert res.status_code == 201, res.text
    game = res.json()
    tokens = [game["token"]] + [httpx.post(f"{url}/api/games/{game['id']}/claim", json={
        "invite": game["invites"][str(s)]}).json()["token"] for s in range(1, players)]
    return game, tokens


def _open_seat(browser, url: str, gid: str, token: str | None, viewport=None, locale="en-US",
               **device):
    """A page holding a seat (its token put in the browser as the page itself keeps it);
    ``device``: more of the browser context's settings (``has_touch``, ``is_mobile``)."""
    page = browser.new_context(locale=locale, viewport=viewport or {"width": 1280, "height": 900},
                               **device).new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url + "/")
    page.wait_for_selector("#create")
    if token:
        page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"spaghetti.token.{gid}", token])
    page.goto(f"{url}/g/{gid}")
    page.wait_for_selector("#program .card")
    page.errors = errors
    return page


class _Players:
    """Every seat of a game as a WebSocket client, playing the moves it is given."""

    def __init__(self, url: str, gid: str, tokens: list[str], mirror):
        from websockets.sync.client import connect

        base = url.replace("http://", "ws://") + f"/ws/{gid}?token="
        self.conns = [connect(base + t).__enter__() for t in tokens]
        self.mirror = mirror
        self.settle()

    def settle(self) -> None:
        """Read every socket up to the state of the mirror's position."""
        for ws in self.conns:
            while True:
                msg = json.loads(ws.recv(timeout=20))
                if msg["type"] == "state" and msg["view"]["moves"] == len(self.mirror.history):
                    break

    def play(self, option: str) -> None:
        moves = len(self.mirror.history)
        self.conns[self.mirror.to_move].send(json.dumps({"type": "play", "option": option,
                                                          "moves": moves}))
        self.mirror.apply(option)
        self.settle()

    def close(self) -> None:
        for ws in self.conns:
            ws.close()


def _at_move(page, n: int) -> None:
    page.wait_for_function("(n) => document.querySelector('#subtitle').textContent.endsWith("
                           "'move ' + n)", arg=n)


def _shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=True)


def test_the_new_game_form_shows_only_the_chosen_games_options_in_words(tmp_path, browser):
    """Each game's own options and nothing else (hidden really hides), named in words in
    English and Japanese; an option of one game only (Nightmare's coin flip) reaches the
    server with its value."""
    import httpx

    with ServerThread(str(tmp_path / "games.db")) as url:
        meta = httpx.get(url + "/api/meta").json()
        page = browser.new_page(viewport={"width": 1280, "height": 900}, locale="en-US")
        page.set_default_timeout(20_000)
        page.goto(url + "/")
        page.wait_for_selector("#create")
        page.click("#new-game summary")  # open "Rule options"

        def shown() -> dict[str, str]:
            return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
                '.opts label')].filter((l) => l.offsetParent !== null).map((l) =>
                [l.dataset.optionName, l.querySelector('span').textContent]))""")

        def for_players(game: dict) -> set[str]:  # the game's options for the count chosen
            count = int(page.input_value("#players"))
            return {n for n in game["options"]
                    if not meta["options"][n]["players"] or count in meta["options"][n]["players"]}

        for variant, game in meta["games"].items():
            page.select_option("#variant", variant)
            words = shown()
            assert set(words) == for_players(game), variant
            for name, text in words.items():
                assert "_" not in text and text != name, (name, text)
        page.select_option("#variant", "spaghetti-code")
        assert "instant_cards" in shown() and "interrupt" not in shown()  # (2 players)
        page.select_option("#players", "3")
        assert "interrupt" in shown() and "instant_cards" not in shown()
        assert set(shown()) == for_players(meta["games"]["spaghetti-code"])
        page.select_option("#variant", "nightmare")
        assert shown()["coin_flip"] == "Coin flip"
        assert "memory" not in shown()
        _shot(page, "form-nightmare.png")
        page.select_option("#lang", "ja")
        page.wait_for_selector("#create")
        page.click("#new-game summary")
        page.select_option("#variant", "nightmare")
        assert shown()["coin_flip"] == "コイントス"
        assert shown()["win_hp"] == "勝利するHP"
        page.select_option("#lang", "en")
        page.wait_for_selector("#create")
        page.click("#new-game summary")
        page.select_option("#variant", "nightmare")
        page.select_option("select[data-option-name=coin_flip]", label="on")
        page.select_option("select[data-option-name=win_hp]", label="none")
        page.click("#create")
        page.wait_for_selector("#program .card")
        gid = page.url.rsplit("/", 1)[1]
        options = httpx.get(f"{url}/api/games/{gid}").json()["options"]
        assert options["coin_flip"] is True and options["win_hp"] is None
        assert "memory" not in options  # another game's option is not sent


def test_last_moves_show_the_newest_move_and_the_winning_one(tmp_path, browser):
    """The list of last moves is scrolled to its end at every move, and once the game is over
    the winning move is there, wholly inside the visible box."""
    from spaghetti.core.game import Game

    with ServerThread(str(tmp_path / "games.db")) as url:
        game, tokens = _new_game(url, level=2, seed=12)
        page = _open_seat(browser, url, game["id"], tokens[0])
        players = _Players(url, game["id"], tokens, Game(level=2, players=2).new_state(None, 12))
        rng = random.Random(4)
        try:
            while not players.mirror.is_over:
                players.play(rng.choice(players.mirror.legal()))
                n = len(players.mirror.history)
                if n % 7 == 0 or players.mirror.is_over:
                    _at_move(page, n)
                    box = page.evaluate("""() => { const l = document.querySelector('#log');
                        const last = l.lastElementChild.getBoundingClientRect();
                        const r = l.getBoundingClientRect();
                        return {top: l.scrollTop, max: l.scrollHeight - l.clientHeight,
                                inside: last.top >= r.top - 1 && last.bottom <= r.bottom + 1,
                                text: l.lastElementChild.textContent,
                                n: l.lastElementChild.value ||
                                   (Number(l.start) + l.children.length - 1)}; }""")
                    assert box["top"] >= box["max"] - 1, box
                    assert box["inside"], box
                    assert box["n"] == n, box
            page.wait_for_selector("#result")
            last = page.locator("#log li").last
            assert last.is_visible()
            assert "wins" in page.locator("#result").text_content() or \
                "draw" in page.locator("#result").text_content()
            _shot(page, "last-moves.png")
        finally:
            players.close()
        assert not page.errors, page.errors


def test_a_player_sees_their_own_instant_card_at_all_times(tmp_path, browser):
    from spaghetti.core.game import Game
    from spaghetti.core.view import view

    options = {"instant_cards": True}
    with ServerThread(str(tmp_path / "games.db")) as url:
        game, tokens = _new_game(url, level=2, seed=3, options=options)
        page = _open_seat(browser, url, game["id"], tokens[0])
        mirror = Game(level=2, players=2, options=options).new_state(None, 3)
        players = _Players(url, game["id"], tokens, mirror)
        meta_names = page.evaluate("() => META.cards")
        rng = random.Random(8)
        seen = 0
        try:
            for _ in range(60):
                if mirror.is_over:
                    break
                players.play(rng.choice(mirror.legal()))
                mine = view(mirror, 0)["instant"][0]
                _at_move(page, len(mirror.history))
                if mine["status"] == "held":
                    name = meta_names[mine["card"]]["name"]["en"]
                    node = page.locator(".player.c0 .instant.mine")
                    assert node.is_visible() and name in node.text_content()
                    other = page.locator(".player.c1 .instant")
                    if view(mirror, 0)["instant"][1]["status"] == "held":
                        assert "hidden" in other.text_content()
                    seen += 1
            assert seen >= 10
            _shot(page, "instant-card.png")
        finally:
            players.close()
        assert not page.errors, page.errors


def test_sequential_open_names_the_open_card_and_the_pass_button_says_pass(tmp_path, browser):
    from spaghetti.core.game import Game

    options = {"sequential_open": True}
    with ServerThread(str(tmp_path / "games.db")) as url:
        game, tokens = _new_game(url, level=1, seed=3, options=options)
        page = _open_seat(browser, url, game["id"], tokens[0])
        mirror = Game(level=1, players=2, options=options).new_state(None, 3)
        players = _Players(url, game["id"], tokens, mirror)
        try:
            for opened in (1, 2):  # the cursor stays on card 0 while the cards are opened
                assert mirror.deciding == "open" and mirror.to_move == 0
                assert mirror.opened == opened and mirror.cursor == 0
                _at_move(page, len(mirror.history))
                name = mirror.kinds[opened - 1].display_name("en")
                status = page.locator("#status").text_content()
                assert f"open card {name}" in status, status
                button = page.locator(".buttons button[data-option=pass]")
                text = button.text_content()
                assert text.startswith("pass") and "place no flag on the open card" in text
                assert "run" not in text
                players.play("pass")
                players.play("pass")
            _shot(page, "sequential-open.png")
        finally:
            players.close()
        assert not page.errors, page.errors


def test_on_a_phone_the_page_fits_the_card_names_stay_whole_and_values_show(tmp_path, browser):
    """390 px wide: nothing is wider than the screen and each seat's clock is in view; card
    names break only between words (never "RemoveFl ag"); a card's text shows each parameter
    as its value in braces, as the printed cards do (docs/web.md), never a placeholder."""
    with ServerThread(str(tmp_path / "games.db")) as url:
        game, tokens = _new_game(url, level=3, players=3, seed=21, clock=600)
        phone = {"width": 390, "height": 844}
        page = _open_seat(browser, url, game["id"], tokens[0], viewport=phone)
        _shot(page, "phone-table.png")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        clocks = page.evaluate("""() => [...document.querySelectorAll('.clock')].map((c) => {
            const r = c.getBoundingClientRect(); return [r.left, r.right, r.width]; })""")
        assert len(clocks) == 3
        for left, right, width in clocks:
            assert left >= 0 and right <= 390 and width > 0
        words = page.evaluate("""() => [...document.querySelectorAll('.card .name .nm')].flatMap(
            (nm) => [...nm.childNodes].filter((n) => n.nodeType === 3).map((n) => {
                const r = document.createRange(); r.selectNodeContents(n);
                return [n.textContent, r.getClientRects().length]; }))""")
        assert words and all(lines == 1 for _, lines in words), words
        texts = page.evaluate("""() => [...document.querySelectorAll('.card .text')].map((t) =>
            [t.textContent, [...t.querySelectorAll('.param')].map((p) => p.textContent)])""")
        for _text, params in texts:
            for p in params:
                assert p.startswith("{") and p.strip("{}+-0123456789") == "", p
        page.goto(url + "/")
        page.wait_for_selector("#create")
        page.click("#new-game summary")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        _shot(page, "phone-home.png")
        assert not page.errors, page.errors


def test_thinking_goes_away_when_the_hint_arrives(tmp_path, browser):
    with ServerThread(str(tmp_path / "games.db")) as url:
        game, tokens = _new_game(url, level=1, seed=5)
        page = _open_seat(browser, url, game["id"], tokens[0])
        page.click("#hint")
        page.wait_for_selector("#hint-answer li", timeout=60_000)
        assert page.locator("#hint-wait").count() == 0
        toast = page.locator("#toast")
        assert not toast.is_visible() or "Thinking" not in toast.text_content()
        assert "Thinking" not in page.locator(".side").text_content()
        _shot(page, "hint.png")
        assert not page.errors, page.errors


def test_puzzle_of_the_day_page_checks_the_answer_against_the_proof_and_keeps_a_streak(browser,
                                                                                     tmp_path):
    from spaghetti.lab.puzzles import load as load_set

    first = load_set()[0]
    wrong = next(o for o in first.state().legal() if o != first.answer)
    with ServerThread(str(tmp_path / "games.db")) as url:
        page = browser.new_page()
        page.goto(url + "/")
        page.click("#puzzle-link")  # the home page links the puzzle of the day
        page.wait_for_selector("#puzzle-goal")
        page.goto(url + "/puzzle?n=1")
        page.wait_for_selector("#puzzle-goal")
        assert "1 / " in page.locator("#puzzle-title").text_content()
        page.click(f'#puzzle .buttons button[data-option="{first.answer}"]')
        page.wait_for_selector("#puzzle-line")
        assert "Right!" in page.locator("#puzzle-result").text_content()
        assert page.locator("#puzzle-line li").count() >= 1
        assert page.locator("#puzzle-streak").text_content().endswith(": 1")
        page.goto(url + "/puzzle?n=1")
        page.wait_for_selector("#puzzle-goal")
        page.click(f'#puzzle .buttons button[data-option="{wrong}"]')
        page.wait_for_selector("#puzzle-why")
        assert first.answer in page.locator("#puzzle-why").text_content()
        assert page.locator("#puzzle-streak").text_content().endswith(": 0")
        page.select_option("#lang", "ja")  # the puzzle is fetched again: wait for its new title
        page.wait_for_function("document.querySelector('#puzzle-title')?.textContent"
                               ".includes('詰め問題')")
        assert page.locator("#puzzle-goal").count() == 1
        page.close()
