"""The lobby in a real headless Chromium: two people (one English, one Japanese browser) pick
names, press *Play now* and sit at the same table, with their names and ratings beside their
colours, and a rename shows at the other's table at once; a game of the new-game form opened to
the lobby is joined with a click; after a rated game against the computer the new rating, the
finished game and the rematch show.

Skipped like tests/test_web_browser.py when Playwright or Debian's chromium is missing.
"""

from __future__ import annotations

import json
import random
import re
import time

import httpx
import pytest

from spaghetti.web.ratings import COMPUTER, shown
from web_helpers import ServerThread
from test_web_browser import ARTIFACTS, play_by_clicking

pytestmark = pytest.mark.browser


def _page(browser, url: str, locale: str):
    page = browser.new_context(locale=locale, viewport={"width": 1280, "height": 900}).new_page()
    page.set_default_timeout(20_000)
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.goto(url + "/")
    page.wait_for_selector("#lobby #player-name")
    return page


def _name(page, name: str) -> None:
    page.fill("#player-name", name)
    page.click("#save-name")
    page.wait_for_selector("#me-name")
    assert page.locator("#me-name").text_content() == name


def test_two_players_pick_names_press_play_now_and_meet_at_one_table(tmp_path, browser):
    with ServerThread(str(tmp_path / "games.db"), autoplay_delay=0.02) as url:
        ada, bob = _page(browser, url, "en-US"), _page(browser, url, "ja-JP")
        try:
            _name(ada, "Ada")
            assert ada.locator("#me-rating").text_content() == "1500?"
            ada.click("#play-now")
            ada.wait_for_selector(".players .player")
            game = re.search(r"/g/([A-Za-z0-9_-]+)$", ada.url).group(1)

            # Bob's lobby (in Japanese) lists Ada's game, her name and rating.
            assert bob.locator("#play-now").text_content() == "すぐに対戦"
            waiting = bob.locator(f'#open-games li[data-game="{game}"]')
            waiting.wait_for()
            assert "Ada 1500?" in waiting.text_content() and "空席" in waiting.text_content()
            ARTIFACTS.mkdir(exist_ok=True)
            bob.screenshot(path=str(ARTIFACTS / "lobby-ja.png"), full_page=True)
            _name(bob, "ボブ")
            bob.click("#play-now")
            bob.wait_for_selector(".players .player")
            assert bob.url.endswith(f"/g/{game}")  # paired into Ada's game

            for page in (ada, bob):
                page.wait_for_function(
                    "document.querySelectorAll('.player .rating').length === 2")
                ratings = page.locator(".player .rating").all_text_contents()
                assert ratings == ["Ada · 1500?", "ボブ · 1500?"]
            assert "rated" in ada.locator("#subtitle").text_content()
            assert "レート戦" in bob.locator("#subtitle").text_content()
            ada.screenshot(path=str(ARTIFACTS / "lobby-table.png"), full_page=True)

            # Ada renames herself in another tab: Bob's table shows the new name at once.
            home = ada.context.new_page()
            home.goto(url + "/")
            home.click("#rename")
            home.fill("#player-name", "  Ada L.  ")
            home.click("#save-name")
            home.wait_for_selector("#me-name")
            assert home.locator("#me-name").text_content() == "Ada L."
            bob.wait_for_function("document.querySelector('.player .rating')"
                                  ".textContent === 'Ada L. · 1500?'")
            home.close()

            # The game is under way: the lobby no longer offers it.
            ada.goto(url + "/")
            ada.wait_for_selector("#open-games li")
            assert ada.locator(f'#open-games li[data-game="{game}"]').count() == 0
            assert ada.errors == [] and bob.errors == []
        except Exception:
            ARTIFACTS.mkdir(exist_ok=True)
            for who, page in (("ada", ada), ("bob", bob)):
                page.screenshot(path=str(ARTIFACTS / f"lobby-failure-{who}.png"), full_page=True)
            raise


def test_a_game_of_the_form_open_to_the_lobby_is_joined_by_a_click(tmp_path, browser):
    with ServerThread(str(tmp_path / "games.db"), autoplay_delay=0.02) as url:
        ada, cy = _page(browser, url, "en-US"), _page(browser, url, "en-US")
        _name(ada, "Ada")
        ada.select_option("#players", "3")
        ada.select_option(".seat-row >> nth=1 >> .kind", "human")
        ada.select_option(".seat-row >> nth=2 >> .diff", "hard")
        ada.check("#listed")
        ada.click("#create")
        ada.wait_for_selector(".players .player")
        game = ada.url.rsplit("/", 1)[1]
        _name(cy, "Cy")
        waiting = cy.locator(f'#open-games li[data-game="{game}"]')
        waiting.wait_for()
        text = waiting.text_content()
        hard = shown(COMPUTER["hard"])
        assert "Ada 1500?" in text and "free seat" in text and f"Computer · hard {hard}" in text
        waiting.locator("button.join").click()
        cy.wait_for_selector(".players .player")
        assert cy.url.endswith(f"/g/{game}")
        cy.wait_for_function("document.querySelectorAll('.player .rating').length === 3")
        assert cy.locator(".player .rating").all_text_contents() == [
            "Ada · 1500?", "Cy · 1500?", str(hard)]
        assert ada.errors == [] and cy.errors == []


