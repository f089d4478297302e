"""Does a boot partition hold what a Pi 3, Pi 4 and Zero 2 W need to boot? Standard library only.

`bootfiles.py LISTING CONFIG` reads the partition's file names (one a line) and its config.txt: the
firmware (bootcode.bin for the Pi 3 and Zero 2 W, start4.elf for the Pi 4), each model's device tree, a
64-bit kernel and initrd named by config.txt and present, cmdline.txt and marmite.txt. It prints the kernel
and the initrd (scripts/check-image boots them) and exits 0, or names each thing missing and exits 1.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

FIRMWARE = ("bootcode.bin", "start.elf", "fixup.dat", "start4.elf", "fixup4.dat")
# The upstream kernel's device trees (config.txt's upstream_kernel=1), one per model the image is for.
DEVICE_TREES = ("bcm2837-rpi-3-b.dtb", "bcm2837-rpi-3-b-plus.dtb", "bcm2711-rpi-4-b.dtb", "bcm2837-rpi-zero-2-w.dtb")
OTHERS = ("config.txt", "cmdline.txt", "marmite.txt")


def boot_config(config: str) -> dict[str, str]:
    """config.txt's settings (`key=value`, and `initramfs NAME …`), the last of each; sections ignored."""
    settings: dict[str, str] = {}
    for raw in config.splitlines():
        line = raw.split("#", 1)[0].strip()
        if line.startswith("initramfs "):
            settings["initramfs"] = line.split()[1]
        elif "=" in line:
            key, value = line.split("=", 1)
            settings[key.strip()] = value.strip()
    return settings


def missing(names: set[str], config: str) -> list[str]:
    """What the partition lacks, one line each; empty when a Pi 3, 4 and Zero 2 W can boot it."""
    lacking = [f"no {name}" for name in (*OTHERS, *FIRMWARE, *DEVICE_TREES) if name not in names]
    settings = boot_config(config)
    if settings.get("arm_64bit") != "1":
        lacking.append("config.txt does not set arm_64bit=1 (the kernel is arm64)")
    for key, what in (("kernel", "kernel"), ("initramfs", "initrd")):
        named = settings.get(key)
        if not named:
            lacking.append(f"config.txt names no {what} ({key})")
        elif named not in names:
            lacking.append(f"config.txt's {what} {named} is not on the partition")
    return lacking


def main(argv: list[str]) -> int:
    """Check a listing and a config.txt; print the kernel and initrd."""
    parser = argparse.ArgumentParser(prog="bootfiles.py", description=__doc__)
    parser.add_argument("listing", type=Path, help="the partition's file names, one a line")
    parser.add_argument("config", type=Path, help="its config.txt")
    args = parser.parse_args(argv)
    names = {line.strip() for line in args.listing.read_text(encoding="utf-8").splitlines() if line.strip()}
    config = args.config.read_text(encoding="utf-8") if args.config.exists() else ""
    lacking = missing(names, config)
    for line in lacking:
        print(f"boot partition: {line}", file=sys.stderr)
    if lacking:
        return 1
    settings = boot_config(config)
    print(settings["kernel"], settings["initramfs"])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
