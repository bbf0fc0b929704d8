#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Makefile as a packager uses it, in builds of their own (B=<tmp>):
#  - Debian's hardening flags (dpkg-buildflags, hardening=+all) from the
#    environment reach the compiler and the linker: BIND_NOW/NOW and
#    GNU_RELRO in the binaries, _FORTIFY_SOURCE's __*_chk calls;
#  - CC, AR and PKG_CONFIG from the environment are the ones that run, and
#    no pkg-config command line runs twice in one make;
#  - CPPFLAGS/CFLAGS/LDFLAGS on the command line are added to the
#    project's flags, not a replacement (make CPPFLAGS=... builds);
#  - make -j4 clean all leaves fresh binaries.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
fails=0
ok()  { echo "  ok: $*"; }
bad() { echo "  FAIL: $*"; fails=$((fails + 1)); }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# wrappers that log each call, then do the real work
for t in cc:cc ar:ar pkg-config:pkg-config; do
	name=${t%%:*}
	cat >"$tmp/my-$name" <<EOF
#!/bin/sh
printf '%s\n' "\$*" >>"$tmp/$name.log"
exec ${t#*:} "\$@"
EOF
	chmod +x "$tmp/my-$name"
done

# 1. hardening flags from the environment, tools from the environment
if command -v dpkg-buildflags >/dev/null; then
	hardening=$(DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --export=sh)
else
	bad "dpkg-buildflags missing (Debian package dpkg-dev)"
	hardening="export CFLAGS='-O2 -g' LDFLAGS='-Wl,-z,relro -Wl,-z,now' CPPFLAGS='-D_FORTIFY_SOURCE=2'"
fi
b1=$tmp/b1
if (eval "$hardening"; export CC=$tmp/my-cc AR=$tmp/my-ar PKG_CONFIG=$tmp/my-pkg-config
	make -C "$top" -j2 V=1 B="$b1" all) >"$tmp/b1.log" 2>&1; then
	ok "build with dpkg-buildflags (hardening=+all) from the environment"
else
	bad "build with dpkg-buildflags failed:"; tail -20 "$tmp/b1.log"
fi
for bin in ptop tstime; do
	f=$b1/$bin
	[ -x "$f" ] || { bad "$f not built"; continue; }
	dyn=$(readelf -d "$f")
	if grep -q 'BIND_NOW' <<<"$dyn" && grep -qE 'FLAGS_1.*NOW' <<<"$dyn"; then
		ok "$bin: BIND_NOW, FLAGS_1 NOW (LDFLAGS -z now reached the linker)"
	else
		bad "$bin: no BIND_NOW in readelf -d: $(grep FLAGS <<<"$dyn")"
	fi
	readelf -lW "$f" | grep -q GNU_RELRO && ok "$bin: GNU_RELRO" || bad "$bin: no GNU_RELRO"
	nchk=$(objdump -T "$f" | grep -c '__[a-z_]*_chk')
	[ "$nchk" -gt 0 ] && ok "$bin: $nchk fortified __*_chk imports (CPPFLAGS reached cc)" ||
		bad "$bin: no __*_chk imports: _FORTIFY_SOURCE did not reach the compiler"
done
grep -q -- '-fstack-protector-strong' "$tmp/b1.log" && grep -q -- '-D_FORTIFY_SOURCE=2' "$tmp/b1.log" &&
	ok "the compile lines carry the environment's CFLAGS and CPPFLAGS" ||
	bad "environment CFLAGS/CPPFLAGS missing from the compile lines"
[ -s "$tmp/cc.log" ] && ok "CC from the environment ran ($(wc -l <"$tmp/cc.log") times)" ||
	bad "CC from the environment never ran"
[ -s "$tmp/ar.log" ] && ok "AR from the environment ran" || bad "AR from the environment never ran"
if [ -s "$tmp/pkg-config.log" ]; then
	n=$(wc -l <"$tmp/pkg-config.log")
	dup=$(sort "$tmp/pkg-config.log" | uniq -d)
	[ -z "$dup" ] && ok "pkg-config ran $n times, no command line twice" ||
		bad "pkg-config ran $n times, repeated: $dup"
	[ "$n" -le 4 ] || bad "pkg-config ran $n times in one build (expected: once per question)"
else
	bad "PKG_CONFIG from the environment never ran"
fi

# 2. user flags on the command line: added, not replacing
b2=$tmp/b2
if make -C "$top" -j2 V=1 B="$b2" CPPFLAGS=-DPTOP_USER_CPPFLAG CFLAGS='-O1 -DPTOP_USER_CFLAG' \
	LDFLAGS=-Wl,-z,now all >"$tmp/b2.log" 2>&1; then
	ok "make CPPFLAGS=... CFLAGS=... LDFLAGS=... builds"
else
	bad "make CPPFLAGS=... failed:"; grep -m5 -E 'error|Error' "$tmp/b2.log"
fi
grep -E ' -c .*config/cfg\.c' "$tmp/b2.log" | grep -q -- '-DPTOP_USER_CPPFLAG .*-I\.' &&
	ok "compile lines: the user's CPPFLAGS, then the project's (-I.)" ||
	bad "the user's CPPFLAGS or the project's -I. missing from a compile line"
grep -E -- '-o [^ ]*/ptop ' "$tmp/b2.log" | grep -q -- '-Wl,-z,now' &&
	ok "link line carries LDFLAGS" || bad "LDFLAGS missing from the link line"
readelf -d "$b2/ptop" 2>/dev/null | grep -q BIND_NOW && ok "command-line LDFLAGS: BIND_NOW" ||
	bad "command-line LDFLAGS=-Wl,-z,now gave no BIND_NOW"

# 3. clean and build in one parallel make: clean first, then a full build
touch "$tmp/before"
sleep 1
if make -C "$top" -j4 B="$b2" clean all >"$tmp/b3.log" 2>&1; then
	ok "make -j4 clean all succeeds"
else
	bad "make -j4 clean all failed:"; tail -5 "$tmp/b3.log"
fi
for bin in ptop tstime libptop.a; do
	if [ -e "$b2/$bin" ] && [ "$b2/$bin" -nt "$tmp/before" ]; then
		ok "after clean all: $bin rebuilt"
	else
		bad "after make -j4 clean all: $bin missing or stale"
	fi
done
"$b2/ptop" --version >/dev/null 2>&1 && ok "the rebuilt ptop runs" || bad "the rebuilt ptop does not run"
# clean of a B= build leaves the default build's module directory alone
grep -q "$top/build/kmod" "$tmp/b3.log" && bad "clean of B=<tmp> touched $top/build/kmod" ||
	ok "clean of B=<tmp> stays in <tmp>"

[ $fails = 0 ] && echo "build_flags: all passed" || echo "build_flags: $fails failed"
[ $fails = 0 ]
