"""The computer's own voice: signed numbers said as words, and the robots paced on espeak-ng's end."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from companion.table import TableService
from web_ui.speaker import Speaker, signs_said


@pytest.mark.parametrize(("language", "text", "said"), [
    ("fr", "Ana -1, 4 étoiles ; Bruno −2 ; Cléo +3.", "Ana moins 1, 4 étoiles ; Bruno moins 2 ; Cléo plus 3."),
    ("en", "saucisse at −1", "saucisse at minus 1"),
    ("nl", "worst op -1", "worst op min 1"),
    ("fr", "Jean-Paul 10-4 0.5 -x", "Jean-Paul 10-4 0.5 -x"),  # a hyphen between words or digits stays
])
def test_signed_numbers_are_said_with_their_sign_as_a_word(language: str, text: str, said: str) -> None:
    assert signs_said(text, language) == said


def test_the_speaker_tells_the_pace_once_it_has_said_everything(service: TableService, tmp_path: Path) -> None:
    release = tmp_path / "release"
    spoken = tmp_path / "spoken.txt"
    script = tmp_path / "fake-espeak"  # "speaks" until the test lets it finish
    script.write_text(f'#!/bin/sh\nwhile [ ! -e {release} ]; do sleep 0.01; done\necho "$@" >> {spoken}\n')
    script.chmod(0o755)
    told: list[int] = []
    done = threading.Event()

    def heard(serial: int) -> None:
        told.append(serial)
        done.set()

    speaker = Speaker(service, program=str(script), on_spoken=heard).start()
    try:
        message = service.where_are_we()
        assert not done.wait(0.3)  # still speaking: nothing told
        release.touch()
        assert done.wait(10)
        assert told == [message.serial]
    finally:
        release.touch()
        speaker.close()
        speaker._thread.join(timeout=10)
    assert "Aucune partie en cours." in spoken.read_text()
