# tests/vm/kernel.sh: sourced by tests/vm/run, tests/vm/matrix and
# tests/dkms/chroot.sh.  One kernel of the matrix (tests/vm/kernels): which
# version it is, its image and headers from Debian's mirror, and a chroot of
# its Debian release that builds the module with that release's gcc.
#
# Everything lives under build/ and is made once:
#   build/apt/<release>/   an apt configuration of its own (sources.list,
#                          lists, cache, an empty dpkg status): the host's
#                          sources and state are never read or written
#   build/vm/kver.<series> the version picked for a series (so a later run
#                          resolves nothing over the network)
#   build/vm/<kver>/       root/ (the extracted image), deb/ (the headers
#                          packages), chroot/ (debootstrap --variant=minbase
#                          + build-essential, kmod, dkms, the headers),
#                          kmod/ptop_taskstats.ko (built in that chroot)
# The caller holds the lock (flock build/vm/.lock) and sets $repo, $build.
# Functions return non-zero with a message on stderr ("$km_me: ...").

km_me=${me:-kernel}
km_list=$repo/tests/vm/kernels

km_say() { echo "$km_me: $*" >&2; }

# km_series_all: every series of the matrix, in file order
km_series_all() {
	awk '!/^#/ && NF >= 4 { print $1 }' "$km_list"
}

# km_lookup NAME: NAME is a series, a release name, "default", "newest" or a
# full kernel version; sets km_series km_release km_role km_suites (and
# km_kver when NAME is a full version).  Returns 1 for an unknown name.
km_lookup() {
	local name=$1 line mm
	km_kver=
	case $name in
	default)	line=$(awk '!/^#/ && $3 == "default"' "$km_list");;
	newest|latest)	line=$(awk '!/^#/ && NF >= 4' "$km_list" | tail -n1);;
	[0-9]*.[0-9]*.[0-9]*-*)	# a full version: its major.minor names the series
		km_kver=$name
		mm=$(printf '%s' "$name" | sed -n 's/^\([0-9]*\.[0-9]*\)\..*/\1/p')
		line=$(awk -v s="$mm" '!/^#/ && $1 == s' "$km_list")
		# newer than every named series: the rolling release
		[ -n "$line" ] || line=$(awk '!/^#/ && NF >= 4' "$km_list" | tail -n1);;
	*)	line=$(awk -v s="$name" '!/^#/ && NF >= 4 && ($1 == s || $2 == s)' "$km_list")
		# "7", "7.2": the rolling release's kernel
		if [ -z "$line" ] && [[ $name =~ ^[0-9]+(\.[0-9]+)?$ ]]; then
			local last
			last=$(awk '!/^#/ && NF >= 4' "$km_list" | tail -n1)
			[ "$(echo "$last" | awk '{print $1}')" = sid ] && line=$last
		fi;;
	esac
	[ -n "$line" ] || return 1
	read -r km_series km_release km_role km_suites <<<"$line"
	return 0
}

# The host's Debian mirror (the one apt on this machine uses), and its
# security mirror; PTOP_DEBIAN_MIRROR / PTOP_DEBIAN_SECURITY override.
# km_apt_url PATH: the first http(s) URL ending in /PATH of apt's sources
km_apt_url() {
	local u
	u=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
		/etc/apt/sources.list.d/*.sources 2>/dev/null |
		grep -oE "https?://[^ ]*/$1/?( |\$)" | head -n1 | tr -d ' ')
	echo "${u%/}"
}
km_mirror() {
	[ -n "${PTOP_DEBIAN_MIRROR:-}" ] && { echo "$PTOP_DEBIAN_MIRROR"; return; }
	km_apt_url debian | grep . || echo http://deb.debian.org/debian
}
km_security() {
	[ -n "${PTOP_DEBIAN_SECURITY:-}" ] && { echo "$PTOP_DEBIAN_SECURITY"; return; }
	local u
	u=$(km_apt_url debian-security)
	[ -n "$u" ] || u=$(km_mirror)-security
	echo "$u"
}

