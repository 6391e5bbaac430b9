"""Benchmark: a search from ``State.lookahead()`` against the same search from the state itself,
at positions all through long games: positions a second each way, interleaved in one process
(CPU time), and a check that both give every option the same value.

    python benchmarks/lookahead_speed.py --rounds 3

A search from the state itself is how every player searched before ``lookahead``: each copy it
made copied the game's moves and the positions seen since the last irreversible change (C9),
hundreds of each late in a long game. From ``lookahead`` the copies share the positions seen
before the search and carry no moves. The positions: ``--deals`` deals of each setup (4 on) played
by ``normal`` without its clock (to ``--cap`` decisions), a position taken every ``--every``
decisions of the execution phase where the seat to move has a choice. The search: ``normal``'s
(its budget of positions for the number of players, judging by the network where one ships).
"""

from __future__ import annotations

import argparse
import statistics
import time

from spaghetti import Game, State
from spaghetti.ai import AlphaBetaPlayer, make_player

SETUPS = ((2, 2), (3, 2), (3, 3), (3, 4))


def positions(level: int, players: int, deals: int, every: int, cap: int) -> list[State]:
    """Positions of games of ``normal`` players (deals 4 on), one every ``every`` decisions."""
    found = []
    for deal in range(4, 4 + deals):
        state = Game(level=level, players=players).new_state(seed=deal)
        seats = [make_player("normal", deal * 10 + s, clock=False) for s in range(players)]
        while not state.is_over and len(state.history) < cap:
            if (state.phase == "execution" and len(state.history) % every == 0
                    and len(state.legal_actions()) > 1):
                found.append(state.copy())
            seat = state.to_move
            assert seat is not None
            state.apply(seats[seat].choose(state))
    return found


def search(state: State) -> tuple[dict[int, float], int, float]:
    """``normal``'s search of ``state`` as given: its values, positions and CPU seconds."""
    player = make_player("normal", 1, clock=False)
    assert isinstance(player, AlphaBetaPlayer)
    start = time.process_time()
    scores = player.scores(state)
    return scores, player.nodes, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--every", type=int, default=40,
                        help="decisions between two positions taken")
    parser.add_argument("--cap", type=int, default=600, help="the most decisions a game")
    args = parser.parse_args()
    print("| level | players | positions | moves before (mean) | positions seen (mean / max) "
          "| from the state, positions/s | from lookahead | ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for level, players in SETUPS:
        states = positions(level, players, args.deals, args.every, args.cap)
        spent = {"whole": 0.0, "lookahead": 0.0}
        searched = 0
        for _ in range(args.rounds):
            for state in states:
                whole, nodes, seconds = search(state)
                spent["whole"] += seconds
                ahead, again, seconds = search(state.lookahead())
                spent["lookahead"] += seconds
                if (whole, nodes) != (ahead, again):
                    raise SystemExit(f"level {level}, {players} players: the searches differ "
                                     f"at move {len(state.history)}")
                searched += nodes
        seen = [len(s.seen_positions) for s in states]
        rates = {way: searched / seconds for way, seconds in spent.items()}
        print(f"| {level} | {players} | {len(states)} | "
              f"{statistics.mean(len(s.history) for s in states):.0f} | "
              f"{statistics.mean(seen):.0f} / {max(seen)} | {rates['whole']:,.0f} | "
              f"{rates['lookahead']:,.0f} | {rates['lookahead'] / rates['whole']:.2f}x |",
              flush=True)


if __name__ == "__main__":
    main()
