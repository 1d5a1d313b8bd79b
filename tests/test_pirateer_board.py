"""The board is data: the bundled copy, its parse, the kernel's tables, other layouts."""

from pathlib import Path

import pytest

from pirate_sim import scenario as scen
from pirate_sim.games.pirateer import GAME
from pirate_sim.games.pirateer import geometry
from pirate_sim.games.pirateer.board import default_board_text, load_board, parse_board
from pirate_sim.games.pirateer.rules import DIR_NAMES, STRAIT, WIND

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "pirateer-board.txt"  # beside the checkout


def test_bundled_board_is_the_shared_file():
    if not SHARED.exists():
        pytest.skip("the shared data folder is not beside this checkout")
    assert default_board_text() == SHARED.read_text()


def test_parsed_board_matches_the_legend():
    b = load_board()
    assert (b.width, b.height) == (20, 20)
    winds = b.squares("~")
    assert sorted(winds) == sorted([(x, 15 - x) for x in range(3, 13)] + [(x, 23 - x) for x in range(7, 17)])
    assert len(b.squares("s")) == 8 and len(b.squares("K")) == 4
    assert [(h.number, h.anchor, h.home) for h in b.harbors] == [
        (1, (0, 9), (-1, 0)), (2, (9, 0), (0, -1)), (3, (19, 10), (1, 0)), (4, (10, 19), (0, 1))]
    assert b.pairs == (((3, 4), (15, 16)), ((4, 3), (16, 15)))
    assert all(len(h.starts) == 3 for h in b.harbors)


def test_kernel_tables():
    g = geometry.build(load_board())
    E, W, S, N, NE, SW = range(6)
    strait = g.node_of[(3, 4)]
    assert g.node_of[(15, 16)] == strait and g.kind[strait] == STRAIT
    nb = g.nb[strait]
    assert [tuple(g.node_xy[nb[d]]) for d in (E, W, S, N)] == [(4, 4), (14, 16), (3, 5), (15, 15)]
    assert nb[NE] == -1 and nb[SW] == -1
    band = g.node_of[(7, 8)]
    assert g.kind[band] == WIND and tuple(g.node_xy[g.nb[band, NE]]) == (8, 7)
    assert g.nb[g.node_of[(8, 8)], NE] == -1  # no diagonal from open sea
    assert g.dist_home[1, g.node_of[(0, 9)]] == 0 and g.dist_island[g.node_of[(9, 8)]] == 0
    assert DIR_NAMES[E] == "E"


def _write(tmp_path, text):
    p = tmp_path / "board.txt"
    p.write_text(text)
    return p


def test_bad_layouts_are_refused_with_the_file_named(tmp_path):
    text = default_board_text()
    with pytest.raises(ValueError, match="board: .*unknown square"):
        parse_board(text.replace("y  5 ###.......~.........", "y  5 ###...X...~........."), "x.txt")
    with pytest.raises(ValueError, match="strait pair"):
        parse_board(text.replace("(4,3) pairs with (16,15)", "(4,3) pairs with (16,14)"), "x.txt")
    with pytest.raises(ValueError, match="cannot read"):
        load_board(tmp_path / "missing.txt")
    bad = _write(tmp_path, text.replace("home direction -x", "home direction"))
    with pytest.raises(scen.ScenarioError):
        scen.from_dict({"game": "pirateer", "rules": {"board": str(bad)},
                        "seats": [{"strategy": "runner"}] * 2}).compile()


def test_another_layout_plays(tmp_path):
    # open a passage through the land north of harbor 1: (0,8) becomes sea
    text = default_board_text().replace("y  8 ##.....~.ss", "y  8 .#.....~.ss")
    p = _write(tmp_path, text)
    r = {q.key: q.default for q in GAME.params}
    r["board"] = str(p)
    c = GAME.compile(r, [{"strategy": "runner"}, {"strategy": "hunter"}])
    assert (0, 8) in c.extra["geometry"].node_of
    out_g, _ = GAME.play(c, 1, 0, 50)
    assert (out_g[:, 3] == 0).all()


def test_poison_harbors_follow_from_the_treasure_ship_rule():
    """The FAQ's 'poison harbor': the harbor where a treasure ship cannot get out again."""
    b = load_board()
    g = geometry.build(b)
    assert geometry.poison_harbors(b, g) == {1: [2], 2: [1], 3: [4], 4: [3]}
    assert (10, 0) in geometry.trapped_squares(b, g, 1) and (10, 0) not in geometry.trapped_squares(b, g, 3)
