# Shared by scripts/run and scripts/test: find python3, make .venv, install the project into it.
# Sourced, not run. Uses sudo for system packages when not root; says exactly what is missing otherwise.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
PY="$VENV/bin/python"

say() { printf '\033[1mmarmite:\033[0m %s\n' "$*" >&2; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo "$@"
  else say "please run as root: $*"; return 1
  fi
}

APT_UPDATED=0
apt_install() {
  # apt_install PKG... : install Debian packages that are not installed yet.
  local missing=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  if ! command -v apt-get >/dev/null 2>&1; then
    say "missing system packages: ${missing[*]} (no apt-get here: install them with your package manager)"
    return 1
  fi
  say "installing system packages: ${missing[*]}"
  if [ "$APT_UPDATED" = 0 ]; then as_root apt-get update -qq; APT_UPDATED=1; fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

ensure_venv() {
  # ensure_venv EXTRAS : a .venv with the project installed (editable) with those extras.
  local extras="$1"
  command -v python3 >/dev/null 2>&1 || { say "python3 (3.11 or newer) is required"; exit 1; }
  python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
    || { say "Python 3.11 or newer is required (found $(python3 --version))"; exit 1; }
  if [ ! -x "$PY" ]; then
    if ! python3 -m venv --help >/dev/null 2>&1 || ! python3 -c 'import ensurepip' >/dev/null 2>&1; then
      apt_install python3-venv || { say "install Debian's python3-venv, then run this again"; exit 1; }
    fi
    say "creating $VENV"
    python3 -m venv "$VENV"
  fi
  local stamp="$VENV/.installed-$extras"
  if [ ! -f "$stamp" ] || [ "$ROOT/pyproject.toml" -nt "$stamp" ]; then
    say "installing Marmite and its Python packages ($extras)"
    "$PY" -m pip install -q --upgrade pip
    # The distribution was called "marmite" before it took a name of its own (that one is another project's).
    if "$PY" -m pip show -q marmite >/dev/null 2>&1; then "$PY" -m pip uninstall -q -y marmite; fi
    "$PY" -m pip install -q -e "$ROOT[$extras]"
    # The real mfrc522 driver code runs in tests against our fake chip; its Pi-only
    # dependencies (spidev, RPi.GPIO) are replaced by fakes, so install it alone.
    "$PY" -m pip install -q --no-deps "mfrc522==0.0.7"
    touch "$stamp"
  fi
}
