# SPDX-License-Identifier: GPL-2.0
# Shared by the tmux-driven tests of the interactive view (sourced, not
# run): a private tmux server, ptop started in a session of a given size,
# and waiting for the screen to show something (polling with a timeout,
# never a fixed sleep: the machine may be loaded). Every timeout below is
# multiplied by T_SCALE (default 6): a screen that shows at once costs
# nothing more, and one that takes a loaded machine's seconds (a first
# walk at load 25 took over 6 s) is not a failure; only what never shows
# waits the whole time.
#
# The caller sets PTOP (checked and made absolute here) and defines nothing
# else; it gets:
#   start NAME COLS ROWS [env VAR=.. --] ARGS..  ptop in a new session
#   pane [-e]          the screen of the current session ($S)
#   keys KEYS..        tmux send-keys to $S
#   wait_for REGEX [s] until the screen shows REGEX
#   expect REGEX WHAT [s]  ok/FAIL on that
#   wait_gone REGEX [s]  until the screen no longer shows REGEX
#   wait_exit [s]      until ptop has exited; its status in $rc_of
#   ptop_pid           the pid of the ptop under test
#   sel_rows           the lines drawn selected: "LINE<tab>text" (1-based)
#   mouse B X Y, click X Y  a mouse event / a click at cell (X, Y), 0-based
#   ok/bad, $fails, finish NAME
# tmux and the binary are there (FAIL otherwise); PTOP made absolute, as the
# sessions start in their own directory
command -v tmux >/dev/null || { echo "FAIL: tmux is missing"; exit 1; }
[ -x "$PTOP" ] || { echo "FAIL: $PTOP not built"; exit 1; }
PTOP=$(cd "$(dirname "$PTOP")" && pwd)/$(basename "$PTOP")
T_TMP=$(mktemp -d /tmp/ptop_tmux.XXXXXX)
T_SOCK=ptop_t_$$
tm() { tmux -L "$T_SOCK" -f /dev/null "$@"; }
t_cleanup() {
	tm kill-server 2>/dev/null
	rm -rf "$T_TMP"
}
trap t_cleanup EXIT
fails=0
ok()  { echo "  ok: $*"; }
bad() { echo "  FAIL: $*"; fails=$((fails + 1)); }
S=
T_SCALE=${T_SCALE:-6}
# t_ticks SECONDS: that many seconds, scaled, in 0.1 s polls
t_ticks() { echo $(( ${1:-5} * 10 * T_SCALE )); }

# start NAME COLS ROWS CMD-PREFIX... -- ptop args: the session runs
# "CMD-PREFIX ptop ARGS" (e.g. setpriv ..., or nothing), records its pid
# and exit status, then stays so the screen can still be read.
start() {
	local name=$1 w=$2 h=$3 pre=() args=()
	shift 3
	if [[ " $* " == *" -- "* ]]; then
		while [ "$1" != -- ]; do pre+=("$1"); shift; done
		shift
	fi
	args=("$@")
	mkdir -p "$T_TMP/$name"
	rm -f "$T_TMP/$name/rc" "$T_TMP/$name/pid"
	{
		echo "cd $(printf %q "$PWD")"
		printf 'export ASAN_OPTIONS=detect_leaks=0 XDG_CONFIG_HOME=%q\n' \
			"${XDG_CONFIG_HOME:-$T_TMP/$name/cfg}"
		printf 'bash -c '\''echo $$ > %q; exec "$@"'\'' ptop' "$T_TMP/$name/pid"
		printf ' %q' "${pre[@]}" "$PTOP" "${args[@]}"
		printf ' 2> %q %s\n' "$T_TMP/$name/stderr" "${T_STDIN:-}"
		printf 'echo $? > %q\nexec sleep 600\n' "$T_TMP/$name/rc"
	} > "$T_TMP/$name/run.sh"
	tm new-session -d -s "$name" -x "$w" -y "$h" "bash $T_TMP/$name/run.sh"
	S=$name
	local i
	for ((i = 0; i < $(t_ticks 5); i++)); do
		[ -s "$T_TMP/$name/pid" ] && return 0
		sleep 0.1
	done
}
ptop_pid() { cat "$T_TMP/$S/pid"; }
pane() { tm capture-pane -p "$@" -t "$S"; }
keys() { tm send-keys -t "$S" "$@"; }
wait_for() {
	local i n=$(t_ticks "${2:-5}")
	for ((i = 0; i < n; i++)); do
		pane | grep -Eq -- "$1" && return 0
		sleep 0.1
	done
	return 1
}
# wait_gone REGEX [s]: until the screen no longer shows REGEX
wait_gone() {
	local i n=$(t_ticks "${2:-5}")
	for ((i = 0; i < n; i++)); do
		pane | grep -Eq -- "$1" || return 0
		sleep 0.1
	done
	return 1
}
expect() {
	if wait_for "$1" "${3:-5}"; then ok "$2"; else
		bad "$2 (no /$1/ on the screen)"; pane | sed 's/^/    | /'
	fi
}
rc_of=
wait_exit() {
	local i n=$(t_ticks "${1:-5}")
	for ((i = 0; i < n; i++)); do
		if [ -s "$T_TMP/$S/rc" ]; then
			rc_of=$(cat "$T_TMP/$S/rc")
			return 0
		fi
		sleep 0.1
	done
	rc_of=
	return 1
}
# sel_rows: the screen's lines that start in the selection's colours
# (black on cyan: SGR 46 as the background), from the attributes that
# capture-pane -e gives; SGR state carries over from line to line.
sel_rows() {
	pane -e | awk -v E=$'\033' '{
		line = $0; out = ""; first = -1
		while ((i = index(line, E "[")) > 0) {
			if (i > 1 && first < 0)
				first = bg
			out = out substr(line, 1, i - 1)
			rest = substr(line, i + 2)
			match(rest, /^[0-9;]*[A-Za-z]/)
			p = substr(rest, 1, RLENGTH - 1)
			fin = substr(rest, RLENGTH, 1)
			line = substr(rest, RLENGTH + 1)
			if (fin != "m")
				continue
			n = split(p, a, ";")
			if (!n)
				bg = 0
			for (k = 1; k <= n; k++) {
				if (a[k] == "" || a[k] == 0 || a[k] == 49 ||
				    (a[k] >= 40 && a[k] <= 47 && a[k] != 46))
					bg = 0
				else if (a[k] == 46)
					bg = 1
			}
		}
		if (first < 0 && line != "")
			first = bg
		out = out line
		if (first == 1)
			print NR "\t" out
	}'
}
# an X10 mouse event: button (0 press 1, 3 release, 64 wheel up, 65 down)
mouse() { tm send-keys -t "$S" -l "$(printf '\e[M%b%b%b' \
	"\\$(printf %o $((32 + $1)))" "\\$(printf %o $((33 + $2)))" \
	"\\$(printf %o $((33 + $3)))")"; }
click() { mouse 0 "$1" "$2"; mouse 3 "$1" "$2"; }
# the process's own CPU time (utime + stime) in clock ticks
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
finish() {
	if grep -Eqs 'AddressSanitizer|runtime error|Segmentation' "$T_TMP"/*/stderr; then
		bad "sanitizer or crash output:"; cat "$T_TMP"/*/stderr | sed 's/^/    | /'
	fi
	[ $fails = 0 ] && echo "$1: all passed" || echo "$1: $fails failed"
	[ $fails = 0 ]
}
