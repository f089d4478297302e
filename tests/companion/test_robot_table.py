"""Robot seats at the table: the choice journaled and named, the wrong card refused, restart, practice."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion.buffet.table_seats import SEATS, BuffetSeats
from companion.chaud_devant.cards import ALL_CODES
from companion.chaud_devant.table_seats import ChaudSeats
from companion.replay import replay
from companion.robot_games import visible_log
from companion.robot_seats import RobotLedger, RobotSetup
from companion.robot_table import UNDO_GRACE_S, RobotDriver
from companion.robot_talk import practice_talk, practice_turns
from companion.seam import Part, PracticeTalk
from companion.table import TableService
from marmite.games import GAMES

PLAYERS = ["Ana", "Marmiton", "Cléo"]
HANDS = {name: sorted(ALL_CODES[i::4][:13]) for i, name in enumerate(PLAYERS)}


def wait_for(check: Callable[[], Any], timeout: float = 20.0) -> Any:
    """The first truthy value of `check`, polled; fails after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError("timed out waiting")


def texts(table: TableService, language: str = "fr") -> list[str]:
    return [message.text(language) for message in table.messages_after(0)]


def robot_lines(table: TableService, language: str = "en") -> list[tuple[str, str | None]]:
    """A practice robot's card lines (one announcement each) and the learning aid's reason said in them."""
    lines = []
    for message in table.messages_after(0):
        first = message.parts[0] if message.parts else None
        if first is not None and first.key in ("robot.played", "robot.played_plain", "robot.played_named"):
            why = first.fields.get("why")
            said = None if why is None else message.voice.inner.render([why], language)  # type: ignore[attr-defined]
            lines.append((message.text(language), said))
    return lines


def new_game(robots: dict[str, Any], players: list[str] = PLAYERS, dealer: str = "Cléo") -> dict[str, Any]:
    return {"type": "new_game", "players": players, "dealer": dealer, "robots": robots}


def deal_and_choose(table: TableService) -> None:
    """Scan every hand (the robot's too) and let the humans choose their menus."""
    for name in PLAYERS:
        assert table.submit({"type": "hand", "player": name, "cards": HANDS[name]}).accepted
    for name in ("Ana", "Cléo"):
        assert table.submit({"type": "menu", "player": name, "menu": "none"}).accepted
    wait_for(lambda: table.state()["phase"] == "play")


def first_legal(table: TableService) -> str:
    state = table.game_state
    assert state is not None
    return str(state.legal_actions()[0]["card"])


def pending(table: TableService) -> str | None:
    with table.lock:
        choice = table.robots.pending("Marmiton", len(table.standing_actions()) - 1)
        return None if choice is None else choice.card


def test_the_robot_names_its_card_and_any_other_card_is_refused_changing_nothing(opened: Any) -> None:
    table, _ = opened()
    assert table.submit(new_game({"seats": {"Marmiton": "chef"}})).accepted
    deal_and_choose(table)
    assert table.submit({"type": "card", "card": first_legal(table)}).accepted  # Ana leads
    chosen = wait_for(lambda: pending(table))
    assert chosen in HANDS["Marmiton"]
    assert f"Marmiton joue {table.voice().render([], 'fr')}" is not None
    named = [text for text in texts(table) if text.startswith("Marmiton joue ")]
    assert named and named[-1].endswith(": posez-la dans la marmite.")
    before = table.state()
    wrong = next(code for code in HANDS["Marmiton"] if code != chosen)
    answer = table.submit({"type": "card", "card": wrong})
    assert (answer.accepted, answer.reason) == (False, "not_robot_card")
    assert answer.message is not None and answer.message.text("fr").startswith("Ce n'est pas la carte de Marmiton : ")
    assert answer.message.text("en").startswith("That is not Marmiton's card: ")
    assert answer.message.text("nl").startswith("Dat is niet de kaart van Marmiton: ")
    assert table.state() == before
    assert table.where_are_we().text("fr").endswith(": posez-la dans la marmite.")  # "où en est-on" asks too
    assert table.submit({"type": "card", "card": chosen}).accepted
    assert table.state()["turn"] == "Cléo"


