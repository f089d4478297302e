"""The adaptation guide as PDF: the app serves /guide on loopback and Chromium prints it.

`python -m marmite.guide_pdf OUT_DIR [--chromium PATH]` writes guide-fr.pdf, guide-en.pdf, guide-nl.pdf.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path

from companion.table import TableService
from marmite.games import GAMES

LANGUAGES = ("fr", "en", "nl")
CHROMIUM = "/usr/bin/chromium"


def print_guides(out_dir: Path, *, chromium: str = CHROMIUM, languages: Sequence[str] = LANGUAGES,
                 data_dir: Path | None = None) -> list[Path]:
    """One PDF per language, printed by headless Chromium from the guide page; the paths written."""
    from waitress.server import create_server

    from marmite.serve import table_app

    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        data = data_dir or Path(scratch) / "data"
        service = TableService.open(data, GAMES)
        app = table_app(service, pin="print-only", data_dir=data)
        server = create_server(app, host="127.0.0.1", port=0, threads=2)
        port = server.effective_port
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        written = []
        try:
            for language in languages:
                target = out_dir / f"guide-{language}.pdf"
                subprocess.run(
                    [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                     "--disable-background-networking", "--no-pdf-header-footer",
                     f"--user-data-dir={Path(scratch) / 'profile'}", f"--print-to-pdf={target}",
                     f"http://127.0.0.1:{port}/guide?lang={language}"],
                    check=True, timeout=120, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                written.append(target)
        finally:
            server.close()
            service.close()
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="guide-pdf", description="print the deck adaptation guide to PDF")
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--chromium", default=CHROMIUM)
    args = parser.parse_args(argv)
    try:
        for path in print_guides(args.out_dir, chromium=args.chromium):
            print(path)
    except (OSError, subprocess.SubprocessError) as error:
        print(f"guide-pdf: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
