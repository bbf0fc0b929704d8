# SPDX-License-Identifier: GPL-2.0
# What the integration scripts share; each sources it first thing:
#   . "$(dirname "$0")/lib.sh"
# and gets
#   B             the build directory (make's B; default build)
#   PTOP, T, WL   ptop, tstime and the workload helper in it (each may be
#                 set by the caller)
#   top           the repository's top directory
#   ok MSG        a check that passed
#   bad MSG       a check that failed: $fails counts them, $fail is 1
#   skip MSG      a check that cannot run here: $skipped is 1
#   need_root SKIP|FAIL WHY   not root: "SKIP: needs root (WHY)" and exit
#                 77, or "FAIL: needs root (WHY)" and exit 1
#   need_bins FILE...         each executable, else FAIL and exit 1
#   finish NAME   "NAME: all passed" and exit 0, or "NAME: N failed", 1
# The FAIL lines start the line, as make check collects them.

# make integration runs every *.sh here: run by itself, this file passes
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	echo "lib.sh: sourced by the integration scripts, nothing to run"
	exit 0
fi

B=${B:-build}
PTOP=${PTOP:-$B/ptop}
T=${T:-$B/tstime}
WL=${WL:-$B/tests/helpers/ptop_workload}
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
fail=0
fails=0
skipped=0

ok()   { echo "ok: $*"; }
bad()  { echo "FAIL: $*"; fail=1; fails=$((fails + 1)); }
skip() { echo "SKIP: $*"; skipped=1; }

need_root() {
	[ "$(id -u)" = 0 ] && return 0
	echo "$1: needs root ($2)"
	[ "$1" = SKIP ] && exit 77
	exit 1
}

need_bins() {
	local f

	for f; do
		[ -x "$f" ] && continue
		echo "FAIL: $f not built (make all and the test helpers)"
		exit 1
	done
}

finish() {
	if [ "$fails" = 0 ] && [ "$fail" = 0 ]; then
		echo "$1: all passed"
		exit 0
	fi
	echo "$1: $fails failed"
	exit 1
}