def test_a_robot_seat_with_no_dealt_hand_is_announced_and_nothing_is_journaled(opened: Any) -> None:
    table, _ = opened()
    assert table.submit(new_game({"seats": {"Marmiton": "cuisinier"}})).accepted
    for name in ("Ana", "Cléo"):
        assert table.submit({"type": "menu", "player": name, "menu": "none"}).accepted
    said = wait_for(lambda: [t for t in texts(table) if t.startswith("Marmiton n'a pas de cartes")])
    assert said == ["Marmiton n'a pas de cartes : distribuez sa main et passez-la sur le lecteur."]
    time.sleep(0.3)
    assert table.journal.last_seq == 3  # new_game and the two menus: the robot chose nothing


def test_after_a_restart_the_same_card_is_asked_for(opened: Any) -> None:
    table, driver = opened()
    assert table.submit(new_game({"seats": {"Marmiton": "chef"}})).accepted
    deal_and_choose(table)
    assert table.submit({"type": "card", "card": first_legal(table)}).accepted
    chosen = wait_for(lambda: pending(table))
    driver.close()
    table.close()
    again, _ = opened()
    assert pending(again) == chosen
    wait_for(lambda: sum(t.startswith("Marmiton joue ") for t in texts(again)) >= 2)  # journaled, then asked again
    assert again.submit({"type": "card", "card": chosen}).accepted


def test_undo_of_the_robots_card_asks_for_the_same_card(opened: Any) -> None:
    table, _ = opened()
    assert table.submit(new_game({"seats": {"Marmiton": "chef"}})).accepted
    deal_and_choose(table)
    assert table.submit({"type": "card", "card": first_legal(table)}).accepted
    chosen = wait_for(lambda: pending(table))
    assert table.submit({"type": "card", "card": chosen}).accepted
    assert table.undo().accepted
    assert pending(table) == chosen


@pytest.mark.parametrize("robots", [
    {"aids": True},                                            # learning aids without robots
    {"seats": {"Marmiton": "chef"}, "aids": True},             # aids at a real table
    {"seats": {"Marmiton": "grand-chef"}},                    # unknown level
    {"seats": {"Zoé": "chef"}},                               # not a player
    {"seats": {name: "chef" for name in PLAYERS}},            # nobody left to practise
    {"seats": {"Marmiton": "chef"}, "practice": "dreams"},
    {"seats": {"Marmiton": "chef"}, "pace_ms": -1},
])
def test_bad_robot_setups_are_refused(opened: Any, robots: dict[str, Any]) -> None:
    table, _ = opened()
    answer = table.submit(new_game(robots))
    assert (answer.accepted, answer.reason) == (False, "bad_setup")


def test_a_robot_event_for_a_human_or_out_of_turn_is_refused(opened: Any) -> None:
    table, _ = opened()
    assert table.submit(new_game({"seats": {"Marmiton": "chef"}})).accepted
    deal_and_choose(table)
    answer = table.submit({"type": "robot", "player": "Ana", "card": HANDS["Ana"][0]})
    assert (answer.accepted, answer.reason) == (False, "not_a_robot")
    answer = table.submit({"type": "robot", "player": "Marmiton", "card": HANDS["Marmiton"][0]})
    assert (answer.accepted, answer.reason) == (False, "robot_not_due")  # Ana leads


def test_the_robots_request_shows_only_what_its_seat_may_see(opened: Any) -> None:
    table, driver = opened()
    driver.close()
    assert table.submit(new_game({"seats": {"Marmiton": "chef"}})).accepted
    for name in PLAYERS:
        assert table.submit({"type": "hand", "player": name, "cards": HANDS[name]}).accepted
    assert table.submit({"type": "menu", "player": "Ana", "menu": "pea"}).accepted
    state = table.game_state
    assert state is not None
    seen = visible_log(table.standing_actions(), "Marmiton", state)
    assert [e.get("player") for e in seen if e["type"] == "hand"] == ["Marmiton"]
    assert not [e for e in seen if e["type"] == "menu"]  # Ana's menu is still secret
    for name in ("Marmiton", "Cléo"):
        if name == "Marmiton":  # a robot's menu is its own: noted just before, as the robot driver does
            assert table.submit({"type": "robot", "player": name, "menu": "none"}, "robot").accepted
        assert table.submit({"type": "menu", "player": name, "menu": "none"}).accepted
    seen = visible_log(table.standing_actions(), "Marmiton", table.game_state)  # type: ignore[arg-type]
    assert {e["player"] for e in seen if e["type"] == "menu"} == set(PLAYERS)  # revealed


