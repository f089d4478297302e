"""The table service: durable before announced, tags to events, double reads, restart, secrets kept."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.events import MalformedEvent
from companion.journal import Journal
from companion.table import DOUBLE_READ_SECONDS, Message, TableService
from companion.tags import TagMap, simulated_uid
from marmite.games import GAMES
from tests.companion.chaud_devant.rulebook import card, menu, new_game, started
from tests.companion.clock import Clock


def test_an_accepted_play_is_durable_before_it_is_announced(tmp_path: Path, table: TableService) -> None:
    seen: list[tuple[Message, list[int]]] = []

    def listener(message: Message) -> None:
        with Journal.open(tmp_path) as other:  # a second connection sees only committed data
            seen.append((message, [r.seq for r in other.records()]))

    table.add_listener(listener)
    answer = table.submit(new_game())
    assert answer.as_json() == {"accepted": True, "seq": 1}
    message, committed = seen[0]
    assert message.seq == 1 and committed == [1]


def test_submit_answers_as_the_contract_says(table: TableService) -> None:
    assert table.submit(card("pea-1a")).as_json() == {"accepted": False, "reason": "no_game", "seq": 1}
    for event in started():
        table.submit(event)
    assert table.submit(card("pea-1a")).as_json() == {"accepted": True, "seq": 7}


@pytest.mark.parametrize("bad", [[1], "card", {"type": "dance"}, {"type": "card"}, {"type": "card", "card": 3},
                                 {"type": "hand", "player": "A", "cards": [1]}, {"type": "menu", "player": "A"}])
def test_a_malformed_event_is_rejected_and_not_journaled(table: TableService, bad: object) -> None:
    with pytest.raises(MalformedEvent):
        table.submit(bad)
    assert table.journal.last_seq == 0


def test_a_double_read_is_one_play(table: TableService, clock: Clock) -> None:
    for event in started():
        table.submit(event)
    uid = simulated_uid("pea-3a")
    assert table.tag_seen(uid) is not None
    clock.now += DOUBLE_READ_SECONDS / 2
    assert table.tag_seen(uid) is None
    assert table.state()["pot"]["cards"] == ["pea-3a"]
    clock.now += DOUBLE_READ_SECONDS
    late = table.tag_seen(uid)
    assert late is not None and late.reason == "already_played"


def test_an_unknown_tag_is_refused_and_recorded(table: TableService) -> None:
    for event in started():
        table.submit(event)
    answer = table.tag_seen("04A1B2C3D4E5F6")
    assert answer is not None and answer.reason == "unknown_card"
    last = list(table.journal.records())[-1]
    assert last.body == {"type": "card", "card": "tag:04a1b2c3d4e5f6"} and last.accepted is False


def test_a_learned_tag_plays_its_card(tmp_path: Path, clock: Clock) -> None:
    tags = TagMap(GAMES.tag_codes(), {"04a1b2c3d4e5f6": "onion-10"})
    table = TableService(Journal.open(tmp_path), GAMES, tags=tags, clock=clock)
    for event in started():
        table.submit(event)
    table.tag_seen("04A1B2C3D4E5F6")
    assert table.state()["pot"]["cards"] == ["onion-10"]


def test_a_menu_card_names_its_seat_by_its_set(table: TableService) -> None:
    table.submit(new_game())
    answer = table.tag_seen(simulated_uid("menu-pepper@2"))
    assert answer is not None and answer.accepted
    view = table.table_view()
    assert [p["has_chosen"] for p in view["players"]] == [False, True, False, False]


def test_a_restart_resumes_exactly_and_replays_announcements(tmp_path: Path, clock: Clock) -> None:
    first = TableService(Journal.open(tmp_path), GAMES, clock=clock)
    for event in [*started(), card("pea-1a"), card("pea-9z"), card("pea-2a")]:
        first.submit(event)
    state, texts = first.state(), [first.render(m)["text"] for m in first.messages_after(0)]
    first.close()
    second = TableService(Journal.open(tmp_path), GAMES, clock=clock)
    assert second.state() == state
    assert [second.render(m)["text"] for m in second.messages_after(0)] == texts


def test_messages_after_a_last_event_id_are_exactly_the_later_events(table: TableService) -> None:
    for event in [*started(), card("pea-1a"), card("pea-2a")]:
        table.submit(event)
    table.where_are_we()
    later = table.messages_after(5)
    assert [m.stream_id for m in later] == [6, 7, None]
    assert later[-1].kind == "where"


def test_repeat_says_the_last_announcement_again(table: TableService) -> None:
    for event in [*started(), card("pea-3a")]:
        table.submit(event)
    repeat = table.repeat_last()
    assert table.render(repeat)["text"] == "Pois 3. À Bruno, couleur demandée Pois."
    assert repeat.stream_id is None


def test_the_language_can_be_switched_and_messages_rerendered(table: TableService) -> None:
    for event in [*started(), card("pea-1a"), card("onion-2a")]:
        table.submit(event)
    table.language = "en"
    assert table.render(table.messages_after(6)[-1])["text"] == "Onion 2 — 3. Valentine to play, led suit Pea."
    table.language = "nl"
    dutch = table.render(table.messages_after(6)[-1])["text"]
    assert dutch == "Ui 2 — 3. Valentine is aan de beurt, gevraagde kleur Erwten."
    with pytest.raises(ValueError):
        table.language = "de"


def test_refusals_are_announced_with_the_rule(tmp_path: Path, table: TableService) -> None:
    from companion.chaud_devant.cards import ALL_CODES
    bruno = ["pea-2a", *ALL_CODES[16:28]]
    events = [new_game(), {"type": "hand", "player": "Bruno", "cards": bruno}, *started()[1:], card("pea-1a")]
    for event in events:
        table.submit(event)
    answer = table.submit(card("onion-3a"))
    assert answer.reason == "must_follow_suit"
    assert table.render(answer.message)["text"] == "Refusé : Il faut fournir Pois — règle 1."


def test_secret_menus_leave_nothing_behind_before_the_reveal(table: TableService) -> None:
    table.submit(new_game())
    table.submit(menu("Virginie", "pepper"))
    table.submit(menu("Bruno", "mushroom"))
    table.submit(menu("Bruno", "mushroom"))
    public = json.dumps([table.state(), table.table_view(), table.history(), table.seat_view("Valentine"),
                         [table.render(m) for m in table.messages_after(0)]], ensure_ascii=False)
    for secret in ("pepper", "mushroom", "Piment", "Champignons"):
        assert secret not in public
    assert "mushroom" not in json.dumps(table.seat_view("Bruno"))  # asked by anyone: no secret
    own = table.seat_view("Bruno", owner=True)
    assert own is not None and own["my_menu"] == "mushroom"


def test_french_lists_use_a_spaced_semicolon(table: TableService) -> None:
    for event in started():
        table.submit(event)
    reveal = table.render(table.messages_after(4)[0])["text"]
    assert "Menus : Virginie, Pois ; Bruno, pas de soupe ; Valentine, Piment ; Nicolas, Oignon." in reveal
    table.language = "en"
    assert "Menus: Virginie, Pea; Bruno, no soup;" in table.render(table.messages_after(4)[0])["text"]


def test_after_a_restart_a_client_resumes_from_an_id_in_an_earlier_game(tmp_path: Path, clock: Clock) -> None:
    first = TableService(Journal.open(tmp_path), GAMES, clock=clock)
    for event in [*started(), card("pea-1a"), card("pea-2a"), new_game(("A", "B", "C")), card("pea-3a")]:
        first.submit(event)
    first.close()
    second = TableService(Journal.open(tmp_path), GAMES, clock=clock)
    later = second.messages_after(5)
    assert [m.stream_id for m in later] == [6, 7, 8, 9]
    assert [m.kind for m in later] == ["card", "card", "new_game", "refused"]
    assert second.state()["stars"] == {"A": 5, "B": 5, "C": 5}


def test_a_failing_listener_neither_loses_the_play_nor_stops_the_others(table: TableService) -> None:
    heard: list[str] = []

    def broken(message: Message) -> None:
        raise RuntimeError("buzzer unplugged")

    table.add_listener(broken)
    table.add_listener(lambda message: heard.append(message.kind))
    answer = table.submit(new_game())
    assert answer.accepted and table.journal.last_seq == 1
    assert heard == ["new_game"]


def test_a_card_read_again_after_a_reader_restart_is_the_pile_in_its_round_and_a_play_in_the_next(
        table: TableService, clock: Clock) -> None:
    """A reader that restarts reads the pile lying on its antenna again (`resting`): ignored while those
    cards are in the round, however long ago they were played. A card of an earlier round dropped again
    just after the restart is a new play (before, the USB bridge dropped it for two seconds)."""
    from companion.chaud_devant.cards import ALL_CODES

    for event in started():
        table.submit(event)
    first = ALL_CODES[0]
    assert table.submit(card(first)).accepted
    records = table.journal.last_seq
    clock.now += 60  # long past the double-read window
    assert table.tag_seen(simulated_uid(first), resting=True) is None
    assert table.journal.last_seq == records
    for code in ALL_CODES[1:]:  # play the round out
        if table.state()["phase"] != "play":
            break
        assert table.submit(card(code)).accepted
    assert table.state()["phase"] == "menu" and table.state()["round"] == 2
    for player, choice in zip(("Bruno", "Valentine", "Nicolas", "Virginie"), ("pea", "none", "pepper", "onion"),
                              strict=True):
        assert table.submit(menu(player, choice)).accepted
    again = table.tag_seen(simulated_uid(first), resting=True)
    assert again is not None and again.accepted
    assert table.tag_seen(simulated_uid(first), resting=True) is None  # and now it lies in this round's pot
