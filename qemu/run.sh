#!/bin/bash
# Boot a kernel under QEMU (TCG) on a topology.
#
#   qemu/run.sh KERNEL INITRAMFS TOPOLOGY LOGDIR MODE [APPEND...]
#
# MODE=test: no terminal; the kernel console goes to LOGDIR/console.log
# (ttyS0), the guest's KTAP to LOGDIR/results.log (ttyS1), and QEMU is
# killed after $TIMEOUT seconds (exit 124); LOGDIR/kernel.release is the
# release KERNEL was built as. MODE=shell: the console is this terminal.
#
# TCG settings, chosen on purpose (see qemu/README.md, "Why these QEMU settings"):
# - thread=single: multi-threaded TCG with 16 vCPUs on a 2-core host oopsed
#   at boot while static keys were being patched; one thread is also faster.
# - icount shift=1,sleep=on: guest time follows executed instructions
#   (2 ns each), so every vCPU advances evenly in guest time; placement
#   measurements depend on it. ICOUNT=0 turns it off, ICOUNT_SHIFT=N sets
#   another rate. Not shift=auto: auto retunes the rate to the host's speed,
#   so on a slowed host each guest second held up to 8x fewer instructions,
#   the same stress storms took 10x the guest time, and at shift 7 the guest
#   reported soft lockups before it reached init. ICOUNT_SLEEP=off makes
#   idle guest time jump to the next timer instead of following the host.
# - qboot: starts faster than SeaBIOS and passes QEMU's ACPI tables (SRAT).
#
# LLC_PLUGIN=PATH loads the cache model (qemu/plugins/llc.c, make
# MODEL=llc) with the topology's vCPU-to-LLC map and LLC_ARGS (its
# size=, ways=, line=); its counts go to LOGDIR/llc.tsv and the guest is
# told with cas.model=llc.
set -eu

kernel=$1 initrd=$2 topo=$3 logdir=$4 mode=$5; shift 5
top=$(cd "$(dirname "$0")/.." && pwd)
die() { printf 'run: error: %s\n' "$*" >&2; exit 1; }

qemu=qemu-system-x86_64
command -v $qemu >/dev/null || die "$qemu not found: install package qemu-system-x86 (run 'make deps')"
[ -f "$kernel" ] || die "$kernel not found (run 'make kernel')"
[ -f "$initrd" ] || die "$initrd not found"

mapfile -t topo_args < <("$top/qemu/topology.sh" "$topo" "${MEM_PER_NODE:-512}")
[ ${#topo_args[@]} -gt 0 ] || exit 1

bios=()
[ -f /usr/share/qemu/qboot.rom ] && bios=(-bios /usr/share/qemu/qboot.rom)
# Every level goes to the console log (sched_verbose domains included).
append="console=ttyS0 ignore_loglevel panic=-1 oops=panic sched_verbose log_buf_len=1M"
append="$append clocksource=tsc tsc=reliable"
icount=()
if [ "${ICOUNT:-1}" = 1 ]; then
	icount=(-icount "shift=${ICOUNT_SHIFT:-1},sleep=${ICOUNT_SLEEP:-on}")
	# Under icount the virtual TSC ticks at exactly 1 GHz: say so rather
	# than let an early PIT calibration guess it differently per boot.
	append="$append tsc_early_khz=1000000"
fi
plugin=()
if [ -n "${LLC_PLUGIN:-}" ]; then
	[ -f "$LLC_PLUGIN" ] || die "cache model $LLC_PLUGIN not found (build it with 'make plugin')"
	map=$("$top/qemu/topology.sh" "$topo" llc-map)
	plugin=(-plugin "$LLC_PLUGIN,map=$map,out=$logdir/llc.tsv${LLC_ARGS:+,$LLC_ARGS}")
	append="$append cas.model=llc"
fi
append="$append cas.mode=$mode cas.topology=$topo $*"

mkdir -p "$logdir"
common=(-machine q35 -cpu qemu64,vendor=GenuineIntel
	-accel tcg,thread=single "${icount[@]}" "${bios[@]}" "${plugin[@]}"
	"${topo_args[@]}" -m "$(( ${MEM_PER_NODE:-512} * ${topo%%x*} ))M"
	-kernel "$kernel" -initrd "$initrd" -append "$append"
	-nographic -no-reboot -nodefaults)

if [ "$mode" = shell ]; then
	exec $qemu "${common[@]}" -serial mon:stdio -serial null
fi

rm -f "$logdir/console.log" "$logdir/results.log" "$logdir/kernel.release" "$logdir/llc.tsv"
# The release the kernel was built as (its code's identity, qemu/kernel.sh):
# the verdict checks that the guest ran this one
rel=${kernel%/arch/x86/boot/bzImage}/include/config/kernel.release
if [ ! -s "$rel" ]; then
	# said in qemu.log too: the verdict points there for a non-zero exit
	echo "run: error: $rel not found: which kernel is $kernel? (build it with 'make kernel')" |
		tee "$logdir/qemu.log" >&2
	exit 1
fi
cp "$rel" "$logdir/kernel.release"
printf '%s ' $qemu "${common[@]}" -serial "file:$logdir/console.log" \
	-serial "file:$logdir/results.log" >"$logdir/qemu.cmd"
echo >>"$logdir/qemu.cmd"
rc=0
timeout -k 5 "${TIMEOUT:-600}" $qemu "${common[@]}" \
	-serial "file:$logdir/console.log" -serial "file:$logdir/results.log" \
	</dev/null >"$logdir/qemu.log" 2>&1 || rc=$?
exit $rc
