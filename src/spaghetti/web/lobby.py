"""The lobby of the web site: players with a name and a rating, games waiting for people,
pairing, rematches, and the result of every finished game.

A player is a display name and a secret token (kept by the browser; the store keeps its digest),
with no password: whoever holds the token is the player. A seat of a game is *named* once its
player is known (the creator's, a seat taken in the lobby, or a seat whose holder tells the
server its player token: :meth:`Lobby.sit`).

A game listed in the lobby waits for people: anyone may take a free seat of it (:meth:`join`),
and *play now* (:meth:`play_now`) takes a seat in the oldest game waiting for the same game,
level and number of players, or lists a new one. A game is shown while someone is seated and
connected, or for :data:`WAIT` seconds after it was listed, until its seats are full or it is
over.

When a game ends (:meth:`finish`, called by the hall once the last move is stored), each named
player gets a row of results, and a rated game updates the ratings (:mod:`.ratings`). A game is
rated when it was created rated and, at its end, every seat of a person is named, by different
players; computer seats play at their level's fixed rating.
"""

from __future__ import annotations

import secrets
import time

from . import ratings
from .schemas import Join, Me, NewPlayer, Rematch, Seek, Sit
from .store import Store, new_token
from .tables import COMPUTER, HUMAN, Buckets, Hall, Table, WebError

#: Seconds a game of the lobby stays listed while nobody seated in it is connected.
WAIT = 600
#: Games listed at most (the oldest first: they have waited longest).
LISTED = 50
#: Seconds after which a listed game nobody has come back to leaves the list for good.
FORGOTTEN = 24 * 3600
#: Players on the list of the best.
BEST = 20


