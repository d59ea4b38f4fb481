#!/usr/bin/env bash
# The bare install: builds croupier's wheel, installs it WITHOUT any extra into a fresh virtual
# environment under a temporary directory, and checks what a bare install promises
# (src/croupier/core/extras.py, docs/install.md):
#
#   * no package of any extra is installed, and no compiled build is in the wheel (the engine
#     runs from its .py sources);
#   * `croupier replay` of an example scenario prints what the checkout prints;
#   * `croupier rules check` accepts an example Rules Submission (validated, not priced) and
#     refuses a bad one (exit 2);
#   * `croupier par four-card-poker` refuses with one line naming the analysis extra, exit 2.
#
#   scripts/bare-install.sh [PYTHON]   # PYTHON builds the wheel and runs the checkout's side
#                                      # (default: python3; `make test` passes .venv/bin/python)
#
# `make test` runs it (target `bare`).  Bounded: every step runs under `timeout`.  Offline where
# it can be: the build backend and the base requirements are kept in a wheelhouse
# ($CROUPIER_WHEELHOUSE, default ~/.cache/croupier/bare-wheelhouse); a run first installs from it
# alone (--no-index) and fills it from the package index only when something is missing.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
PY=${1:-python3}
WH=${CROUPIER_WHEELHOUSE:-${XDG_CACHE_HOME:-$HOME/.cache}/croupier/bare-wheelhouse}
STEP=${CROUPIER_BARE_STEP_TIMEOUT:-300}
SCENARIO=$ROOT/src/croupier/scenarios/641a_11_c_3_tie_goes_to_the_player.json
RULES=$ROOT/tests/rules/four-card-poker.toml
BAD_RULES=$ROOT/tests/rules/four-card-poker-bad.toml

WORK=$(mktemp -d "${TMPDIR:-/tmp}/croupier-bare.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WH"
unset PYTHONPATH CROUPIER_NATIVE_REQUIRED CROUPIER_PURE

fail() {
    echo "bare-install: $*" >&2
    exit 1
}

step() {
    timeout "$STEP" "$@"
}

# 1. The wheel (the build backend from the wheelhouse, else the index).
build() {
    step "$PY" -m pip wheel --quiet --no-deps --no-index --find-links "$WH" \
        --wheel-dir "$WORK/dist" "$ROOT" 2>"$WORK/build.log"
}
if ! build; then
    mapfile -t backend < <("$PY" -c 'import sys, tomllib
for r in tomllib.load(open(sys.argv[1], "rb"))["build-system"]["requires"]: print(r)' \
        "$ROOT/pyproject.toml")
    step "$PY" -m pip download --quiet --dest "$WH" "${backend[@]}"
    build || { cat "$WORK/build.log" >&2; fail "the wheel did not build"; }
fi
WHEEL=$(ls "$WORK"/dist/croupier-*.whl)
compiled=$("$PY" -c 'import sys, zipfile
print(sum("/_compiled/" in n for n in zipfile.ZipFile(sys.argv[1]).namelist()))' "$WHEEL")
[ "$compiled" = 0 ] || fail "the wheel holds $compiled compiled build file(s)"

# 2. A fresh venv, the wheel without extras (its base requirements from the wheelhouse, else
#    the index).
step "$PY" -m venv "$WORK/venv"
V=$WORK/venv/bin
install() {
    step "$V/python" -m pip install --quiet --no-index --find-links "$WH" "$WHEEL" \
        2>"$WORK/install.log"
}
if ! install; then
    step "$V/python" -m pip download --quiet --dest "$WH" "$WHEEL"
    rm -f "$WH"/croupier-*.whl
    install || { cat "$WORK/install.log" >&2; fail "the wheel did not install"; }
fi

cd "$WORK"  # away from the checkout: the venv's croupier, not src/
"$V/python" - "$WORK/venv" <<'EOF' || fail "the bare venv is not bare"
import sys
import croupier
from croupier.core.extras import EXTRAS, missing

assert croupier.__file__.startswith(sys.argv[1]), croupier.__file__
for name, extra in EXTRAS.items():
    found = sorted(set(extra.modules) - set(missing(name)))  # type: ignore[arg-type]
    assert not found, f"the {name} extra's {found} installed"
EOF

# 3. A scenario replay: the checkout's settlement, byte for byte.
step "$V/croupier" replay "$SCENARIO" >"$WORK/replay.json" || fail "replay exited $?"
(cd "$ROOT" && PYTHONPATH="$ROOT/src" step "$PY" -m croupier replay "$SCENARIO") \
    >"$WORK/replay-checkout.json"
cmp -s "$WORK/replay.json" "$WORK/replay-checkout.json" \
    || fail "replay differs from the checkout's: $(diff "$WORK/replay.json" "$WORK/replay-checkout.json" | head -5)"

# 4. rules check: a valid submission passes (not priced), a bad one is refused.
step "$V/croupier" rules check "$RULES" >"$WORK/check.txt" || fail "rules check exited $?"
grep -q "a valid Four Card Poker Rules Submission" "$WORK/check.txt" || fail "rules check: $(cat "$WORK/check.txt")"
grep -q "not priced, no house-edge warnings: needs the analysis extra" "$WORK/check.txt" \
    || fail "rules check does not say it did not price: $(cat "$WORK/check.txt")"
status=0
step "$V/croupier" rules check "$BAD_RULES" >/dev/null 2>&1 || status=$?
[ "$status" = 2 ] || fail "rules check of a bad submission exited $status, not 2"

# 5. A command whose extra is missing: one line on stderr, nothing on stdout, exit 2.
status=0
step "$V/croupier" par four-card-poker >"$WORK/par.out" 2>"$WORK/par.err" || status=$?
[ "$status" = 2 ] || fail "par exited $status, not 2"
[ ! -s "$WORK/par.out" ] || fail "par wrote to stdout: $(head -c 200 "$WORK/par.out")"
expected="croupier: par: needs the analysis extra: pip install 'croupier[analysis]'"
[ "$(cat "$WORK/par.err")" = "$expected" ] || fail "par said: $(head -c 400 "$WORK/par.err")"

echo "bare install: ok ($(basename "$WHEEL"): replay, rules check, par refused with exit 2)"
