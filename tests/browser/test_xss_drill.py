"""The reflected-XSS drill in Debian's Chromium (beside the shared browser, not in tests/drill/): a crafted
seat link opened on an unlocked tablet runs nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote

from tests.drill.helpers import Running

PAYLOADS = ['<img src=x onerror="window.__pwned=1;fetch(\'/api/undo\',{method:\'POST\'})">',
            "<script>window.__pwned=1</script>", '"><svg onload="window.__pwned=1">']


def test_crafted_links_run_nothing_on_an_unlocked_tablet(browser: Any, tmp_path: Path) -> None:
    server = Running(tmp_path / "data").start()
    try:
        url = f"http://127.0.0.1:{server.port}"
        server.play({"type": "new_game", "players": [PAYLOADS[0], "Bert", "Chloé"], "dealer": "Bert"})
        page = browser.new_context().new_page()
        dialogs: list[str] = []
        page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        page.goto(f"{url}/unlock?next=/")
        page.fill("#pin", server.pin)
        page.click("button[type=submit]")
        page.wait_for_url(f"{url}/")
        for payload in PAYLOADS:
            for path in (f"/seat/{quote(payload, safe='')}", f"/fragment/seat/{quote(payload, safe='')}",
                         f"/unlock?next={quote(payload, safe='')}"):
                page.goto(url + path)
                page.wait_for_load_state("load")
                assert page.evaluate("window.__pwned") is None, path
        page.goto(url + "/")  # the hostile name is a player: shown as text on the table display
        page.wait_for_load_state("load")
        assert page.evaluate("window.__pwned") is None
        assert PAYLOADS[0] in page.inner_text("#state")
        assert dialogs == []
        assert server.play({"type": "undo"})[1]["accepted"] is False  # nothing was taken back before
    finally:
        server.stop()
