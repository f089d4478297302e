"""Black-box acceptance tests of `marmite replay` against CONTRACT.md and RULES.md."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .helpers import UNDO, card, hand, menu, ng, replay, run_replay, score_round, simulate

P3 = ["A", "B", "C"]


def reveal(menus: tuple[str, str, str] = ("pea", "onion", "mushroom")) -> list[dict[str, Any]]:
    return [ng(), *(menu(p, m) for p, m in zip(P3, menus, strict=True))]


def reasons(out: dict[str, Any]) -> list[tuple[int, str]]:
    return [(r["line"], r["reason"]) for r in out["refused"]]


def test_shape_and_file_path(tmp_path: Path) -> None:
    f = tmp_path / "log.jsonl"
    f.write_text(json.dumps(ng()) + "\n")
    proc = subprocess.run([sys.executable, "-m", "marmite.cli", "replay", str(f)],
                          capture_output=True, text=True, timeout=20)
    assert proc.returncode == 0
    out = json.loads(proc.stdout)
    assert set(out) >= {"phase", "round", "turn", "stars", "rounds", "pot", "winners", "refused", "revokes"}
    assert out["phase"] == "menu" and out["round"] == 1 and out["turn"] is None
    assert out["stars"] == {"A": 5, "B": 5, "C": 5}
    assert out["pot"] == {"cards": [], "sum": 0, "led": None, "spoiled": False}
    assert out["winners"] == [] and out["refused"] == [] and out["revokes"] == []


def test_blank_lines_ignored() -> None:
    proc = run_replay(["", json.dumps(ng()), "   ", json.dumps({"type": "foo_not"})[:0], json.dumps(menu("A", "x"))])
    out = json.loads(proc.stdout)
    assert reasons(out) == [(5, "unknown_card")]


@pytest.mark.parametrize("bad", ["not json", "[1, 2]", '"str"', '{"no": "type"}', '{"type": "bogus"}'])
def test_malformed_exit_2(bad: str) -> None:
    proc = run_replay([json.dumps(ng()), bad])
    assert proc.returncode == 2
    assert proc.stdout == ""
    err = proc.stderr.strip()
    assert err and "\n" not in err and "2" in err


def test_menus_hidden_until_reveal_then_play() -> None:
    out = replay([ng(), menu("A", "pea"), menu("B", "onion")])
    assert "menus" not in out["rounds"][0]
    assert "pea" not in json.dumps(out) and "onion" not in json.dumps(out)
    out = replay([*reveal()])
    assert out["phase"] == "play" and out["turn"] == "A"
    assert out["rounds"][0]["menus"] == {"A": "pea", "B": "onion", "C": "mushroom"}
    assert "points" not in out["rounds"][0]


def test_menu_rechoice_last_counts() -> None:
    out = replay([ng(), menu("A", "pea"), menu("A", "none"), menu("B", "onion"), menu("C", "pea")])
    assert out["rounds"][0]["menus"] == {"A": "none", "B": "onion", "C": "pea"}


def test_sequential_partial_and_turns() -> None:
    base = [ng(menu_reveal="sequential")]
    out = replay([*base, menu("A", "pea")])
    assert out["rounds"][0]["menus"] == {"A": "pea"}
    out = replay([*base, menu("B", "pea")])
    assert reasons(out) == [(2, "not_your_turn")]
    # dealer C may not copy A while another menu is left
    out = replay([*base, menu("A", "pea"), menu("B", "onion"), menu("C", "pea")])
    assert reasons(out) == [(4, "menu_forbidden")]


def test_turn_rotation_and_pot() -> None:
    out = replay([*reveal(), card("pea-3a"), card("pea-4a")])
    assert out["turn"] == "C"
    assert out["pot"] == {"cards": ["pea-3a", "pea-4a"], "sum": 7, "led": "pea", "spoiled": False}


def test_trick_win_and_lead() -> None:
    out = replay([*reveal(), card("pea-5a"), card("pea-5b"), card("onion-1a")])
    t = out["rounds"][0]["tricks"]
    assert t == [{"winner": "B", "cards": ["pea-5a", "pea-5b"]}]
    assert out["pot"]["cards"] == ["onion-1a"] and out["turn"] == "C"


def test_led_ten_counts_zero_later_ten_counts() -> None:
    out = replay([*reveal(), card("pea-10"), card("pea-1a")])
    assert out["pot"]["sum"] == 1
    out = replay([*reveal(), card("pea-1a"), card("pea-10")])
    assert out["rounds"][0]["tricks"][0]["winner"] == "B"


def test_overflow_resets_and_ten_after_overflow() -> None:
    out = replay([*reveal(), card("pea-5a"), card("pea-x")])
    assert out["pot"]["sum"] == 0 and out["pot"]["led"] == "pea"
    out = replay([*reveal(), card("pea-5a"), card("pea-x"), card("pea-4a")])
    assert out["pot"]["sum"] == 4
    out = replay([*reveal(), card("pea-x"), card("pea-10")])
    assert out["rounds"][0]["tricks"] == [{"winner": "B", "cards": ["pea-x", "pea-10"]}]


def test_pepper_lead_spoils() -> None:
    out = replay([*reveal(), card("pepper-3a")])
    assert out["pot"]["led"] is None and out["pot"]["spoiled"] is True and out["pot"]["sum"] == 3
    out = replay([*reveal(), card("pea-1a"), card("pepper-2a")])
    assert out["pot"]["led"] == "pea" and out["pot"]["spoiled"] is True


def test_already_played_and_unknown_card() -> None:
    out = replay([*reveal(), card("pea-1a"), card("pea-1a"), card("pea-6a"), card("menu-pea@1")])
    assert reasons(out) == [(6, "already_played"), (7, "unknown_card"), (8, "unknown_card")]
    assert out["pot"]["cards"] == ["pea-1a"]


@pytest.mark.parametrize(
    ("ev", "reason"),
    [
        ({"type": "new_game", "players": ["A", "B"], "dealer": "A"}, "bad_setup"),
        ({"type": "new_game", "players": ["A", "B", "C", "D", "E", "F"], "dealer": "A"}, "bad_setup"),
        ({"type": "new_game", "players": ["A", "A", "C"], "dealer": "A"}, "bad_setup"),
        ({"type": "new_game", "players": ["A", "B", "C"], "dealer": "Z"}, "bad_setup"),
        ({"type": "new_game", "players": ["A", "B", "C"], "dealer": "A", "rules": {"edition": "1999"}}, "bad_setup"),
        ({"type": "new_game", "players": ["A", "B", "C"], "dealer": "A", "rules": {"menu_reveal": "x"}},
         "bad_setup"),
    ],
)
def test_bad_setup(ev: dict[str, Any], reason: str) -> None:
    out = replay([ev])
    assert reasons(out) == [(1, reason)]


def test_no_game() -> None:
    out = replay([menu("A", "pea"), card("pea-1a"), UNDO, {"type": "new_game", "players": ["A"], "dealer": "A"},
                  menu("A", "pea")])
    assert reasons(out) == [(1, "no_game"), (2, "no_game"), (3, "no_game"), (4, "bad_setup"), (5, "no_game")]


def test_precedence_chain() -> None:
    # unknown_player beats unknown_card; unknown_card beats wrong_phase
    out = replay([ng(), menu("Z", "zzz"), card("zzz")])
    assert reasons(out) == [(2, "unknown_player"), (3, "unknown_card")]
    # wrong_phase: card in menu phase; menu during play
    out = replay([ng(), card("pea-1a"), *reveal()[1:], menu("A", "none"), hand("A", ["pea-2a"])])
    assert reasons(out) == [(2, "wrong_phase"), (6, "wrong_phase"), (7, "wrong_phase")]


def test_menu_used_in_earlier_round() -> None:
    ev, _, _ = simulate(3, with_hands=False, rounds=1)
    out = replay([*ev, menu("A", ev[1]["menu"])])
    assert reasons(out) == [(len(ev) + 1, "menu_used")]
    assert out["phase"] == "menu" and out["round"] == 2


def test_between_rounds_and_points() -> None:
    ev, _, pts = simulate(4, with_hands=False, rounds=1)
    out = replay(ev)
    assert out["phase"] == "menu" and out["round"] == 2 and out["turn"] is None
    assert len(out["rounds"]) == 1 and out["rounds"][0]["points"] == pts[0]
    out2 = replay([*ev, menu("B", "none" if ev[2]["menu"] != "none" else "pea")])
    assert len(out2["rounds"]) == 2 and out2["rounds"][1]["dealer"] == "A"
    assert "points" not in out2["rounds"][1]


@pytest.mark.parametrize("seed", [1, 2, 5])
def test_full_game_known_hands(seed: int) -> None:
    ev, stars, pts = simulate(seed)
    out = replay(ev)
    assert out["refused"] == []
    assert out["phase"] == "game_over" and out["round"] == 5 and out["turn"] is None
    assert [r["points"] for r in out["rounds"]] == pts
    assert out["stars"] == stars
    top = max(stars.values())
    assert sorted(out["winners"]) == sorted(p for p in stars if stars[p] == top)
    assert out["revokes"] == []


def test_full_game_hidden_hands_and_game_over_refusals() -> None:
    ev, stars, _ = simulate(7, with_hands=False)
    out = replay([*ev, card("pea-1a"), menu("A", "pea")])
    assert out["stars"] == stars
    assert reasons(out) == [(len(ev) + 1, "wrong_phase"), (len(ev) + 2, "wrong_phase")]


def test_undo_across_game_over_and_round_end() -> None:
    ev, _, _ = simulate(8, with_hands=False)
    before = replay(ev[:-1])
    after = replay([*ev, UNDO])
    before.pop("refused")
    after.pop("refused")
    assert after == before
    assert after["phase"] == "play"
    ev1, _, _ = simulate(8, with_hands=False, rounds=1)
    nxt = menu("A", "none" if ev1[1]["menu"] != "none" else "pea")
    out = replay([*ev1, nxt, UNDO, UNDO])
    ref = replay(ev1[:-1])
    assert out["phase"] == "play" and out["pot"] == ref["pot"] and out["rounds"] == ref["rounds"]


def test_undo_nothing() -> None:
    out = replay([ng(), UNDO])
    assert reasons(out) == [(2, "nothing_to_undo")]
    out = replay([ng(), menu("A", "pea"), UNDO, UNDO])
    assert reasons(out) == [(4, "nothing_to_undo")]


def test_shared_winners() -> None:
    """Every player tied at the top wins. The seed search always finds a tie (the helper's games are
    deterministic; seed 7 ties two players), so this never skips."""
    for seed in range(200):
        ev, stars, _ = simulate(seed, with_hands=False)
        top = max(stars.values())
        if list(stars.values()).count(top) > 1:
            break
    else:
        pytest.fail("no tied game among the first 200 seeds")
    out = replay(ev)
    assert len(out["winners"]) > 1
    assert sorted(out["winners"]) == sorted(p for p in stars if stars[p] == top)


# ---- hands ----

def test_deal_sizes() -> None:
    from .helpers import deck
    d = deck()
    out = replay([ng(), hand("A", d[:13]), hand("B", d[13:25])])
    assert reasons(out) == [(3, "bad_hand")]
    p5 = ["A", "B", "C", "D", "E"]
    ok = [hand("A", d[:11]), hand("B", d[11:22]), hand("C", d[22:32]), hand("D", d[32:42]), hand("E", d[42:52])]
    out = replay([ng(p5, "E"), *ok])
    assert out["refused"] == []
    out = replay([ng(p5, "E"), hand("C", d[:11])])
    assert reasons(out) == [(2, "bad_hand")]
    out = replay([ng(p5, "E", edition="2023"), hand("A", d[:10]), hand("B", d[10:21])])
    assert reasons(out) == [(3, "bad_hand")]


def test_bad_hand_duplicate_and_other_player() -> None:
    from .helpers import deck
    d = deck()
    out = replay([ng(), hand("A", [*d[:12], d[0]]), hand("A", d[:13]), hand("B", [*d[12:24], d[30]])])
    assert reasons(out) == [(2, "bad_hand"), (4, "bad_hand")]


def test_hand_replacement_and_known_checks() -> None:
    from .helpers import deck
    d = deck()  # pea 0..13, onion 14..27, mushroom 28..41, pepper 42..51
    a = d[0:13]
    a2 = d[1:14]  # replaces: pea-0a no longer in A's hand
    b = [d[14], *d[15:27]]  # onions + (B has no pea)
    b = d[14:27]
    c = [d[0], *d[28:40]]  # C holds pea-0a
    evs = [ng(), hand("A", a), hand("A", a2), hand("B", b), hand("C", c), *reveal()[1:]]
    out = replay(evs)
    assert out["refused"] == []
    out = replay([*evs, card("pea-0a")])
    assert reasons(out) == [(9, "out_of_turn")]
    out = replay([*evs, card("pepper-1a")])
    assert reasons(out) == [(9, "not_in_hand")]
    # A leads pea-1a; B (no pea) may play onion; C holds pea-0a and must follow
    out = replay([*evs, card("pea-1a"), card("onion-1a"), card("mushroom-1a")])
    assert reasons(out) == [(11, "must_follow_suit")]
    assert out["pot"]["cards"] == ["pea-1a", "onion-1a"]


def test_hand_wrong_phase() -> None:
    from .helpers import deck
    out = replay([*reveal(), hand("A", deck()[:13])])
    assert reasons(out) == [(5, "wrong_phase")]


# ---- revokes ----

def test_revoke_recorded_once_per_void() -> None:
    evs = [*reveal(), card("pea-1a"), card("onion-1a"), card("pea-10")]  # t1: B void in pea, C wins
    out = replay(evs)
    assert out["rounds"][0]["tricks"][0]["winner"] == "C"
    assert out["revokes"] == []
    # t2: B plays pea -> revoke proven (void t1, proof t2)
    evs += [card("pea-2a"), card("pea-2b"), card("pea-3a"), card("pea-4a")]
    out = replay(evs)
    first = {"round": 1, "player": "B", "suit": "pea", "void_trick": 1, "proof_trick": 2}
    assert out["revokes"] == [first]
    assert out["rounds"][0]["tricks"][1]["winner"] == "C"
    # t3: B plays pea again: adds nothing
    evs += [card("pea-4b"), card("pea-3b"), card("pea-0a"), card("pea-5a")]
    out = replay(evs)
    assert out["revokes"] == [first]
    # t4: B shows void again (and A too); t5: B plays pea -> a second entry
    evs += [card("pea-1b"), card("pea-x"), card("onion-2a"), card("pea-5b"), card("mushroom-5a")]
    out = replay(evs)
    assert out["rounds"][0]["tricks"][3]["winner"] == "A"
    evs += [card("onion-3a"), card("pea-0b")]
    out = replay(evs)
    second = {"round": 1, "player": "B", "suit": "pea", "void_trick": 4, "proof_trick": 5}
    assert [r for r in out["revokes"] if r["player"] == "B" and r["suit"] == "pea"] == [first, second]
    assert out["refused"] == []


def test_score_table() -> None:
    assert score_round({"A": "pepper"}, {"A": ["pepper-1a", "pea-0a", "pea-x"]}) == {"A": 0}
