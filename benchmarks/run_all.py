"""Run every benchmark in this folder, one after the other, and print their figures.

Usage: .venv/bin/python benchmarks/run_all.py [NAME ...]   (names like `replay`, `reader`)
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def machine() -> str:
    """The machine the figures come from: CPU model, cores, Python."""
    model = "unknown CPU"
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    system = f"{platform.system()} {platform.release()}"
    return f"{model}, {os.cpu_count()} cores, {system}, Python {platform.python_version()}"


def main(names: list[str]) -> int:
    scripts = sorted(HERE.glob("bench_*.py"))
    if names:
        scripts = [s for s in scripts if s.stem.removeprefix("bench_") in names]
    print(f"# Marmite benchmarks on {machine()}\n", flush=True)
    failed: list[str] = []
    for script in scripts:
        print(f"## {script.stem}\n", flush=True)
        started = time.monotonic()
        done = subprocess.run([sys.executable, str(script)], cwd=HERE.parent, check=False)
        if done.returncode != 0:
            failed.append(script.stem)
        print(f"\n({script.name}: {time.monotonic() - started:.1f} s, exit {done.returncode})\n", flush=True)
    if failed:  # said at the end too, so a failure is never lost in a long output
        print(f"FAILED or incomplete: {', '.join(failed)} (see their output above)", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
