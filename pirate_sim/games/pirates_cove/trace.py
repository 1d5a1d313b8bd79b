"""Readable lines for the kernel's event log (``PiratesCove.trace``)."""

from __future__ import annotations

from . import rules as R


def unit_name(u: int, compiled) -> str:
    """A seat or a black ship by name."""
    if u < R.MAX_SEATS:
        return f"seat {u}"
    return f"black ship {u - R.MAX_SEATS}"


def _island(i: int) -> str:
    return f"{i} {R.ISLAND_NAMES[i]}" if 0 <= i <= 6 else f"island {i}"


def _reward(g: int, c: int, f: int, t: int) -> str:
    parts = [f"{v} {w}" for v, w in ((g, "gold"), (c, "chests"), (f, "fame"), (t, "Tavern cards")) if v]
    return ", ".join(parts) or "nothing"


def describe(kind: int, a: int, b: int, c: int, compiled) -> str:
    sec = R.SECTION_NAMES
    if kind == R.EV_FIRST:
        return f"first player is seat {a}"
    if kind == R.EV_SETUP:
        lv = [(a >> 12) & 15, (a >> 8) & 15, (a >> 4) & 15, a & 15]
        return "set-up ship: " + ", ".join(f"{sec[k]} {lv[k]}" for k in range(4)) + f"; {b} gold left"
    if kind == R.EV_ROUND:
        return f"round {a}: Treasure cards turn up"
    if kind == R.EV_CHOICE:
        return f"reveals island {_island(a)}"
    if kind == R.EV_DRAW:
        return f"draws Tavern card {R.CARD_NAMES[a]}" + (f" ({b})" if a == R.FAME else "")
    if kind == R.EV_TAKE:
        return f"takes the Treasure card of island {a}: " + _reward(b // 16, b % 16, c // 16, c % 16)
    if kind == R.EV_UPGRADE:
        return f"raises {sec[a]} {b} level(s) for {c} gold"
    if kind == R.EV_BUY:
        return f"buys {a} Tavern card(s) for {b} gold"
    if kind == R.EV_BURY:
        return f"buries {a} chests and {b} gold for {c} fame"
    if kind == R.EV_FIGHT:
        return ("final combat" if c else f"combat on island {_island(a)}") + f" between {b} ships"
    if kind == R.EV_ORDER:
        units = [(c >> (4 * (b - 1 - j))) & 15 for j in range(b)]
        return "speed order: " + ", ".join(unit_name(u, compiled) for u in units)
    if kind == R.EV_VOLLEY:
        t, k = divmod(a, 16)
        dice, hits = divmod(b, 16)
        u, fog = divmod(c, 2)
        text = f"{unit_name(u, compiled)} fires {dice} dice at the {sec[k]} of {unit_name(t, compiled)}: {hits} hit(s)"
        return text + (" - cancelled by a Fog Bank:" if fog else "")
    if kind == R.EV_CRIPPLE:
        return f"{unit_name(a, compiled)} is crippled by {unit_name(b, compiled)}"
    if kind == R.EV_FLEE:
        return f"flees to Pirate's Cove (rolls {a})" + (": MUTINY" if b else "")
    if kind == R.EV_COVE:
        rep = ", ".join(sec[k] for k in range(4) if (a >> k) & 1)
        return "at Pirate's Cove" + (f", repairs {rep}" if rep else "") + (
            ", takes a Tavern card" if b else f", takes {c} gold")
    if kind == R.EV_BLACK:
        return f"black ship {a} sails to island {_island(b)}"
    if kind == R.EV_PLAY:
        return f"plays {R.CARD_NAMES[a]}"
    if kind == R.EV_PLUNDER:
        return f"plunders the barge (black ship {a}) for {b} fame"
    if kind == R.EV_RESHUFFLE:
        return f"the Tavern discards ({a} cards) are reshuffled"
    if kind == R.EV_OVERBOARD:
        return f"{a} chest(s) go overboard (hold too small)"
    if kind == R.EV_TIE:
        return f"{a} ships tie on {b} fame: a final combat decides"
    if kind == R.EV_END:
        reason = R.END_REASONS[b].replace("_", " ")
        return (f"seat {a} wins" if a >= 0 else "no winner") + f" ({reason}, {c} fame)"
    if kind == R.EV_SEARCH:
        what = R.DEC_NAMES[a].replace("_", " ")
        opt = {R.DEC_ISLAND: lambda v: f"island {v}", R.DEC_FLEE: lambda v: "flee" if v else "attack",
               R.DEC_BUY: lambda v: f"{v} Tavern card(s)", R.DEC_UPGRADE: lambda v: f"{v} level(s)",
               R.DEC_TI: lambda v: "no upgrade" if v < 0 else f"{R.SECTION_NAMES[v]} +1"}[a](b)
        return f"searches its {what} choice: {opt} ({c} rollouts)"
    return f"event {kind} {a} {b} {c}"
