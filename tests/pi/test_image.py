"""What scripts/build-image writes into the image that a host can check without building it."""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
from pathlib import Path
from types import ModuleType

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
BUILD_IMAGE = SCRIPTS / "build-image"


def test_the_boot_partition_is_mounted_for_root_alone() -> None:
    # marmite.txt holds the Wi-Fi password and marmite-report.txt the PIN: FAT has no owners, the mount decides.
    fstab = re.search(r"LABEL=RASPIFIRM /boot/firmware vfat (\S+)", BUILD_IMAGE.read_text(encoding="utf-8"))
    assert fstab is not None
    assert {"fmask=0077", "dmask=0077"} <= set(fstab.group(1).split(","))


def load_bootfiles() -> ModuleType:
    spec = importlib.util.spec_from_file_location("pi_bootfiles", SCRIPTS / "pi" / "bootfiles.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


bootfiles = load_bootfiles()
KERNEL, INITRD = "vmlinuz-6.1.0-28-arm64", "initrd.img-6.1.0-28-arm64"
# The shape of what raspi-firmware writes (its comments shortened).
CONFIG = f"""# Do not modify this file!
[pi4]
max_framebuffers=2
[all]
arm_64bit=1
enable_uart=1
upstream_kernel=1
kernel={KERNEL}
# For details on the initramfs directive, see
initramfs {INITRD}
"""
PARTITION = {*bootfiles.OTHERS, *bootfiles.FIRMWARE, *bootfiles.DEVICE_TREES, KERNEL, INITRD}


def test_a_partition_with_everything_boots() -> None:
    assert bootfiles.missing(PARTITION, CONFIG) == []


@pytest.mark.parametrize("name", sorted(PARTITION))
def test_each_file_a_pi_needs_is_missed(name: str) -> None:
    lacking = bootfiles.missing(PARTITION - {name}, CONFIG)
    assert len(lacking) == 1 and name in lacking[0]


@pytest.mark.parametrize(("change", "said"), [("arm_64bit=1\n", "arm_64bit=1"),
                                              (f"kernel={KERNEL}\n", "names no kernel"),
                                              (f"initramfs {INITRD}\n", "names no initrd")])
def test_a_config_txt_that_cannot_boot_the_kernel_is_missed(change: str, said: str) -> None:
    lacking = bootfiles.missing(PARTITION, CONFIG.replace(change, ""))
    assert len(lacking) == 1 and said in lacking[0]


def fat_image(path: Path, names: set[str], config: str) -> None:
    """A disk image whose FAT partition starts at 4 MiB, as scripts/build-image makes it."""
    files = path.parent / "files"
    files.mkdir()
    for name in names:
        (files / name).write_text(config if name == "config.txt" else name, encoding="utf-8")
    partition = path.parent / "boot.img"
    subprocess.run(["mkfs.vfat", "-C", "-n", "RASPIFIRM", str(partition), "8192"], check=True, capture_output=True)
    subprocess.run(["mcopy", "-i", str(partition), *sorted(str(file) for file in files.iterdir()), "::/"], check=True)
    with path.open("wb") as image:
        image.truncate(4 * 1024 * 1024)
        image.seek(4 * 1024 * 1024)
        image.write(partition.read_bytes())


needs_mtools = pytest.mark.skipif(not (shutil.which("mcopy") and shutil.which("mkfs.vfat")), reason="no mtools here")


@needs_mtools
@pytest.mark.parametrize("lacking", ["", "start4.elf", "bcm2837-rpi-zero-2-w.dtb", KERNEL])
def test_check_image_reads_the_boot_partition(tmp_path: Path, lacking: str) -> None:
    image = tmp_path / "card.img"
    fat_image(image, PARTITION - {lacking}, CONFIG)
    done = subprocess.run([str(SCRIPTS / "check-image"), "--boot-partition", str(image)],
                          capture_output=True, text=True, timeout=120, check=False)
    if lacking:
        assert done.returncode == 1 and f"{lacking}" in done.stderr
    else:
        assert done.returncode == 0, done.stderr
        assert f"config.txt boots {KERNEL} with {INITRD}" in done.stderr


BUILT = SCRIPTS.parent / "dist" / "marmite-pi-arm64.img"


@needs_mtools
@pytest.mark.skipif(not BUILT.exists(), reason="no image built here (sudo scripts/build-image)")
def test_the_built_image_holds_what_a_pi_needs() -> None:
    done = subprocess.run([str(SCRIPTS / "check-image"), "--boot-partition", str(BUILT)],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr


def test_the_image_has_what_networkmanager_s_access_point_runs() -> None:
    # The image's packages come without their recommends; NetworkManager's shared mode (the hotspot) runs
    # dnsmasq for its DHCP, which network-manager only recommends: without it no phone gets an address.
    script = BUILD_IMAGE.read_text(encoding="utf-8")
    packages = re.search(r"apt-get install -y -q --no-install-recommends .*?(?<!\\)\n", script, re.DOTALL)
    assert packages is not None
    words = packages.group(0).split()
    assert {"network-manager", "wpasupplicant", "dnsmasq-base", "wireless-regdb"} <= set(words)
