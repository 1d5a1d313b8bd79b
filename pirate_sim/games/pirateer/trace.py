"""Replay a traced game through the slow reference: every roll must offer the same number
of legal plays, every play made must be one the reference lists, and the game must end
the way the kernel says.  ``pirate-sim trace`` output can be checked this way."""

from __future__ import annotations

from . import rules as R
from .reference import apply_play, legal_plays, start_position, wins


def replay_with_reference(compiled, ev, out_g=None) -> dict:
    """Walk the event log (``Pirateer.trace_events``) with the reference; AssertionError on
    the first disagreement.  Returns counts of what was checked."""
    board = compiled.extra["board"]
    harbors = compiled.extra["harbors"]
    rules = compiled.extra["rules"]
    sps = compiled.params.ships_per_seat
    geo = compiled.extra["geometry"]
    pos = start_position(board, harbors, sps)
    checked = {"rolls": 0, "plays": 0}
    rows = [tuple(r) for r in ev.tolist()]
    i = 0
    ended = None
    while i < len(rows):
        turn, seat, kind, a, b, c = rows[i]
        i += 1
        if kind != R.EV_ROLL:
            if kind == R.EV_WIN:
                ended = (seat, a)
            continue
        legal = legal_plays(board, pos, seat, a, b, rules["single_die"])
        assert len(legal) == c, f"turn {turn}: reference lists {len(legal)} plays for {a}+{b}, kernel {c}"
        checked["rolls"] += 1
        moves = []
        while i < len(rows) and rows[i][2] in (R.EV_MOVE, R.EV_CAPTURE, R.EV_TAKE, R.EV_WIN):
            _t, _s, k2, a2, b2, c2 = rows[i]
            if k2 == R.EV_MOVE:
                die, d = divmod(c2, 8)
                moves.append([a2, (R.DX[d], R.DY[d]), die, 0, tuple(int(v) for v in geo.node_xy[b2])])
            elif k2 == R.EV_TAKE:
                moves[-1][3] = 1
            elif k2 == R.EV_WIN:
                ended = (_s, a2)
            i += 1
        if not moves:
            assert c == 0, f"turn {turn}: no play made but {c} were legal"
            continue
        play = tuple((m[0], m[1], m[2], m[3]) for m in moves)
        assert play in legal, f"turn {turn}: the kernel's play {play} is not legal by the reference"
        for m, move in zip(moves, play):
            pos = apply_play(board, pos, (move,))
            sh = pos.ships[m[0]]
            assert sh is not None and geo.node_of[sh[1]] == geo.node_of[m[4]], f"turn {turn}: landing square differs"
        checked["plays"] += 1
        if ended is not None:
            assert wins(board, pos, seat), f"turn {turn}: the kernel declares a win the reference does not see"
    if out_g is not None and int(out_g[2]) != R.END_TRUNCATED:
        assert ended is not None and ended[0] == int(out_g[0])
        home = pos.treasure >= 0 and pos.ships[pos.treasure] is not None and \
            pos.ships[pos.treasure][1] == board.harbor(harbors[ended[0]]).anchor
        assert (R.END_HOME if home else R.END_CAPTURE) == int(out_g[2])
    checked["position"] = pos
    return checked