def play_humans(table: TableService, humans: set[str], until: Callable[[], bool]) -> None:
    """Humans play their first legal card whenever it is their turn, until `until()`."""
    deadline = time.monotonic() + 60
    while not until():
        assert time.monotonic() < deadline, texts(table)[-5:]
        with table.lock:
            state, public = table.game_state, table.state()
            move = None
            if state is not None and public["phase"] == "menu":
                move = next((e for e in state.legal_actions() if e["player"] in humans
                             and not public_has_chosen(table, e["player"])), None)
            elif state is not None and public["phase"] == "play" and public["turn"] in humans:
                move = state.legal_actions()[0]
        if move is not None:
            assert table.submit(move).accepted
        else:
            time.sleep(0.01)


def public_has_chosen(table: TableService, player: str) -> bool:
    return any(p["name"] == player and p["has_chosen"] for p in table.table_view()["players"])


def test_a_virtual_practice_round_deals_the_hands_and_robots_play_themselves(opened: Any) -> None:
    table, _ = opened()
    robots = {"seats": {"Marmiton": "debutant", "Cléo": "chef"}, "practice": "virtual", "pace_ms": 0, "aids": True}
    assert table.submit(new_game(robots)).accepted
    play_humans(table, {"Ana"}, lambda: len(table.state()["rounds"]) >= 1 and "points" in table.state()["rounds"][0])
    log = [record.body for record in table.journal.records() if record.accepted]
    hands = [event for event in log if event["type"] == "hand"]
    assert {event["player"] for event in hands} == set(PLAYERS)  # every hand journaled as a known hand
    assert all(event["type"] != "robot" or event["player"] != "Ana" for event in log)
    assert any("why" in event for event in log if event["type"] == "robot")  # the learning aid's reason
    lines = robot_lines(table)
    assert lines and all(text.startswith(("Marmiton: ", "Cléo: ")) for text, _ in lines)  # one line per card
    assert not any(message.kind == "robot" and message.parts for message in table.messages_after(0)
                   if message.parts and message.parts[0].key.startswith("robot.plays"))  # no second line
    assert all(f", {why}." in text for text, why in lines if why)  # the reason in the card's own line
    said_why = {why + "." for _, why in lines if why}
    assert said_why
    public = {"to duck.", "to take the trick."}  # opening says nothing (issue 30)
    assert all(why in public or why.startswith("to win ") for why in said_why), said_why
    assert replay(list(enumerate(log, 1)), GAMES)["rounds"][0]["points"] == table.state()["rounds"][0]["points"]


def test_a_practice_table_with_real_cards_deals_robots_from_the_cards_left(opened: Any) -> None:
    table, _ = opened()
    robots = {"seats": {"Marmiton": "chef"}, "practice": "cards", "pace_ms": 0}
    assert table.submit(new_game(robots)).accepted
    for name in ("Ana", "Cléo"):
        assert table.submit({"type": "hand", "player": name, "cards": HANDS[name]}).accepted
    state = wait_for(lambda: table.game_state if "Marmiton" in known_hands(table) else None)
    dealt = known_hands(table)["Marmiton"]
    assert len(dealt) == 13 and not dealt & (set(HANDS["Ana"]) | set(HANDS["Cléo"]))
    assert state is not None


def known_hands(table: TableService) -> dict[str, set[str]]:
    with table.lock:
        state: Any = table.game_state
        current = state.progress.open_round
        return {} if current is None else {state.players[s]: set(h) for s, h in current.hands.items()}


