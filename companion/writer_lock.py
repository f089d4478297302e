"""One writer per data dir: an OS lock on `marmite.lock` that dies with the process holding it.

`marmite run` and `marmite import` hold it while they write; read-only commands (export,
replay) never take it. On POSIX it is `fcntl.flock`; on Windows `msvcrt.locking` on the
file's first byte. Either way the kernel releases it when the process ends, even by SIGKILL,
so a crashed table never leaves a stale lock behind.
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

LOCK_FILE = "marmite.lock"


class DataDirBusy(RuntimeError):
    """Another process holds the data dir; the message names the dir and its pid."""


class WriterLock:
    """The lock of one data dir, held from `acquire` until `release` (or the process ends)."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.path = data_dir / LOCK_FILE
        self._fd: int | None = None

    @classmethod
    def acquire(cls, data_dir: Path, purpose: str = "marmite") -> WriterLock:
        """Take the lock; DataDirBusy naming the holder's pid when another process has it."""
        lock = cls(data_dir)
        fd = os.open(lock.path, os.O_RDWR | os.O_CREAT, 0o644)
        if not _try_lock(fd):
            holder = _read_holder(fd)
            os.close(fd)
            raise DataDirBusy(f"the data dir {data_dir} is in use by another marmite ({holder}); stop it first,"
                              f" or give {purpose} another folder with --data")
        os.ftruncate(fd, 0)
        os.lseek(fd, 0, os.SEEK_SET)
        os.write(fd, f"pid {os.getpid()}\n".encode())
        lock._fd = fd
        return lock

    def release(self) -> None:
        """Let another process have the data dir; idempotent."""
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, 0)
            _unlock(self._fd)
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> WriterLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _read_holder(fd: int) -> str:
    """What the holder wrote in the lock file ("pid N"), or a placeholder."""
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        text = os.read(fd, 64).decode("ascii", "replace").strip()
    except OSError:
        text = ""
    return text or "pid unknown"


if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _try_lock(fd: int) -> bool:
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def _unlock(fd: int) -> None:
        with contextlib.suppress(OSError):
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def _unlock(fd: int) -> None:
        with contextlib.suppress(OSError):
            fcntl.flock(fd, fcntl.LOCK_UN)