def test_a_rated_game_against_the_computer_shows_the_new_rating_and_the_rematch(tmp_path,
                                                                                browser):
    with ServerThread(str(tmp_path / "games.db"), autoplay_delay=0.02) as url:
        page = _page(browser, url, "en-US")
        try:
            _name(page, "Ada")
            page.select_option(".seat-row >> nth=1 >> .diff", "random")
            page.check("#rated")
            page.click("#create")
            page.wait_for_selector(".player .rating")
            fixed = str(shown(COMPUTER["random"]))
            assert page.locator(".player .rating").all_text_contents() == ["Ada · 1500?", fixed]
            play_by_clicking(page, random.Random(2))
            page.wait_for_function("!document.querySelector('.player .rating')"
                                   ".textContent.endsWith('1500?')")
            after = page.locator(".player .rating").first.text_content()
            assert page.locator(".player .rating").nth(1).text_content() == fixed
            first = page.url

            page.click("#rematch")  # a new game, the same seats
            page.wait_for_url(re.compile(r"/g/"))
            page.wait_for_function("(u) => location.href !== u", arg=first)
            page.wait_for_selector(".player .rating")
            assert page.locator(".player .rating").first.text_content() == after
            rematch = page.url.rsplit("/", 1)[1]
            summary = httpx.get(f"{url}/api/games/{rematch}").json()
            assert not summary["over"] and summary["seats"][0]["name"] == "Ada"

            # The lobby fills in at its first look, not at a refresh: here no refresh ever comes,
            # so the wait holds however slow the machine.
            page.add_init_script("window.setInterval = () => 0")
            page.goto(url + "/")
            page.wait_for_selector("#finished li a")
            line = page.locator("#finished li").first.text_content()
            assert ("won" in line or "lost" in line or "draw" in line) and "1500 → " in line
            assert page.locator("#me-rating").text_content() == after.split(" · ")[1]
            assert page.locator("#best li.me").text_content().startswith(after.replace(" · ", " "))
            page.screenshot(path=str(ARTIFACTS / "lobby-finished.png"), full_page=True)
            page.locator("#finished li a").first.click()  # its replay
            page.wait_for_selector("#replay-board")
            assert page.errors == []
        except Exception:
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "lobby-failure.png"), full_page=True)
            raise


def test_a_rematch_asked_for_at_one_table_is_offered_at_the_other(tmp_path, browser):
    with ServerThread(str(tmp_path / "games.db"), autoplay_delay=0.01) as url:
        ada, bob = (httpx.post(url + "/api/players", json={"name": n}).json()
                    for n in ("Ada", "Bob"))
        # Nobody moves: each one-second clock runs out and the computer plays both seats to
        # the end (the seats still count for Ada and Bob).
        game = httpx.post(url + "/api/games", json={
            "seats": [{"kind": "human"}] * 2, "clock": 1, "rated": True,
            "player": ada["token"]}).json()
        seat = httpx.post(f"{url}/api/games/{game['id']}/claim",
                          json={"invite": game["invites"]["1"]}).json()
        assert httpx.post(f"{url}/api/games/{game['id']}/player", json={
            "token": seat["token"], "player": bob["token"]}).status_code == 200
        deadline = time.monotonic() + 60
        while not httpx.get(f"{url}/api/games/{game['id']}").json()["over"]:
            assert time.monotonic() < deadline, "the game did not end"
            time.sleep(0.2)
        pages = []
        for who, token in ((ada, game["token"]), (bob, seat["token"])):
            page = _page(browser, url, "en-US")
            page.evaluate("([p, k, t]) => { localStorage.setItem('spaghetti.player', p); "
                          "localStorage.setItem(k, t); }",
                          [json.dumps(who), f"spaghetti.token.{game['id']}", token])
            page.goto(f"{url}/g/{game['id']}")
            page.wait_for_selector("#result")
            assert page.locator("#rematch").text_content() == "Rematch"
            pages.append(page)
        pages[0].click("#rematch")
        pages[0].wait_for_url(re.compile(r"/g/(?!" + re.escape(game["id"]) + ")"))
        new = pages[0].url.rsplit("/", 1)[1]
        # Bob hears of it over his table's WebSocket.
        pages[1].wait_for_function("document.querySelector('#rematch').textContent"
                                   " === 'Join the rematch'")
        assert "rematch is offered" in pages[1].locator("#toast").text_content()
        pages[1].click("#rematch")
        pages[1].wait_for_url(f"{url}/g/{new}")
        for page in pages:
            page.wait_for_function(
                "document.querySelectorAll('.player .rating').length === 2")
            shown = page.locator(".player .rating").all_text_contents()
            names = [t.split(" · ")[0] for t in shown]
            assert names == ["Ada", "Bob"]
        assert pages[0].locator(".player small").first.text_content() == "You"
        assert all(page.errors == [] for page in pages)
