#!/bin/bash
# README's quick start on a fresh Debian 12, in a chroot.
#
#   qemu/fresh-check.sh BUILD quick|full|plants
#
# Builds a minimal Debian 12 root with debootstrap (--variant=minbase, from
# the Debian archive this machine's apt uses) in BUILD/fresh/root, gives it
# the three standard sources (bookworm, bookworm-updates, bookworm-security)
# and no git identity, clones the committed FRESH_REV (default HEAD) of this
# repository into it and runs there, as a new user would:
#
#   prep        README's own line that installs git and make
#   deps        make deps
#   tree-none   make tree SERIES=none
#   tree-v2     make tree SERIES=v2
#   plugin      make plugin
#   guest       make guest
# and with 'full':
#   kernel      make kernel SERIES=none
#   boot        make boot-test SERIES=none TOPOLOGY=2x2x4
#
# 'plants' is its self-test: the two install steps a fresh machine lacked
# (dpkg-dev in make deps, the git identity of make tree's notes), each
# planted back into the clone in turn, must each fail the run at its step
# with a message that names the package or the identity.
#
# FRESH_AS=user runs the clone and every step after 'prep' as a user with
# sudo rights (README allows that for make deps) instead of root.
#
# Each step's output goes to BUILD/fresh/logs/STEP.log (a plant's to
# logs-plant-NAME/); a failed step is named with its log's tail, and the
# root is kept for a look (it is removed at the next run, and after a run
# that passed). /proc, /sys and /dev are mounted for the steps in a mount
# namespace of this script's own (unshare): they are unmounted when it
# ends, however it ends, and the root is never removed while anything is
# mounted below it. The root's git has no identity and never guesses one
# from the hostname (user.useConfigOnly). The .debs are shared with this
# machine's apt cache (/var/cache/apt/archives) so that a run downloads
# each package once: apt still resolves everything from the fresh root's
# own lists and checks every file against them.
set -eu

build=${1:?usage: qemu/fresh-check.sh BUILD quick|full} mode=${2:-quick}
top=$(cd "$(dirname "$0")/.." && pwd)
me=fresh-check
die() { printf '%s: error: %s\n' "$me" "$*" >&2; exit 2; }
say() { printf '%s: %s\n' "$me" "$*"; }

case $mode in
quick|full) ;;
plants)	# each planted fault: a run of its own, which must fail as named
	rc=0
	for p in dpkg-dev git-identity; do
		prc=0
		FRESH_PLANT=$p "$0" "$build" quick || prc=$?
		# interrupted (130 and up: a signal): no further plant
		[ "$prc" -lt 130 ] || exit "$prc"
		[ "$prc" = 0 ] || rc=1
	done
	exit $rc ;;
*) die "unknown mode '$mode' (quick, full or plants)" ;;
esac
# FRESH_PLANT: FILE|SED|STEP|TEXT: the fault made in the clone, the step
# that must fail and what its log must say
plant=
case ${FRESH_PLANT:-} in
'') ;;
dpkg-dev) plant='qemu/deps.sh|/^dpkg-dev[[:space:]]/d|deps|install package dpkg-dev' ;;
git-identity) plant='qemu/am.sh|s/ "${am_git\[@\]}" notes / notes /|tree-v2|Author identity unknown' ;;
*) die "FRESH_PLANT=$FRESH_PLANT: dpkg-dev or git-identity" ;;
esac
IFS='|' read -r plant_file plant_sed plant_step plant_text <<<"$plant"
as=${FRESH_AS:-root}
case $as in root|user) ;; *) die "FRESH_AS=$as: root or user" ;; esac
if [ "$(id -u)" != 0 ]; then
	command -v sudo >/dev/null || die "needs root (debootstrap, chroot, mounts): run as root or install sudo"
	exec sudo FRESH_REV="${FRESH_REV:-}" FRESH_AS="$as" FRESH_PLANT="${FRESH_PLANT:-}" "$0" "$@"
fi
PATH=$PATH:/usr/sbin:/sbin
# Everything below runs in a mount namespace of its own, private to it:
# the mounts of the root cannot outlive this process however it ends
# (SIGKILL, a CI time limit), so nothing later (make distclean, the next
# run) can remove files through them
if [ -z "${FRESH_NS:-}" ]; then
	command -v unshare >/dev/null || die "unshare not found: install package util-linux"
	exec unshare --mount --propagation private env FRESH_NS=1 "$0" "$@"