def test_sus_au_buffet_the_robot_chooses_face_down_and_is_named_at_its_reveal(opened: Any) -> None:
    table, _ = opened()
    players = ["Ana", "Marmiton", "Cléo", "Dan"]
    start = {"type": "new_game", "game": "buffet", "players": players, "first": "Ana",
             "robots": {"seats": {"Marmiton": "chef"}, "practice": "cards", "pace_ms": 0}}
    assert table.submit(start).accepted
    hand = wait_for(lambda: table.robots.hand("Marmiton"))
    assert len(hand) == 9
    for plate in ("plate-cheese-3", "plate-potato-2", "plate-pizza-1"):
        assert table.submit({"type": "plate", "plate": plate}).accepted
    wait_for(lambda: any(t == "Marmiton a choisi sa carte, face cachée." for t in texts(table)))
    assert not any(t.startswith("Marmiton joue la souris") for t in texts(table))  # not named before its reveal
    assert table.submit({"type": "card", "card": "mouse-3"}).accepted  # Ana reveals
    named = wait_for(lambda: [line for line in robot_lines(table, "fr") if line[0].startswith("Marmiton : ")]
                     or [t for t in texts(table) if t.startswith("Marmiton : ")])
    assert len(named) == 1  # its card's own line, once
    wait_for(lambda: table.state()["turn"] == "Cléo")
    assert len(table.robots.hand("Marmiton") or ()) == 8


def test_a_buffet_practice_round_robots_swap_and_draw_back_to_nine(opened: Any) -> None:
    table, _ = opened()
    players = ["Ana", "Bip", "Bop", "Bup"]
    start = {"type": "new_game", "game": "buffet", "players": players, "first": "Ana",
             "robots": {"seats": {"Bip": "debutant", "Bop": "cuisinier", "Bup": "chef"}, "practice": "cards",
                        "pace_ms": 0}}
    assert table.submit(start).accepted
    wait_for(lambda: all(table.robots.hand(name) for name in players[1:]))
    for plate in ("plate-cheese-3", "plate-potato-2", "plate-pizza-1"):
        assert table.submit({"type": "plate", "plate": plate}).accepted
    values = iter(["mouse-0", "mouse-1", "mouse-2", "mouse-0", "mouse-1"] * 10)
    deadline = time.monotonic() + 60
    while table.state()["round"] == 1:
        assert time.monotonic() < deadline, texts(table)[-5:]
        if table.state()["turn"] == "Ana":
            assert table.submit({"type": "card", "card": next(values)}).accepted
        time.sleep(0.01)
    first_out = table.state()["plates"]
    assert any(first_out.values())
    wait_for(lambda: all(len(table.robots.hand(name) or ()) == 9 for name in players[1:]))  # drawn back to nine
    log = [record.body for record in table.journal.records() if record.accepted]
    swaps = [event for event in log if event["type"] == "robot" and "swap" in event]
    leaver = next((e for e in log if e["type"] == "robot" and "swap" in e), None)
    assert len(swaps) <= 1  # only the first mouse out of the round may exchange
    if leaver is not None:
        assert any(t.startswith(leaver["player"]) and ("échange" in t or "garde" in t) for t in texts(table))