class Lobby:
    """Players, the games waiting for people, rematches and results, over one :class:`Hall`."""

    def __init__(self, hall: Hall, store: Store):
        self.hall = hall
        self.store = store
        #: New players a client may make at once, then one a minute.
        self.newcomers = Buckets(5, 1 / 60, "new players")
        hall.on_over = self.finish

    # ------------------------------------------------------------------ players

    def new_player(self, req: NewPlayer, client: str) -> dict:
        """A new player: its public profile and, once, its secret token."""
        self.newcomers.take(client)
        player_id, token = secrets.token_urlsafe(8), new_token()
        self.store.add_player(player_id, token, req.name, ratings.MU, ratings.SIGMA)
        return {**self.profile(player_id), "token": token}

    def me(self, req: Me) -> dict:
        """The profile of the player a token stands for, renamed first if a name is sent (the
        tables where it sits show the new name from their next message)."""
        player = self.hall.player_of(req.token)
        if req.name is not None and req.name != player["name"]:
            self.store.rename(player["id"], req.name)
            for table in self.hall.tables.values():
                if any(p["id"] == player["id"] for p in table.people.values()):
                    table.people = self.hall.people(table.id)
                    table.broadcast()
        return self.profile(player["id"])

    def profile(self, player_id: str) -> dict:
        """What anyone may see of a player: name, rating and finished games (newest first)."""
        row = self.store.player(player_id)
        if row is None:
            raise WebError("no such player", "not_found", 404)
        finished = []
        for r in self.store.results_of(player_id):
            rated = r["before"] is not None
            others = [{"seat": i, "kind": x["kind"], "difficulty": x.get("difficulty"),
                       "name": r["names"].get(i)}
                      for i, x in enumerate(r["seats"]) if i != r["seat"]]
            finished.append({"game": r["game"], "seat": r["seat"], "outcome": r["outcome"],
                             "rated": rated, "ended": r["ended"], "others": others,
                             "before": ratings.shown(r["before"]) if rated else None,
                             "after": ratings.shown(r["after"]) if rated else None})
        return {**ratings.public(row), "finished": finished}

    def best(self) -> list[dict]:
        """The best players by rating (those with a rated game finished), best first."""
        return [ratings.public(row) for row in self.store.best(BEST)]

    def sit(self, game_id: str, req: Sit) -> dict:
        """Name the player of the seat ``req.token`` holds (a seat claimed by an invite link):
        once, before the game is over."""
        table = self.hall.get(game_id)
        seat = self._seat(table, req.token)
        player = self.hall.player_of(req.player)
        if table.state.is_over:
            raise WebError("the game is over: its players are known", "over", 409)
        if any(p["id"] == player["id"] for s, p in table.people.items() if s != seat):
            raise WebError("you already sit at this table in another seat", "seated", 409)
        if not self.store.bind(game_id, seat, player["id"]):
            raise WebError("this seat already has its player", "taken", 409)
        self._seated(table)
        return {"id": game_id, "seat": seat, "player": player["id"]}

    # ------------------------------------------------------------------ games waiting

    def open_games(self) -> list[dict]:
        """The games waiting for people, oldest first, with who sits where."""
        now = time.time()
        out = []
        for row in self.store.listed():
            table = self.hall.tables.get(row["game"])
            if table is None and now - row["created"] > WAIT:
                if now - row["created"] > FORGOTTEN:
                    self.store.unlist(row["game"])
                continue  # nobody is there, and nobody has been for a while
            try:
                table = table or self.hall.get(row["game"])
            except WebError:
                self.store.unlist(row["game"])
                continue
            free = self._free(table)
            if table.state.is_over or not free:
                self.store.unlist(table.id)
                continue
            online = any(isinstance(c.seat, int) for c in table.conns)
            if not online and now - row["created"] > WAIT:
                continue
            seats = [{k: v for k, v in table._seat(i, x).items()
                      if k in ("seat", "kind", "difficulty", "name", "rating", "provisional",
                               "online")} | {"free": i in free}
                     for i, x in enumerate(table.seats)]
            out.append({"id": table.id, "variant": row["variant"], "level": row["level"],
                        "players": row["players"], "rated": bool(table.settings.get("rated")),
                        "clock": table.settings.get("clock"), "created": row["created"],
                        "seats": seats})
            if len(out) == LISTED:
                break
        return out

    def join(self, game_id: str, req: Join) -> dict:
        """Take the first free seat of a game of the lobby."""
        player = self.hall.player_of(req.player)
        table = self.hall.get(game_id)
        if not any(r["game"] == game_id for r in self.store.listed()):
            raise WebError("this game is not waiting in the lobby (an invite link opens a seat "
                           "of any other game)", "not_listed", 409)
        return self._join(table, player)

    def play_now(self, req: Seek) -> dict:
        """A seat in the oldest game waiting for the same game, level and number of players
        (``paired``: true), or in a new game of the lobby that waits for the others. A player
        who already waits in such a game is sent back to it (``token`` null: the browser that
        pressed first holds it) rather than made to wait in two."""
        player = self.hall.player_of(req.player)
        games = [g for g in self.open_games()
                 if (g["variant"], g["level"], g["players"]) == (req.variant, req.level,
                                                                  req.players)]
        for game in games:
            table = self.hall.tables[game["id"]]
            mine = [s for s, p in table.people.items() if p["id"] == player["id"]]
            if mine:
                return {"id": table.id, "seat": mine[0], "token": None, "paired": False}
        if games:
            return {**self._join(self.hall.tables[games[0]["id"]], player), "paired": True}
        made = self.hall.create({"variant": req.variant, "level": req.level,
                                 "players": req.players, "seats": [{"kind": HUMAN}] * req.players,
                                 "you": 0, "player": req.player, "rated": True, "lobby": True})
        return {"id": made["id"], "seat": 0, "token": made["token"], "paired": False}

    def _join(self, table: Table, player: dict) -> dict:
        if any(p["id"] == player["id"] for p in table.people.values()):
            raise WebError("you already sit at this table", "seated", 409)
        token = new_token()
        for seat in self._free(table):
            if self.store.take(table.id, seat, token, player["id"]):
                table.claimed.add(seat)
                if not self._free(table):
                    self.store.unlist(table.id)
                self._seated(table)
                return {"id": table.id, "seat": seat, "token": token}
        raise WebError("every seat of this game is taken", "full", 409)

    def _free(self, table: Table) -> list[int]:
        return [i for i, x in enumerate(table.seats)
                if x["kind"] == HUMAN and i not in table.claimed]

    def _seat(self, table: Table, token: str) -> int:
        seat = self.store.seat_of(table.id, token)
        if seat is None:
            raise WebError("this seat token is not valid for this game", "bad_token", 403)
        return seat

    def _seated(self, table: Table) -> None:
        table.people = self.hall.people(table.id)
        table.broadcast()

    # ------------------------------------------------------------------ rematch

    def rematch(self, game_id: str, req: Rematch) -> dict:
        """A seat of a finished game takes the same seat in its rematch: a new game with the
        same seats, settings and options (a new deal), made by the first to ask. Everyone at
        the old table is told (its state messages carry ``rematch``: the new game's id)."""
        table = self.hall.get(game_id)
        seat = self._seat(table, req.token)
        if not table.state.is_over:
            raise WebError("a rematch is offered once the game is over", "not_over", 409)
        new_id = table.settings.get("rematch")
        if new_id is None:
            game = table.state.game
            made = self.hall.create({
                "variant": game.variant, "level": game.level, "players": table.state.players,
                "options": dict(game.options), "clock": table.settings.get("clock"),
                "autoplay": table.settings.get("autoplay", True), "you": None,
                "seats": [{"kind": COMPUTER, "difficulty": x.get("difficulty", "easy")}
                          if x["kind"] == COMPUTER else {"kind": HUMAN} for x in table.seats]})
            new_id = made["id"]
            if table.settings.get("rated"):  # rated again, with the same named players
                self.hall.tables[new_id].settings["rated"] = True
                self.store.save_settings(new_id, self.hall.tables[new_id].settings)
            table.settings["rematch"] = new_id
            self.store.save_settings(game_id, table.settings)
            table.broadcast()
        new = self.hall.get(new_id)
        token = new_token()
        person = table.people.get(seat)
        if not self.store.take(new_id, seat, token, person["id"] if person else None):
            raise WebError("your seat of the rematch is taken already (by another tab?)",
                           "taken", 409)
        new.claimed.add(seat)
        self._seated(new)
        return {"id": new_id, "seat": seat, "token": token}

    # ------------------------------------------------------------------ results

    def finish(self, table: Table) -> None:
        """Store the result of a game that just ended for its named players, and update their
        ratings if the game is rated (see the module's description)."""
        state = table.state
        people = self.store.seat_players(table.id)
        if not people:
            return
        winner = state.winner
        order = ratings.ranks(state.players, winner)
        outcome = {seat: "draw" if winner is None else "win" if seat == winner else "loss"
                   for seat in range(state.players)}
        humans = [i for i, x in enumerate(table.seats) if x["kind"] == HUMAN]
        rated = (bool(table.settings.get("rated")) and all(i in people for i in humans)
                 and len({people[i]["id"] for i in humans}) == len(humans))
        rows: list[tuple[int, str, str, float | None, float | None]] = []
        new: dict[str, tuple[float, float]] = {}
        if rated:
            seats: list[tuple[float, float] | str] = [
                x.get("difficulty", "easy") if x["kind"] == COMPUTER
                else (people[i]["mu"], people[i]["sigma"]) for i, x in enumerate(table.seats)]
            after = ratings.rate(seats, order)
            for i in humans:
                new[people[i]["id"]] = after[i]
                rows.append((i, people[i]["id"], outcome[i], people[i]["mu"], after[i][0]))
        else:
            rows = [(i, p["id"], outcome[i], None, None) for i, p in people.items()]
        if self.store.record_results(table.id, rows, new):
            table.people = self.hall.people(table.id)


__all__ = ["BEST", "FORGOTTEN", "LISTED", "Lobby", "WAIT"]
