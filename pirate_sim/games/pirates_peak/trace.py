"""Readable lines from the kernel's event log (Python only; the game itself is the kernel's)."""

from __future__ import annotations

from . import rules as r

_TRAP_RESULT = {
    0: "fails",
    1: "escapes (sails on next turn)",
    2: "escapes and moves on at once",
    3: "fails, low total",
}


def _track(events, compiled) -> dict[int, tuple[int, int]]:
    """Physical space -> (space code, card number) of the track the game laid: the dock, then each
    flipped card's spaces from the first space its EV_FLIP names (the log says all the table shows)."""
    cards, card_len = compiled.arrays[0], compiled.arrays[1]
    track = {x: (r.OPEN, 0) for x in range(int(compiled.params.dock_spaces))}
    for code, _s, a, b, c, _d in events:
        if code == r.EV_FLIP:
            for k in range(int(card_len[a])):
                track[c + k] = (int(cards[a, k]), b)
    return track


def format_events(events, out_seats, compiled, game_index: int = 0) -> list[str]:
    """The lines of one game's log (``events``: int32[n, 6] rows; ``out_seats``: its seat rows)."""
    from ...seating import FP_ROTATE, entry_of_seat_nb
    from .columns import C_FINAL_GOLD

    events = events.tolist()
    track = _track(events, compiled)

    def _space(x: int) -> str:
        code, card = track.get(int(x), (-1, -1))
        where = "dock" if card == 0 else f"card {card}"
        return f"{r.SPACE_WORDS.get(code, '?')}, {where}"

    rotate = bool(compiled.params.strategy_seating)
    names = [compiled.strategy_names[entry_of_seat_nb(s, game_index, 2, rotate)] for s in range(2)]
    lines: list[str] = []
    turn_prefix = ""
    turn_seat = -1

    def who(s: int) -> str:
        return f"seat {s} ({names[s]})"

    for code, s, a, b, c, _d in events:
        if code == r.EV_TURN:
            turn_prefix = f"Turn {a} - {who(s)}"
            turn_seat = s
            continue
        pre = turn_prefix + ": " if turn_prefix else "Setup: "
        if turn_prefix and code in (r.EV_TREASURE, r.EV_ENTER) and s != turn_seat:
            pre += f"seat {s} "  # the other seat, moved by a fight it won
        if code == r.EV_SETUP:
            lines.append(f"Setup: {who(s)} sails with {a} crewmen, {b} cannonballs, {c} gold")
        elif code == r.EV_BUY:
            if turn_prefix and (a or b):  # setup purchases are in the EV_SETUP line
                lines.append(f"{pre}buys {a} crewmen and {b} cannonballs ({c} gold left)")
        elif code == r.EV_FIRST:
            if a or b:  # the rulebook's roll-off
                lines.append(f"Setup: first-player rolls {a} vs {b}; {who(s)} goes first")
            else:  # rules.first_player rotate / random: no roll
                how = "rotation" if compiled.params.first_player == FP_ROTATE else "random draw"
                lines.append(f"Setup: {who(s)} goes first (rules.first_player: {how})")
        elif code == r.EV_DECLARE:
            lines.append(f"{pre}declares {r.ACTION_NAMES[a]}")
        elif code == r.EV_ROLL:
            lines.append(f"{pre}rolls {a}, sails {b} spaces")
        elif code == r.EV_MOVE:
            lines.append(f"{pre}moves {a} -> {b} ({_space(b)})" if a != b
                         else f"{pre}does not move: stays on {b} ({_space(b)})")
        elif code == r.EV_FLIP:
            what = (
                "the Pirate's Peak card"
                if a == compiled.params.peak_card
                else f"journey card #{a + 1}"
            )
            lines.append(f"{pre}flips {what} as card {b}")
        elif code == r.EV_RETURN_PEAK:
            lines.append(f"{pre}the Peak card came as flip {a}, too early: shuffled back")
        elif code == r.EV_SEARCH:
            lines.append(f"{pre}searches: rolls {a}, finds {b} gold")
        elif code == r.EV_INTERRUPT:
            lines.append(f"{pre}search interrupted: searcher {a} vs cannon {b}, finds {c} gold")
        elif code == r.EV_FIRE:
            lines.append(f"{pre}fires: {a} vs {b}, {'hit' if c else 'miss'}")
        elif code == r.EV_SHIP_FIGHT:
            lines.append(f"{pre}ships collide: mover nets {a:+d} gold; seat {c} advances")
        elif code == r.EV_GHOST_FIGHT:
            lines.append(f"{pre}fights the Ghost Ship at {b}: nets {a:+d} gold")
        elif code == r.EV_SUMMON:
            if b >= 0:
                lines.append(f"{pre}rolls 1 then {a}: the Ghost Ship appears at {b}")
            else:
                lines.append(f"{pre}rolls 1 then {a}: no Ghost Ship")
        elif code == r.EV_WHIRLPOOL:
            lines.append(f"{pre}whirlpool roll {a} (attempt {b}): {'escapes' if c else 'stuck'}")
        elif code == r.EV_SQUID:
            lines.append(f"{pre}squid total {a} (attempt {b}): {_TRAP_RESULT[c]}")
        elif code == r.EV_SACRIFICE:
            lines.append(f"{pre}sacrifices a crewman to the squid ({a} left)")
        elif code == r.EV_FOG:
            lines.append(f"{pre}calls {a} in the fog, rolls {b}: {'out' if c else 'lost'}")
        elif code == r.EV_MERMAID:
            lines.append(f"{pre}mermaids lure a crewman away ({a} left)")
        elif code == r.EV_CASTAWAY:
            lines.append(f"{pre}rescues a castaway ({a} crewmen)")
        elif code == r.EV_GUST:
            lines.append(f"{pre}catches a gust of wind")
        elif code == r.EV_SHORTCUT:
            lines.append(f"{pre}{'takes the short route' if a else 'lands on a shortcut'}")
        elif code == r.EV_TREASURE:
            lines.append(f"{pre}stops at Pirate's Peak (arrival {b}), takes {r.TREASURE_LABELS[a]}")
        elif code == r.EV_DOCK:
            lines.append(f"{pre}docks, sells {a} crewmen, has {b} gold")
        elif code == r.EV_LIFE:
            lines.append(f"{pre}seat {s} loses a life point ({a} left)")
        elif code == r.EV_SKIP:
            lines.append(f"{pre}turn spent (fired to interrupt)")
        elif code == r.EV_ENTER:
            lines.append(f"{pre}caught by the {r.SPACE_WORDS[a]} at {b}")
        elif code == r.EV_ADVANCE:
            lines.append(f"{pre}seat {s} advances {a} -> {b}")
        elif code == r.EV_OVERSHOOT:
            lines.append(f"{pre}{a} spaces overshoot the dock ({b} to go): no move")
        elif code == r.EV_STOP_EARLY:
            lines.append(f"{pre}stops early on the {r.SPACE_WORDS[a]} at {b}")
        elif code == r.EV_END:
            winner = "nobody" if b < 0 else who(b)
            g = ", ".join(f"seat {i} {int(out_seats[i, C_FINAL_GOLD])} gold" for i in range(2))
            lines.append(f"End ({r.END_REASONS[a]}): winner {winner}; {g}")
    return lines