def test_sus_au_buffet_practice_without_cards_deals_lays_and_turns_over_only_once_all_have_chosen(
        opened: Any) -> None:
    table, _ = opened()
    players = ["Ana", "Bip", "Bop", "Bup"]
    start = {"type": "new_game", "game": "buffet", "players": players, "first": "Ana",
             "robots": {"seats": {"Bip": "debutant", "Bop": "cuisinier", "Bup": "chef"}, "practice": "virtual",
                        "pace_ms": 0, "aids": True}}
    assert table.submit(start).accepted
    wait_for(lambda: table.state()["phase"] == "step")  # every hand dealt virtually, the plates laid by the table
    assert len(table.robots.hand("Ana") or ()) == 9
    assert len(table.state()["buffet"]) == 3
    wait_for(lambda: all(robot_chose(table, name) for name in players[1:]))
    time.sleep(0.2)
    assert table.state()["turn"] == "Ana" and set(table.state()["positions"].values()) == {0}  # nothing turned
    # over before Ana chose
    assert table.submit({"type": "robot", "player": "Bip", "card": "mouse-3"}).reason == "robot_not_due"
    where = table.where_are_we()  # "où en est-on" says who the table waits for
    assert where.text("fr").endswith("Pas encore de carte face cachée pour : Ana.")
    assert where.text("en").endswith("Still to choose a card face down: Ana.")
    assert where.text("nl").endswith("Nog geen gedekte kaart van: Ana.")
    exchanged = False
    while table.state()["round"] == 1:
        with table.lock:
            in_step = "Ana" in table.state()["in_round"] and table.state()["phase"] == "step"
            mine = table.robots.pending("Ana", len(table.standing_actions()) - 1)
            hand = table.robots.hand("Ana") or ()
            due = in_step and mine is None and table.state()["in_round"].index("Ana") >= table.state()[
                "in_round"].index(table.state()["turn"])
            exchange = SEATS.swap_due(table.game_state, table.robots, "Ana", len(table.standing_actions()) - 1)
        if due and hand:
            assert table.submit({"type": "robot", "player": "Ana", "card": min(hand)}, source="seat").accepted
        elif exchange:  # her mouse left first: the table waits for her exchange before turning cards over
            time.sleep(0.3)
            assert "Ana" not in table.state()["in_round"] and table.state()["round"] == 1
            kept = {"type": "robot", "player": "Ana", "hand": list(hand), "swap": []}
            assert table.submit(kept, source="seat").accepted
            exchanged = True
        time.sleep(0.01)
    log = [record.body for record in table.journal.records() if record.accepted]
    assert any(e["type"] == "robot" and e["player"] == "Ana" and "card" in e for e in log)
    assert any(t.startswith("Ana a choisi sa carte, face cachée") for t in texts(table))
    reveals = robot_lines(table)
    assert any(why for _, why in reveals), reveals
    assert not any(t.endswith("has chosen a card, face down.") and not t.startswith("Ana ") for t in texts(table, "en"))
    for text, why in reveals:  # the learning aid at the reveal: public facts only (the card named, the situation)
        assert why is None or why in ("to win the duel", "to get ahead of the last mouse") or \
            why.startswith("to leave with "), text
        if why is not None and why.startswith("to leave with "):
            assert ": minus one " in text or ": zero " in text, text
    if exchanged:  # her mouse left first: the table waited for her choice, and said it
        assert any(t == "Ana garde ses cartes." for t in texts(table)), texts(table)
    else:  # a robot's mouse left first: it chose its exchange itself
        assert any(e["type"] == "robot" and "swap" in e and e["player"] != "Ana" for e in log)
    wait_for(lambda: len(table.robots.hand("Ana") or ()) == 9)  # drawn back up to nine
    assert replay(list(enumerate(log, 1)), GAMES)["score"] == table.state()["score"]


def robot_chose(table: TableService, name: str) -> bool:
    with table.lock:
        return table.robots.pending(name, len(table.standing_actions()) - 1) is not None


def test_after_undo_practice_robots_wait_until_a_person_plays_or_the_host_resumes(opened: Any) -> None:
    table, driver = opened()
    robots = {"seats": {"Marmiton": "chef"}, "practice": "virtual", "pace_ms": 0}
    assert table.submit(new_game(robots)).accepted
    def robot_just_played() -> bool:  # Cléo's turn in a trick under way: the card before hers is Marmiton's
        public = table.state()  # (Cléo's turn after a trick she took follows her own card)
        return public["phase"] == "play" and public["turn"] == "Cléo" and bool(public["pot"]["cards"])

    play_humans(table, {"Ana", "Cléo"}, robot_just_played)
    assert table.undo().accepted  # takes back the robot's card: its choice stands again
    assert table.state()["turn"] == "Marmiton"
    time.sleep(0.5)
    assert table.state()["turn"] == "Marmiton"  # paused: the robot does not play it again at once
    driver.resume()
    wait_for(lambda: table.state()["turn"] == "Cléo")


def test_a_practice_game_started_after_an_undo_deals_at_once(opened: Any) -> None:
    """An undo's pause belongs to its game: the next practice game's robots deal without waiting for a person."""
    table, _driver = opened()
    assert table.submit(new_game({"seats": {"Marmiton": "chef"}})).accepted
    deal_and_choose(table)
    assert table.submit({"type": "card", "card": first_legal(table)}).accepted
    assert table.undo().accepted  # the last thing the table did: an undo
    robots = {"seats": {"Marmiton": "chef"}, "practice": "virtual", "pace_ms": 0}
    game = table.current_game
    assert table.submit(new_game(robots)).accepted
    # the new game's hands, dealt by the table (a practice without cards no longer says them: issue 30)
    wait_for(lambda: table.current_game != game and len(known_hands(table)) == len(PLAYERS))