fi
command -v debootstrap >/dev/null || die "debootstrap not found: install package debootstrap (run 'make deps')"

# root reading a checkout of another user's (git's safe.directory)
gtop() { git -c safe.directory="$top" -C "$top" "$@"; }
gtop rev-parse -q --verify HEAD >/dev/null ||
	die "$top: git cannot read this checkout: $(gtop rev-parse HEAD 2>&1 | head -1)"
rev=$(gtop rev-parse -q --verify "${FRESH_REV:-HEAD}^{commit}") ||
	die "FRESH_REV=${FRESH_REV:-HEAD} is not a commit of $top"
[ -z "$(gtop status --porcelain --untracked-files=no)" ] ||
	say "note: $top has uncommitted changes; this checks the committed $(gtop rev-parse --short "$rev") only"

mkdir -p "$build"
# the physical path: /proc/self/mountinfo names mounts by it
dir=$(cd "$build" && pwd -P)/fresh
root=$dir/root logs=$dir/logs${FRESH_PLANT:+-plant-$FRESH_PLANT}
mkdir -p "$dir"
exec 9>"$dir/.lock"
flock -n 9 || die "another fresh-check is running in $dir"

# mounts_under DIR: the mount points at or below DIR, deepest first
# (mountinfo writes a space, tab, newline or backslash in a path as \ooo)
mounts_under() {
	awk -v d="$1" '{
		m = $5
		gsub(/\\040/, " ", m); gsub(/\\011/, "\t", m); gsub(/\\012/, "\n", m); gsub(/\\134/, "\\", m)
		if (m == d || index(m, d "/") == 1) print m
	}' /proc/self/mountinfo | sort -r
}
unmount_all() {
	local m
	while IFS= read -r m; do
		[ -n "$m" ] || continue
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null ||
			printf '%s: warning: could not unmount %s\n' "$me" "$m" >&2
	done < <(mounts_under "$root")
}
# remove_root: never while anything is mounted below it (/dev is a bind
# of the machine's own, and so is the apt cache: rm -r through them would
# empty the real ones); the places this script mounts are asked one by one
# as well as the mount table
remove_root() {
	local m
	[ -e "$root" ] || return 0
	unmount_all
	[ -z "$(mounts_under "$root")" ] || die "$root still has mounts; not removing it:
$(mounts_under "$root")"
	for m in proc sys dev var/cache/apt/archives; do
		! mountpoint -q "$root/$m" 2>/dev/null || die "$root/$m is still mounted; not removing $root"
	done
	rm -rf --one-file-system "$root"
}
trap unmount_all EXIT
trap 'exit 130' INT TERM HUP

remove_root
rm -rf "$logs"
mkdir -p "$logs" "$root"
start=$(date +%s)

# The archive this machine's apt uses for bookworm and bookworm-security
mirror_of() {
	apt-cache policy 2>/dev/null | awk -v s="$1/main" '$3 == s && $2 ~ /^https?:/ { print $2; exit }'
}
mirror=$(mirror_of bookworm)
security=$(mirror_of bookworm-security)
[ -n "$mirror" ] || die "this machine's apt has no Debian 12 (bookworm) archive to build the root from (apt-cache policy)"
[ -n "$security" ] || security=${mirror%/debian}/debian-security

# step NAME CMD...: run CMD, its output in logs/NAME.log; a failure ends
# the run naming the step
nsteps=0
step() {
	local name=$1 t0 rc=0
	shift
	t0=$(date +%s)
	"$@" >"$logs/$name.log" 2>&1 </dev/null || rc=$?
	if [ $rc != 0 ] && [ -n "$plant" ]; then
		if [ "$name" = "$plant_step" ] && grep -qF -- "$plant_text" "$logs/$name.log"; then
			say "planted $FRESH_PLANT: caught, step $name failed with '$plant_text' ($logs/$name.log)"
			remove_root
			exit 0
		fi
		printf '%s: planted %s: step %s failed, but %s\n' "$me" "$FRESH_PLANT" "$name" \
			"$( [ "$name" = "$plant_step" ] && echo "its log does not say '$plant_text'" ||
				echo "step $plant_step should have" )" >&2
	fi
	if [ $rc != 0 ]; then
		printf '%s: FAIL at step %s (exit %d): %s\n' "$me" "$name" "$rc" "$(step_cmd "$@")" >&2
		printf '%s: its log, %s, ends:\n' "$me" "$logs/$name.log" >&2
		tail -n 25 "$logs/$name.log" | sed 's/^/  /' >&2
		printf '%s: the root is kept in %s\n' "$me" "$root" >&2
		exit 1
	fi
	nsteps=$((nsteps + 1))
	say "$name passed ($(( $(date +%s) - t0 )) s)"
}
step_cmd() { [ "$1" = in_root ] && shift 2; printf '%s' "$*"; }

