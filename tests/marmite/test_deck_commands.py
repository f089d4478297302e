"""`marmite deck import / export / list / new / use / check`, through the real command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.decks import DeckStore
from marmite.cli import main
from marmite.games import GAMES
from tests.marmite.test_reader_commands import SCRIPT, scripted_reader, uid_of  # noqa: F401 (autouse fixture)

CODES = GAMES.kinds[GAMES.default].tag_codes  # a Chaud Devant box (the default game's cards)


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def full_deck() -> str:
    return "uid,card\n" + "".join(f"{uid_of(i)},{code}\n" for i, code in enumerate(CODES))


def test_import_then_export_round_trips(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    assert main(["deck", "import", str(write(tmp_path / "deck.csv", full_deck())), "--data", str(data)]) == 0
    capsys.readouterr()
    assert main(["deck", "export", "--data", str(data)]) == 0
    assert capsys.readouterr().out == full_deck()


def test_a_partial_deck_with_seven_and_ten_byte_uids_is_accepted(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = "uid,card\n04a1b2c3d4e5f6,pea-3a\n0102030405060708090a,menu-pepper@2\n"
    assert main(["deck", "import", str(write(tmp_path / "d.csv", text)), "--data", str(tmp_path)]) == 0
    assert DeckStore(tmp_path, CODES).load() == {"04a1b2c3d4e5f6": "pea-3a", "0102030405060708090a": "menu-pepper@2"}


@pytest.mark.parametrize(("body", "row", "why"), [
    ("0badbeef,pea-1a\n0BADBEEF,pea-1b\n", "row 3", "not a UID"),
    ("0badbeef,pea-1a\n0badbe,pea-1b\n", "row 3", "not a UID"),
    ("0badbeef,pea-1a\n0badbeef,pea-1b\n", "row 3", "already on an earlier row"),
    ("0badbeef,pea-1a\n0badbee0,pea-1a\n", "row 3", "already on row 2"),
    ("0badbeef,pea-1a\n0badbee0,pea-7a\n", "row 3", "not a card code"),
    ("0badbeef,pea-1a\n0badbee0,menu-pea@6\n", "row 3", "not a card code"),
    ("0badbeef,pea-1a,extra\n", "row 2", "two fields"),
])
def test_a_bad_file_is_refused_whole_naming_the_row(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str, row: str, why: str) -> None:
    data = tmp_path / "data"
    assert main(["deck", "import", str(write(tmp_path / "good.csv", "uid,card\n11223344,onion-10\n")),
                 "--data", str(data)]) == 0
    before = sorted(p.read_bytes() for p in (data / "decks").iterdir())
    capsys.readouterr()
    assert main(["deck", "import", str(write(tmp_path / "bad.csv", "uid,card\n" + body)), "--data", str(data)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert row in err and why in err and "bad.csv" in err
    assert sorted(p.read_bytes() for p in (data / "decks").iterdir()) == before
    assert DeckStore(data, CODES).load() == {"11223344": "onion-10"}


def test_a_row_that_is_not_utf8_is_refused_naming_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_bytes(b"uid,card\n11223344,onion-10\n0badbeef,p\xe9a-1a\n")
    assert main(["deck", "import", str(bad), "--data", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert "row 3" in err and "UTF-8" in err and "bad.csv" in err
    assert not (tmp_path / "decks").exists()


def test_a_file_without_the_header_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deck", "import", str(write(tmp_path / "d.csv", "11223344,onion-10\n")), "--data", str(tmp_path)]) == 2
    assert "row 1" in capsys.readouterr().err
    assert not (tmp_path / "decks").exists()


def test_an_old_tags_json_becomes_the_first_deck(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "tags.json").write_text(json.dumps({"04A1B2C3D4E5F6": "pea-3a"}))
    assert main(["deck", "export", "--data", str(tmp_path)]) == 0
    assert capsys.readouterr().out == "uid,card\n04a1b2c3d4e5f6,pea-3a\n"
    assert main(["deck", "new", "Club", "--data", str(tmp_path)]) == 0
    assert main(["deck", "list", "--data", str(tmp_path)]) == 0
    assert capsys.readouterr().out.splitlines() == ["  main (2005): 1 tags", "* Club (2005): 0 tags"]
    assert main(["deck", "use", "main", "--data", str(tmp_path)]) == 0
    assert DeckStore(tmp_path, CODES).load() == {"04a1b2c3d4e5f6": "pea-3a"}
    assert main(["deck", "use", "nope", "--data", str(tmp_path)]) == 2


def test_check_reports_missing_unknown_and_doubled_by_name(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["deck", "import", str(write(tmp_path / "deck.csv", full_deck())), "--data", str(tmp_path)])
    SCRIPT[:] = [uid_of(i) for i in range(1, len(CODES))] + [uid_of(5), "deadbeef"]
    code = main(["deck", "check", "--reader", "test-scripted", "--data", str(tmp_path), "--seconds", "2"])
    out = capsys.readouterr().out
    assert code == 1
    assert "Pas vues : Pois, zéro, bouillon — premier exemplaire." in out
    assert "Étiquettes inconnues : 1." in out
    assert "Vues deux fois : Pois, deux — second exemplaire." in out
    assert "  ? deadbeef" in out
    assert DeckStore(tmp_path, CODES).info().checked_at is None


def test_a_complete_check_is_remembered_with_its_date(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["deck", "import", str(write(tmp_path / "deck.csv", full_deck())), "--data", str(tmp_path)])
    SCRIPT[:] = [uid_of(i) for i in range(len(CODES))]
    assert main(["deck", "check", "--reader", "test-scripted", "--data", str(tmp_path)]) == 0
    assert "Paquet complet : 77 cartes, aucune en double, aucune inconnue." in capsys.readouterr().out
    assert DeckStore(tmp_path, CODES).info().checked_at is not None
    main(["deck", "list", "--data", str(tmp_path)])
    assert ", checked 20" in capsys.readouterr().out


def test_a_2023_deck_is_checked_by_its_own_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deck", "new", "Forêt", "--edition", "2023", "--data", str(tmp_path)]) == 0
    main(["deck", "import", str(write(tmp_path / "deck.csv", full_deck())), "--data", str(tmp_path)])
    SCRIPT[:] = [uid_of(i) for i in range(1, len(CODES))] + [uid_of(5)]
    assert main(["deck", "check", "--reader", "test-scripted", "--data", str(tmp_path), "--seconds", "2"]) == 1
    out = capsys.readouterr().out
    assert "Pas vues : Insectes, zéro, bouillon — premier exemplaire." in out
    assert "Vues deux fois : Insectes, deux — second exemplaire." in out and "Pois" not in out
    main(["deck", "list", "--data", str(tmp_path)])
    assert "* Forêt (2023): 77 tags" in capsys.readouterr().out.splitlines()
