"""pcscd refusing a user, as pcsc-lite >= 2.0.1 does by default when its polkit check says no (a system
service, or a login without a seat): `SCardEstablishContext` answers SCARD_W_SECURITY_VIOLATION,
"Access denied." (pcsc_scan's output in LudovicRousseau/PCSC#59; pcscd logs "Rejected unauthorized
PC/SC client"). A fake: the pcscd these tests run (Debian 12's 1.9.9) is built without polkit. Checked
by hand against Debian 13's pcscd 2.3.3 and polkitd 126 (hardware/README.md): the same code, 0x8010006A.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any


class RefusingScard:
    """pyscard's `smartcard.scard` module with pcscd's polkit refusal in place of every context."""

    def __init__(self, scard: ModuleType) -> None:
        self._scard = scard
        self.asked = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._scard, name)

    def SCardEstablishContext(self, scope: int) -> tuple[int, int]:
        self.asked += 1
        return self._scard.SCARD_W_SECURITY_VIOLATION, 0
