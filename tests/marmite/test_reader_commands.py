"""`marmite reader test` and `marmite reader learn`, through the real command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.decks import DeckStore
from companion.reads import ReaderHealth, ReaderQueue, TagSeen
from companion.tags import TagMap
from hardware.fakes import FakeCard, FakeMFRC522, installed
from marmite.cli import main
from marmite.games import GAMES
from marmite.readers import READERS

NTAG = "04a1b2c3d4e5f6"


SCRIPT: list[str] = []  # the UIDs the next scripted reader plays
ACKNOWLEDGED: list[str] = []  # the UIDs whose `done` was called, as a USB board would be told


class ScriptedReader:
    """A reader that plays a fixed list of UIDs as soon as it starts."""

    name = "scripted"

    def __init__(self, uids: list[str]) -> None:
        self.uids = uids

    def start(self, out: ReaderQueue) -> None:
        out.put(ReaderHealth(self.name, True, "scripted"))
        for uid in self.uids:
            out.put(TagSeen(uid, self.name, done=lambda uid=uid: ACKNOWLEDGED.append(uid)))

    def close(self) -> None:
        pass


@pytest.fixture(autouse=True)
def scripted_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    """`--reader test-scripted` plays SCRIPT (an entry of the composition root's reader table)."""
    monkeypatch.setitem(READERS, "test-scripted", (lambda options: ScriptedReader(list(SCRIPT)), "scripted"))
    ACKNOWLEDGED.clear()


def uid_of(index: int) -> str:
    return f"04{index:012x}"


def test_reader_test_prints_tags_with_their_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    TagMap(GAMES.tag_codes(), {NTAG: "pea-3a"}).save(tmp_path)
    chip = FakeMFRC522()  # real time: the reader thread polls it as it would a chip
    chip.enter(FakeCard.ntag213(NTAG))
    chip.enter(FakeCard.classic1k("deadbeef"))
    with installed(chip):
        code = main(["reader", "test", "--reader", "rc522", "--data", str(tmp_path), "--seconds", "0.5"])
    lines = capsys.readouterr().out.splitlines()
    assert code == 0
    assert lines[0].startswith("reader rc522 ok: MFRC522 v2.0 ready")
    assert sorted(lines[1:]) == ["tag 04a1b2c3d4e5f6 (7 bytes): pea-3a",
                                 "tag deadbeef (4 bytes): not in the active deck"]


def test_learn_walks_the_deck_in_french_and_refuses_a_taken_tag(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    codes = GAMES.kinds[GAMES.default].tag_codes  # the default game's box, in order
    SCRIPT[:] = [uid_of(0), uid_of(0), *(uid_of(i) for i in range(1, len(codes)))]
    assert main(["reader", "learn", "--reader", "test-scripted", "--data", str(tmp_path)]) == 0
    assert DeckStore(tmp_path, codes).load() == {uid_of(i): code for i, code in enumerate(codes)}
    out = capsys.readouterr().out.splitlines()
    assert out[1] == "Pois, zéro, bouillon — premier exemplaire.  (0/77)"
    assert ("Refusée : cette étiquette est déjà Pois, zéro, bouillon — premier exemplaire. "
            "Pois, zéro, bouillon — second exemplaire.  (1/77)") in out
    assert out[-1] == "Enregistrement terminé : 77 sur 77."
    assert ACKNOWLEDGED == SCRIPT  # every tag taken is acknowledged, the refused one too: the board may forget them


def test_learn_takes_the_box_of_the_game_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    codes = GAMES.kinds["buffet"].tag_codes  # 110 mouse cards, then the plates
    SCRIPT[:] = [uid_of(i) for i in range(len(codes))]
    assert main(["reader", "learn", "--reader", "test-scripted", "--data", str(tmp_path), "--game", "buffet"]) == 0
    saved = DeckStore(tmp_path, GAMES.tag_codes()).load()
    assert len(saved) == 152 and saved[uid_of(0)] == "mouse-n1@1" and saved[uid_of(151)] == "plate-salad-5"
    out = capsys.readouterr().out.splitlines()
    assert out[1] == "Souris moins un, exemplaire 1.  (0/146)"  # a box: 110 mouse cards and 36 plates
    assert "Noté. Fromage à −1.  (110/146)" in out and out[-1] == "Enregistrement terminé : 146 sur 146."


def test_learn_speaks_the_tables_language(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "web.json").write_text(json.dumps({"language": "nl"}))
    codes = GAMES.kinds[GAMES.default].tag_codes  # the default game's box, in order
    SCRIPT[:] = [uid_of(i) for i in range(len(codes))]
    assert main(["reader", "learn", "--reader", "test-scripted", "--data", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Opdrachten:")
    assert out[1] == "Erwten, nul, bouillon — eerste exemplaar.  (0/77)"


def test_reader_test_acknowledges_every_tag_it_prints(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    SCRIPT[:] = ["aabbccdd", "11223344"]
    main(["reader", "test", "--reader", "test-scripted", "--data", str(tmp_path), "--seconds", "0.3"])
    printed = [line.split()[1] for line in capsys.readouterr().out.splitlines() if line.startswith("tag ")]
    assert printed == ACKNOWLEDGED == SCRIPT


def test_learn_resumes_where_it_stopped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    codes = GAMES.kinds[GAMES.default].tag_codes  # the default game's box, in order
    TagMap(GAMES.tag_codes(), {uid_of(i): code for i, code in enumerate(codes[:-2])}).save(tmp_path)
    SCRIPT[:] = ["aabbccdd", "11223344"]
    assert main(["reader", "learn", "--reader", "test-scripted", "--data", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == "carte menu Piment, jeu du siège 5.  (75/77)"
    assert lines[2] == "Noté. carte menu pas de soupe, jeu du siège 5.  (76/77)"
    assert TagMap.load(tmp_path, GAMES.tag_codes()).lookup("11223344") == codes[-1]


def test_learn_again_asks_for_every_card_from_the_first(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    codes = GAMES.kinds[GAMES.default].tag_codes  # the default game's box, in order
    TagMap(GAMES.tag_codes(), {uid_of(i): code for i, code in enumerate(codes)}).save(tmp_path)
    SCRIPT[:] = [f"05{i:012x}" for i in range(len(codes))]
    assert main(["reader", "learn", "--again", "--reader", "test-scripted", "--data", str(tmp_path)]) == 0
    assert capsys.readouterr().out.splitlines()[1] == "De nouveau : Pois, zéro, bouillon — premier exemplaire.  (77/77)"
    assert DeckStore(tmp_path, codes).load() == {f"05{i:012x}": code for i, code in enumerate(codes)}


def test_bad_reader_options_are_explained(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["reader", "test", "--data", str(tmp_path), "--option", "gain_db=99"]) == 2
    assert "gain must be one of" in capsys.readouterr().err
    assert main(["reader", "test", "--data", str(tmp_path), "--reader", "nfc9000"]) == 2
    assert "unknown reader 'nfc9000'" in capsys.readouterr().err


@pytest.mark.parametrize(("language", "first", "menu"), [
    ("fr", "Insectes, zéro, bouillon — premier exemplaire.", "Noté. carte menu Déchets, jeu du siège 5."),
    ("en", "Insects, zero, bouillon — first copy.", "Noted. menu card Trash, set of seat 5."),
    ("nl", "Insecten, nul, bouillon — eerste exemplaar.", "Genoteerd. menukaart Afval, set van plaats 5."),
])
def test_learn_names_the_cards_of_the_decks_edition(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], language: str, first: str, menu: str) -> None:
    (tmp_path / "web.json").write_text(json.dumps({"language": language}))
    codes = GAMES.kinds[GAMES.default].tag_codes
    SCRIPT[:] = [uid_of(i) for i in range(len(codes))]
    assert main(["reader", "learn", "--reader", "test-scripted", "--data", str(tmp_path), "--edition", "2023"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == f"{first}  (0/77)" and f"{menu}  (75/77)" in out
    assert DeckStore(tmp_path, GAMES.tag_codes()).info().edition == "2023"
    assert main(["reader", "learn", "--reader", "test-scripted", "--data", str(tmp_path), "--again"]) == 0
    assert capsys.readouterr().out.splitlines()[1].endswith(f": {first}  (77/77)")  # "De nouveau : …"
    assert DeckStore(tmp_path, GAMES.tag_codes()).info().edition == "2023"  # the deck keeps its edition


def test_learn_refuses_an_edition_that_does_not_exist(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["reader", "learn", "--reader", "test-scripted", "--data", str(tmp_path), "--edition", "2019"])
    assert exited.value.code == 2 and "invalid choice: '2019'" in capsys.readouterr().err
    assert not (tmp_path / "decks").exists()