km_keyring=/usr/share/keyrings/debian-archive-keyring.gpg

# km_apt RELEASE CMD ARGS...: apt-get/apt-cache with build/apt/RELEASE only
km_apt() {
	local rel=$1 cmd=$2 d=$build/apt/$1
	shift 2
	"$cmd" -q -o Dir::Etc::SourceList="$d/sources.list" \
		-o Dir::Etc::SourceParts="$d/sources.list.d" \
		-o Dir::Etc::Preferences="$d/preferences" \
		-o Dir::Etc::PreferencesParts="$d/preferences.d" \
		-o Dir::State="$d/state" -o Dir::State::status="$d/status" \
		-o Dir::Cache="$d/cache" -o Debug::NoLocking=1 \
		-o APT::Architecture=amd64 -o APT::Architectures::=amd64 \
		-o APT::Get::AllowUnauthenticated=false \
		-o Acquire::Check-Valid-Until=false \
		-o APT::Sandbox::User=root "$@"
}

# km_apt_setup RELEASE SUITES: the configuration, and `apt-get update` once
# (again only when the lists are missing)
km_apt_setup() {
	local rel=$1 suites=$2 d=$build/apt/$1 s url
	mkdir -p "$d/sources.list.d" "$d/preferences.d" "$d/state/lists/partial" \
		"$d/cache/archives/partial" || return 1
	: >"$d/preferences"
	[ -f "$d/status" ] || : >"$d/status"
	[ -r "$km_keyring" ] || { km_say "$km_keyring missing (apt-get install debian-archive-keyring)"; return 1; }
	{
		echo "# written by tests/vm/kernel.sh: the $rel kernels (the host's apt is not used)"
		for s in $suites; do
			case $s in *-security) url=$(km_security);; *) url=$(km_mirror);; esac
			echo "deb [signed-by=$km_keyring] $url $s main"
		done
	} >"$d/sources.list.new" || return 1
	if cmp -s "$d/sources.list.new" "$d/sources.list" &&
	   ls "$d"/state/lists/*Packages* >/dev/null 2>&1; then
		rm -f "$d/sources.list.new"; return 0
	fi
	mv "$d/sources.list.new" "$d/sources.list"
	# a snapshot mirror's Release files are past their Valid-Until date;
	# they are still signed, and the signature is checked
	km_say "apt-get update for $rel ($suites) in build/apt/$rel (Acquire::Check-Valid-Until=false: the mirror may be a snapshot)"
	km_apt "$rel" apt-get update >&2 || { km_say "apt-get update for $rel failed"; return 1; }
}

# km_resolve SERIES: sets km_kver (the version linux-headers-amd64 of the
# release depends on); remembered in build/vm/kver.SERIES
km_resolve() {
	km_lookup "$1" || { km_say "unknown kernel '$1' (see tests/vm/kernels)"; return 1; }
	[ -n "$km_kver" ] && return 0
	local f=$build/vm/kver.$km_series dep
	if [ -s "$f" ]; then read -r km_kver <"$f"; return 0; fi
	if [ "$km_role" = default ]; then
		dep=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 2>/dev/null)
		[ -n "$dep" ] || dep=$(apt-cache depends linux-headers-amd64 2>/dev/null)
	else
		km_apt_setup "$km_release" "$km_suites" || return 1
		dep=$(km_apt "$km_release" apt-cache depends linux-headers-amd64 2>/dev/null)
	fi
	km_kver=$(printf '%s\n' "$dep" | grep -o 'linux-headers-[0-9][^ ,()]*' | head -n1)
	km_kver=${km_kver#linux-headers-}
	[ -n "$km_kver" ] || { km_say "cannot resolve the $km_release kernel (linux-headers-amd64)"; return 1; }
	mkdir -p "$build/vm" && echo "$km_kver" >"$f"
}

# km_download RELEASE DIR PKG...: apt-get download into DIR (own config)
km_download() {
	local rel=$1 dir=$2
	shift 2
	mkdir -p "$dir" && (cd "$dir" && km_apt "$rel" apt-get download "$@") >&2
}

# km_headers_pkgs RELEASE KVER: linux-headers-KVER and the linux-* packages
# it needs (its -common part, linux-kbuild, linux-compiler-gcc): they come
# from the same source upload, possibly a -security one the chroot's own
# sources do not have.  gcc itself comes from the chroot's release.
km_headers_pkgs() {
	local rel=$1 kver=$2 todo="linux-headers-$2" seen=" " p d
	while [ -n "$todo" ]; do
		set -- $todo; p=$1; shift; todo="$*"
		case $seen in *" $p "*) continue;; esac
		seen="$seen$p "
		echo "$p"
		for d in $(km_apt "$rel" apt-cache depends --no-recommends --no-suggests \
				--no-conflicts --no-breaks --no-replaces --no-enhances "$p" 2>/dev/null |
				sed -n 's/^ *|\{0,1\}Depends: \(linux-[^ <>]*\)$/\1/p'); do
			# "image | image-unsigned" (trixie's headers): the unsigned one,
			# the same package the VM boots
			case $d in linux-image-*-unsigned) ;; linux-image-*) continue;; esac
			todo="$todo $d"
		done
	done
}

# km_fetch_image SERIES KVER CACHE: the unsigned image, extracted to
# CACHE/root (the caller runs depmod etc.)
km_fetch_image() {
	local kver=$2 cache=$3 p
	km_lookup "$1" || return 1
	if [ "$km_role" = default ]; then
		for p in "linux-image-$kver-unsigned" "linux-image-$kver"; do
			(cd "$cache/deb" && apt-get download "$p") >&2 && return 0
			apt-get update >&2 && (cd "$cache/deb" && apt-get download "$p") >&2 && return 0
		done
		return 1
	fi
	km_apt_setup "$km_release" "$km_suites" || return 1
	km_download "$km_release" "$cache/deb" "linux-image-$kver-unsigned" 2>/dev/null && return 0
	# 7.x: linux-image-KVER is only a package of dependencies; the kernel
	# is in linux-binary-KVER, its modules in linux-modules-KVER
	if km_apt "$km_release" apt-cache show "linux-binary-$kver" >/dev/null 2>&1; then
		p="linux-binary-$kver linux-modules-$kver"
		km_apt "$km_release" apt-cache show "linux-base-$kver" >/dev/null 2>&1 &&
			p="$p linux-base-$kver"
		# shellcheck disable=SC2086
		km_download "$km_release" "$cache/deb" $p
		return
	fi
	km_download "$km_release" "$cache/deb" "linux-image-$kver"
}

# km_chroot SERIES KVER: build/vm/KVER/chroot, a minbase debootstrap of the
# series' release with build-essential, kmod, dkms and the kernel's headers
# installed (the gcc the kernel was built with).  Needs root.
km_chroot() {
	local kver=$2 c=$build/vm/$2/chroot deb=$build/vm/$2/hdeb pkgs p
	km_lookup "$1" || return 1
	[ -f "$c/.ptop-chroot-ok" ] && return 0
	[ "$(id -u)" = 0 ] || { km_say "building the $km_release chroot needs root"; return 1; }
	command -v debootstrap >/dev/null || { km_say "debootstrap missing (apt-get install debootstrap)"; return 1; }
	km_apt_setup "$km_release" "$km_suites" || return 1
	pkgs=$(km_headers_pkgs "$km_release" "$kver")
	[ -n "$pkgs" ] || { km_say "no headers packages for $kver"; return 1; }
	rm -rf "$deb" && mkdir -p "$deb" || return 1
	# shellcheck disable=SC2086
	km_download "$km_release" "$deb" $pkgs || { km_say "cannot download the headers of $kver"; return 1; }
	if [ ! -f "$c/.ptop-debootstrap-ok" ]; then
		km_say "debootstrap $km_release into ${c#$repo/} (once; a few minutes)"
		rm -rf "$c"
		debootstrap --variant=minbase --keyring="$km_keyring" \
			--include=build-essential,kmod,dkms "$km_release" "$c" "$(km_mirror)" \
			>"$build/vm/$kver/debootstrap.log" 2>&1 || {
			km_say "debootstrap failed, see build/vm/$kver/debootstrap.log"
			tail -n 5 "$build/vm/$kver/debootstrap.log" >&2; return 1; }
		touch "$c/.ptop-debootstrap-ok"
	fi
	rm -rf "$c/var/cache/ptop-headers" && mkdir -p "$c/var/cache/ptop-headers" &&
		cp "$deb"/*.deb "$c/var/cache/ptop-headers/" || return 1
	km_in_chroot "$kver" sh -c 'export DEBIAN_FRONTEND=noninteractive;
		apt-get install -y --no-install-recommends /var/cache/ptop-headers/*.deb &&
		apt-get clean && rm -rf /var/cache/ptop-headers' \
		>>"$build/vm/$kver/debootstrap.log" 2>&1 ||
		{ km_say "installing the headers in the chroot failed, see build/vm/$kver/debootstrap.log"; return 1; }
	[ -d "$c/usr/src/linux-headers-$kver" ] || { km_say "chroot lacks /usr/src/linux-headers-$kver"; return 1; }
	rm -rf "$deb"
	touch "$c/.ptop-chroot-ok"
}

# km_in_chroot KVER CMD...: run CMD in build/vm/KVER/chroot with /proc, /sys
# and /dev mounted in a private mount namespace (gone when CMD ends).
# Where / is not a mount point (inside a chroot, some containers) no mount
# namespace can be made private: the mounts are then made for CMD and
# undone after it, each a slave of the host's so that undoing them cannot
# reach back into /dev or /sys.
km_in_chroot() {
	local c=$build/vm/$1/chroot
	shift
	if unshare --mount --propagation private true 2>/dev/null; then
		unshare --mount --propagation private -- sh -c '
			c=$1; shift
			mount -t proc proc "$c/proc" && mount --rbind /sys "$c/sys" &&
			mount --rbind /dev "$c/dev" || exit 125
			exec chroot "$c" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"' \
			sh "$c" "$@"
		return
	fi
	km_say "no private mount namespace here (/ is not a mount point): /proc, /sys and /dev mounted in the chroot for the command, unmounted after"
	sh -c '
		c=$1; shift
		undo() { umount -R "$c/dev" 2>/dev/null; umount -R "$c/sys" 2>/dev/null; umount "$c/proc" 2>/dev/null; }
		trap undo EXIT
		mount -t proc proc "$c/proc" &&
		mount --rbind /sys "$c/sys" && mount --make-rslave "$c/sys" &&
		mount --rbind /dev "$c/dev" && mount --make-rslave "$c/dev" || exit 125
		chroot "$c" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"' \
		sh "$c" "$@"
}

# km_chroot_kmod KVER OUT: build the module from kmod/ in the chroot; the .ko
# is copied to OUT (a file).  The chroot gets a fresh copy of the sources.
km_chroot_kmod() {
	local kver=$1 out=$2 c=$build/vm/$1/chroot
	rm -rf "$c/root/ptop" && mkdir -p "$c/root/ptop" || return 1
	cp -a "$repo/kmod" "$c/root/ptop/kmod" || return 1
	km_in_chroot "$kver" make -s -C /root/ptop/kmod KDIR="/usr/src/linux-headers-$kver" \
		BUILD_DIR=/root/ptop/build >&2 || return 1
	mkdir -p "$(dirname "$out")" &&
	cp "$c/root/ptop/build/ptop_taskstats.ko" "$out.tmp" && mv "$out.tmp" "$out"
}
