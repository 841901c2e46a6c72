#!/bin/sh
# debian-chroot.sh SUITE DIR [PACKAGE...] - a Debian SUITE (trixie, sid)
# in DIR with PACKAGEs installed, for the tests that run programs newer
# than Debian 12's (slurmctld 24.11 and 26.05, issue 35). Needs root and
# debootstrap; uses the archive that apt already uses.
#
# DIR is built once and kept: a second call with the same packages
# returns at once, with more packages installs only those. It is built
# in DIR.new and renamed when complete, so an interrupted build is never
# taken for a finished one.
#
# Exit status: 0 when DIR is ready, 77 when it cannot be built here (not
# root, no debootstrap, or the archive does not answer: the tests skip),
# 1 on any other failure. Progress and errors go to standard error.
set -u
suite=${1:?usage: debian-chroot.sh SUITE DIR [PACKAGE...]}
dir=${2:?usage: debian-chroot.sh SUITE DIR [PACKAGE...]}
shift 2
say() { echo "debian-chroot: $*" >&2; }

[ "$(id -u)" -eq 0 ] || {
	say "needs root (debootstrap, chroot, mount)"
	exit 77
}
PATH=$PATH:/usr/sbin:/sbin
command -v debootstrap >/dev/null 2>&1 || {
	say "debootstrap not found (apt-get install debootstrap)"
	exit 77
}

# the mirror apt already uses, else Debian's own
mirror=$(awk '/^URIs:/ { print $2; exit }' \
	/etc/apt/sources.list.d/debian.sources 2>/dev/null)
[ -n "$mirror" ] || mirror=$(awk '$1 == "deb" { print $2; exit }' \
	/etc/apt/sources.list 2>/dev/null)
[ -n "$mirror" ] || mirror=http://deb.debian.org/debian

# in_root CMD...: CMD inside R with /proc and /dev, unmounted after
in_root() {
	mount -t proc proc "$R/proc" || return 1
	mount --bind /dev "$R/dev" || {
		umount "$R/proc"
		return 1
	}
	chroot "$R" env DEBIAN_FRONTEND=noninteractive "$@"
	rc=$?
	umount "$R/dev"
	umount "$R/proc"
	return $rc
}

# missing PACKAGE...: those not yet installed in R
missing() {
	for p in "$@"; do
		grep -qx "$p" "$R/.ibtopo-packages" 2>/dev/null || echo "$p"
	done
}

if [ -f "$dir/.ibtopo-ready" ]; then
	R=$dir
	want=$(missing "$@")
	[ -z "$want" ] && exit 0
	say "$suite: installing $(echo "$want" | tr '\n' ' ')"
	# shellcheck disable=SC2086 # package names are words
	in_root apt-get install -y -qq --no-install-recommends $want \
		>"$R/.ibtopo-apt.log" 2>&1 || {
		say "$suite: apt-get install failed: $(tail -3 "$R/.ibtopo-apt.log")"
		exit 1
	}
	echo "$want" >>"$R/.ibtopo-packages"
	exit 0
fi

R=$dir.new
rm -rf "$R"
mkdir -p "$(dirname "$dir")" || exit 1
say "$suite: debootstrap from $mirror into $dir (about 2 minutes, once)"
if ! debootstrap --variant=minbase "$suite" "$R" "$mirror" \
	>"$R.log" 2>&1; then
	say "$suite: debootstrap failed: $(tail -2 "$R.log")"
	if grep -q -i -E 'Failed getting release file|unable to fetch|could not resolve|Temporary failure|Connection refused|timed out' "$R.log"; then
		rm -rf "$R"
		say "the archive $mirror cannot be reached"
		exit 77
	fi
	exit 1
fi
# no daemon started by a package script; sid's Release may be "expired"
printf '#!/bin/sh\nexit 101\n' >"$R/usr/sbin/policy-rc.d"
chmod 755 "$R/usr/sbin/policy-rc.d"
echo 'Acquire::Check-Valid-Until "false";' \
	>"$R/etc/apt/apt.conf.d/99no-valid-until"
# slurmctld resolves SlurmctldHost=localhost
grep -q localhost "$R/etc/hosts" 2>/dev/null ||
	printf '127.0.0.1 localhost\n::1 localhost\n' >>"$R/etc/hosts"
in_root apt-get update -qq >"$R/.ibtopo-apt.log" 2>&1 || {
	say "$suite: apt-get update failed: $(tail -3 "$R/.ibtopo-apt.log")"
	exit 1
}
if [ $# -gt 0 ]; then
	say "$suite: installing $*"
	in_root apt-get install -y -qq --no-install-recommends "$@" \
		>>"$R/.ibtopo-apt.log" 2>&1 || {
		say "$suite: apt-get install failed: $(tail -3 "$R/.ibtopo-apt.log")"
		exit 1
	}
fi
for p in "$@"; do echo "$p"; done >"$R/.ibtopo-packages"
chroot "$R" dpkg-query -W -f '${Package} ${Version}\n' "$@" \
	>"$R/.ibtopo-ready" 2>/dev/null || : >"$R/.ibtopo-ready"
rm -f "$R.log"
rm -rf "$dir"
mv "$R" "$dir" || exit 1
say "$suite: ready in $dir"
exit 0