def undo_in_a_game_without_robots(table: TableService) -> None:
    """A game that seats no robot, its hands scanned and menus chosen, a card played and undone."""
    assert table.submit({"type": "new_game", "players": PLAYERS, "dealer": "Cléo"}).accepted  # no robot
    for name in PLAYERS:
        assert table.submit({"type": "hand", "player": name, "cards": HANDS[name]}).accepted
    for name in PLAYERS:
        assert table.submit({"type": "menu", "player": name, "menu": "none"}).accepted
    assert table.submit({"type": "card", "card": first_legal(table)}).accepted
    assert table.undo().accepted


def test_a_practice_game_after_an_undo_in_a_game_without_robots_deals_at_once(opened: Any) -> None:
    """The walk's freeze: an undo in a game that seats no robot paused the driver, and the next practice game,
    the first the driver looked at, took that pause as its own and never dealt."""
    table, _driver = opened()
    undo_in_a_game_without_robots(table)
    assert table.submit({"type": "card", "card": first_legal(table)}).accepted  # the last record is not the undo
    game = table.current_game
    assert table.submit(new_game({"seats": {"Marmiton": "chef"}, "practice": "virtual", "pace_ms": 0})).accepted
    wait_for(lambda: table.current_game != game and len(known_hands(table)) == len(PLAYERS))


def test_an_undo_heard_after_a_new_game_began_does_not_pause_that_game(tmp_path: Path) -> None:
    """The driver hears announcements on the announcer's thread, later than they are journaled: an undo of the
    last game delivered once the next practice game has begun paused the new game (its clock never lets go)."""
    table = TableService.open(tmp_path, GAMES)
    driver = RobotDriver(table, think_ms=30, clock=lambda: 0.0)
    try:
        undo_in_a_game_without_robots(table)
        undo = next(m for m in reversed(table.messages_after(0)) if m.kind == "undo")
        game = table.current_game
        assert table.submit(new_game({"seats": {"Marmiton": "chef"}, "practice": "virtual", "pace_ms": 0})).accepted
        driver._heard(undo)  # delivered late, as the hub may
        driver.start()
        wait_for(lambda: table.current_game != game and len(known_hands(table)) == len(PLAYERS))
    finally:
        driver.close()
        table.close()


def test_after_undo_practice_robots_go_on_by_themselves_when_nobody_does(tmp_path: Path) -> None:
    """After an undo the robots wait for a person to go on, but not for ever: a person with nothing to press
    (her face-down card already chosen, the robot's turn) left the table stuck (the walk's second freeze)."""
    now = [0.0]
    table = TableService.open(tmp_path, GAMES)
    driver = RobotDriver(table, think_ms=30, clock=lambda: now[0]).start()
    try:
        robots = {"seats": {"Marmiton": "chef"}, "practice": "virtual", "pace_ms": 0}
        assert table.submit(new_game(robots)).accepted

        def robot_just_played() -> bool:
            public = table.state()
            return public["phase"] == "play" and public["turn"] == "Cléo" and bool(public["pot"]["cards"])

        play_humans(table, {"Ana", "Cléo"}, robot_just_played)
        assert table.undo().accepted
        time.sleep(0.5)
        assert table.state()["turn"] == "Marmiton"  # paused: a person may still go on or undo again
        now[0] += UNDO_GRACE_S + 1
        wait_for(lambda: table.state()["turn"] == "Cléo")
    finally:
        driver.close()
        table.close()


