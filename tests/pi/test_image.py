"""What scripts/build-image writes into the image that a host can check without building it."""

from __future__ import annotations

import re
from pathlib import Path

BUILD_IMAGE = Path(__file__).resolve().parents[2] / "scripts" / "build-image"


def test_the_boot_partition_is_mounted_for_root_alone() -> None:
    # marmite.txt holds the Wi-Fi password and marmite-report.txt the PIN: FAT has no owners, the mount decides.
    fstab = re.search(r"LABEL=RASPIFIRM /boot/firmware vfat (\S+)", BUILD_IMAGE.read_text(encoding="utf-8"))
    assert fstab is not None
    assert {"fmask=0077", "dmask=0077"} <= set(fstab.group(1).split(","))