# in_root AS CMD: CMD by sh in the root, as root or the user, in a bare
# environment (no locale, no git identity, the user's own HOME)
in_root() {
	local who=$1
	shift
	if [ "$who" = root ]; then
		chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			/bin/sh -ec "$*"
	else
		chroot "$root" /usr/bin/env -i HOME=/home/dev TERM=dumb \
			PATH=/usr/local/bin:/usr/bin:/bin \
			/usr/sbin/runuser -u dev -- /bin/sh -ec "$*"
	fi
}

say "a minimal Debian 12 root from $mirror in $root (logs in $logs)"
step debootstrap debootstrap --variant=minbase --cache-dir=/var/cache/apt/archives \
	bookworm "$root" "$mirror"

# What a Debian 12 installer leaves: the standard sources, and only those
rm -f "$root/etc/apt/sources.list"
cat >"$root/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $mirror
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: $security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
# How this machine reaches that archive (a proxy, a frozen archive whose
# Release files are past their date): the machine's, not the project's
apt-config dump 2>/dev/null |
	grep -E '^Acquire::(https?::Proxy|Check-Valid-Until|Check-Date) ' \
	>"$root/etc/apt/apt.conf.d/00machine-archive" || true
cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true

mount -t proc proc "$root/proc"
mount -t sysfs sysfs "$root/sys"
mount --rbind /dev "$root/dev"
mount --make-rslave "$root/dev"
mount --bind /var/cache/apt/archives "$root/var/cache/apt/archives"

# README's own line for what a fresh machine needs before the quick start
prep=$(sed -n '/^## Quick start/,/^## /s/^    \(apt-get update && apt-get install .*\)$/\1/p' "$top/README.md" | head -1)
[ -n "$prep" ] || die "README.md's quick start has no 'apt-get update && apt-get install ...' line to run"
[ "$as" = root ] || prep="$prep && apt-get install -y sudo"
step prep in_root root "export DEBIAN_FRONTEND=noninteractive; $prep"

# No git identity, whatever this machine's hostname: git would make one up
# from a hostname with a domain (root@host.example), and a command that
# needs an identity would pass here and fail on a machine without one
step no-identity in_root root "git config --system user.useConfigOnly true"
home=/root
if [ "$as" = user ]; then
	home=/home/dev
	step user in_root root "useradd -m -s /bin/bash dev &&
		echo 'dev ALL=(ALL) NOPASSWD: ALL' >/etc/sudoers.d/dev && chmod 440 /etc/sudoers.d/dev"
fi
# The clone: the committed revision only, nothing of this checkout's
# working tree or build folder
git -c safe.directory="$top" clone -q --no-checkout "$top" "$root$home/cas"
git -C "$root$home/cas" checkout -q --detach "$rev"
say "cloned $(gtop rev-parse --short "$rev") into $home/cas"
if [ -n "$plant" ]; then
	cp "$root$home/cas/$plant_file" "$dir/plant.orig"
	sed -i -e "$plant_sed" "$root$home/cas/$plant_file"
	! cmp -s "$dir/plant.orig" "$root$home/cas/$plant_file" ||
		die "FRESH_PLANT=$FRESH_PLANT changed nothing in $plant_file: the plant is stale"
	say "planted $FRESH_PLANT in $plant_file: step $plant_step must fail with '$plant_text'"
fi
[ "$as" = root ] || chroot "$root" chown -R dev:dev "$home/cas"

steps="deps:make deps
tree-none:make tree SERIES=none
tree-v2:make tree SERIES=v2
plugin:make plugin
guest:make guest"
[ "$mode" = quick ] || steps="$steps
kernel:make kernel SERIES=none
boot:make boot-test SERIES=none TOPOLOGY=2x2x4"
while IFS=: read -r name cmd; do
	step "$name" in_root "$as" "cd $home/cas && $cmd"
done <<<"$steps"

[ -z "$plant" ] || die "planted $FRESH_PLANT: not caught, every step passed"
secs=$(( $(date +%s) - start ))
say "README's quick start ($mode, as $as) passed on a fresh Debian 12 in $secs s ($nsteps steps, $(gtop rev-parse --short "$rev"))"
remove_root