def test_a_robot_game_exports_and_replays_to_the_tables_state(opened: Any, tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    table, driver = opened()
    assert table.submit(new_game({"seats": {"Marmiton": "chef"}})).accepted
    deal_and_choose(table)
    assert table.submit({"type": "card", "card": first_legal(table)}).accepted
    chosen = wait_for(lambda: pending(table))
    assert table.submit({"type": "card", "card": next(c for c in HANDS["Marmiton"] if c != chosen)}).reason \
        == "not_robot_card"
    assert table.submit({"type": "card", "card": chosen}).accepted
    state = table.state()
    driver.close()
    table.close()
    root = Path(__file__).resolve().parents[2]
    exported = subprocess.run([sys.executable, "-m", "marmite.cli", "export", "--data", str(tmp_path)], cwd=root,
                              capture_output=True, text=True, check=True).stdout
    assert any(json.loads(line)["type"] == "robot" for line in exported.splitlines())
    replayed = subprocess.run([sys.executable, "-m", "marmite.cli", "replay", "-"], cwd=root, input=exported,
                              capture_output=True, text=True, check=True).stdout
    printed = json.loads(replayed)
    assert [r["reason"] for r in printed.pop("refused")] == ["not_robot_card"]
    assert printed == state


def test_sus_au_buffet_practice_without_cards_waits_for_a_persons_exchange(tmp_path: Path) -> None:
    table = TableService.open(tmp_path, GAMES)
    players = ["Ana", "Bip", "Bop", "Bup"]
    start = {"type": "new_game", "game": "buffet", "players": players, "first": "Ana",
             "robots": {"seats": {"Bip": "chef", "Bop": "chef", "Bup": "chef"}, "practice": "virtual", "pace_ms": 0}}
    assert table.submit(start).accepted
    for name in players:  # dealt before the driver starts: Ana holds the lowest cards, the robots fives
        cards = ["mouse-n1"] * 9 if name == "Ana" else ["mouse-5"] * 9
        assert table.submit({"type": "robot", "player": name, "hand": cards}).accepted
    driver = RobotDriver(table, think_ms=30).start()
    try:
        wait_for(lambda: table.state()["phase"] == "step")
        assert table.submit({"type": "robot", "player": "Ana", "card": "mouse-n1"}, source="seat").accepted
        wait_for(lambda: "Ana" not in table.state()["in_round"])  # -1 against three fives: she leaves first
        with table.lock:
            assert SEATS.swap_due(table.game_state, table.robots, "Ana", len(table.standing_actions()) - 1)
        wait_for(lambda: all(robot_chose(table, name) for name in players[1:]))
        positions = table.state()["positions"]
        time.sleep(0.5)
        assert table.state()["positions"] == positions  # no card turned over while her exchange is open
        hand = table.robots.hand("Ana") or ()
        exchange = {"type": "robot", "player": "Ana", "hand": ["mouse-9", *hand[1:]], "swap": [hand[0]]}
        assert table.submit(exchange, source="seat").accepted
        wait_for(lambda: table.state()["positions"] != positions)  # then the table goes on
        assert any(t == "Ana échange 1 carte." for t in texts(table)), texts(table)[-4:]
    finally:
        driver.close()
        table.close()


def test_a_buffet_practice_with_cards_exports_and_replays_with_the_robots_known_hands(
        opened: Any, tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    table, driver = opened()
    players = ["Ana", "Bip", "Cléo"]
    start = {"type": "new_game", "game": "buffet", "players": players, "first": "Ana",
             "robots": {"seats": {"Bip": "chef"}, "practice": "cards", "pace_ms": 0}}
    assert table.submit(start).accepted
    dealt = wait_for(lambda: table.robots.hand("Bip"))  # the robot's hand dealt virtually; the people hold theirs
    assert len(dealt) == 9
    for plate in ("plate-cheese-3", "plate-potato-2", "plate-pizza-1", "plate-sausage-0", "plate-salad-5"):
        assert table.submit({"type": "plate", "plate": plate}).accepted
    for _ in range(4):  # the people's cards pass the reader; the robot's card is turned over by the table
        wait_for(lambda: table.state()["turn"] in ("Ana", "Cléo"))
        assert table.submit({"type": "card", "card": "mouse-4"}).accepted
    state = table.state()
    driver.close()
    table.close()
    root = Path(__file__).resolve().parents[2]
    exported = subprocess.run([sys.executable, "-m", "marmite.cli", "export", "--data", str(tmp_path)], cwd=root,
                              capture_output=True, text=True, check=True).stdout
    events = [json.loads(line) for line in exported.splitlines()]
    assert {"type": "robot", "player": "Bip", "hand": list(dealt)} in events  # journaled as a known hand
    replayed = subprocess.run([sys.executable, "-m", "marmite.cli", "replay", "-"], cwd=root, input=exported,
                              capture_output=True, text=True, check=True).stdout
    printed = json.loads(replayed)
    printed.pop("refused")
    assert printed == state


def test_at_a_practice_table_a_robots_turn_says_no_led_suit_a_persons_turn_keeps_it(opened: Any) -> None:
    table, _ = opened()
    robots = {"seats": {"Marmiton": "debutant", "Cléo": "debutant"}, "practice": "virtual", "pace_ms": 0}
    assert table.submit(new_game(robots)).accepted
    rounds = lambda: table.state()["rounds"]  # noqa: E731
    play_humans(table, {"Ana"}, lambda: bool(rounds()) and len(rounds()[0]["tricks"]) >= 3)
    turns = [part for message in table.messages_after(0) for part in message.parts if part.key == "turn"]
    to_robots = [part for part in turns if part.fields["player"] != "Ana"]
    to_ana = [part for part in turns if part.fields["player"] == "Ana"]
    assert to_robots and not [part for part in to_robots if part.fields.get("bound")]  # "À Cléo." (issue 30)
    assert [part for part in to_ana if part.fields.get("bound")]  # "À Ana, couleur demandée Pois."


def test_each_game_names_the_parts_a_practice_table_spares() -> None:
    """The generic robot talk asks the game (its `TableSeats.practice_talk`), never names a game's parts."""
    assert practice_talk(GAMES.kinds["chaud_devant"]) == PracticeTalk(
        own_choice=("menu_chosen",), dealt=("hand_recorded",), won=("trick_won",))
    assert practice_talk(GAMES.kinds["buffet"]) == PracticeTalk(own_choice=("swap",))
    assert practice_talk(None) == PracticeTalk()
    source = (Path(__file__).resolve().parents[2] / "companion" / "robot_talk.py").read_text(encoding="utf-8")
    assert not [key for key in ("menu_chosen", "hand_recorded", "trick_won", '"swap"') if key in source]


def test_a_practice_tables_turn_words_spare_the_robots_what_their_own_line_says() -> None:
    """"Bip peut échanger des cartes." before "Bip échange 2 cartes." is said once; a person's call stays."""
    practice, talk = RobotLedger(RobotSetup(seats={"Bip": "debutant"}, practice="virtual")), BuffetSeats.practice_talk
    parts = (Part("departure", {"player": "Bip"}), Part("swap", {"player": "Bip"}), Part("swap", {"player": "Ana"}),
             Part("turn", {"player": "Bip", "bound": Part("where_led", {"suit": "pea"})}))
    assert practice_turns(parts, practice, talk) == (parts[0], parts[2], Part("turn", {"player": "Bip", "bound": None}))
    real = RobotLedger(RobotSetup(seats={"Bip": "debutant"}))
    assert practice_turns(parts, real, talk) == parts  # at a real table the host reads the robot's exchange


def test_a_practice_table_without_cards_says_neither_its_deal_nor_a_robots_lead_after_its_trick() -> None:
    """Issue 30: four "Main de Bop enregistrée, 13 cartes." a deal, "Cléo a choisi son menu." and "Cléo gagne le
    pli avec 13. À Cléo." slowed a round by ear; a person's lead after their trick stays (it is their cue)."""
    practice, talk = RobotLedger(RobotSetup(seats={"Cléo": "debutant"}, practice="virtual")), ChaudSeats.practice_talk
    deal = (Part("round_opened", {"round": 2, "dealer": "Ana"}), Part("hand_recorded", {"player": "Ana", "size": 13}),
            Part("hand_recorded", {"player": "Cléo", "size": 13}))
    assert practice_turns(deal, practice, talk) == deal[:1]
    won = (Part("trick_won", {"player": "Cléo", "sum": 13}), Part("turn", {"player": "Cléo", "bound": None}))
    assert practice_turns(won, practice, talk) == won[:1]
    ana = (Part("trick_won", {"player": "Ana", "sum": 13}), Part("turn", {"player": "Ana", "bound": None}))
    assert practice_turns(ana, practice, talk) == ana
    menus = (Part("menu_chosen", {"player": "Ana"}), Part("menu_chosen", {"player": "Cléo"}))
    assert practice_turns(menus, practice, talk) == menus[:1]  # a person's choice is confirmed, a robot's goes unsaid
    with_cards = RobotLedger(RobotSetup(seats={"Cléo": "debutant"}, practice="cards"))
    assert practice_turns(deal, with_cards, talk) == deal  # the host deals those hands by tag: each is news
    real = RobotLedger(RobotSetup(seats={"Cléo": "debutant"}))
    assert practice_turns(won, real, talk) == won
