#!/bin/bash
# Turn TOPOLOGY=NxLxC[xT] (NUMA nodes x LLCs per node x cores per LLC x
# threads per core) into QEMU options, or fail saying why it cannot be
# represented.
#
#   qemu/topology.sh NxLxC[xT] MEM_MB_PER_NODE
#   qemu/topology.sh NxLxC[xT] llc-map
#
# Prints the QEMU arguments, one per line; with llc-map, the LLC of each
# vCPU by vCPU index, colon-separated (the cache model's map=). With an Intel-vendor CPU model
# QEMU 7.2 reports an L3 per die (CPUID leaf 0x1f), so nodes map to sockets
# and LLCs to dies; each socket is its own NUMA node.
set -eu

topo=$1 mem=$2
die() { printf 'topology: error: TOPOLOGY=%s: %s\n' "$topo" "$*" >&2; exit 1; }

case $topo in
*[!0-9x]*|x*|*x|*xx*) die "expected NxLxC or NxLxCxT with positive integers, e.g. 2x2x4" ;;
esac
IFS=x read -r n l c t extra <<<"$topo"
[ -z "${extra:-}" ] || die "too many fields (nodes x LLCs per node x cores per LLC [x threads per core])"
[ -n "$c" ] || die "expected at least three fields, e.g. 2x2x4"
t=${t:-1}
for v in "$n" "$l" "$c" "$t"; do
	[ "$v" -ge 1 ] 2>/dev/null || die "every field must be at least 1"
done
[ "$n" -le 8 ] || die "at most 8 NUMA nodes"
[ "$t" -le 2 ] || die "at most 2 threads per core (x86 SMT)"
cpus=$((n * l * c * t))
[ "$cpus" -ge 2 ] || die "needs at least 2 CPUs"
# CONFIG_NR_CPUS in qemu/configs/base.config; more vCPUs than that would
# simply not come up, and more than 32 is too slow under TCG on 2 cores.
[ "$cpus" -le 32 ] || die "$cpus CPUs: at most 32 under TCG"

if [ "$mem" = llc-map ]; then
	# QEMU numbers vCPUs socket by socket, die by die, core by core
	i=0 map=
	while [ $i -lt "$cpus" ]; do
		map="$map${map:+:}$((i / (c * t)))"
		i=$((i + 1))
	done
	echo "$map"
	exit 0
fi
echo "-smp"
echo "$cpus,sockets=$n,dies=$l,cores=$c,threads=$t"
i=0
while [ $i -lt "$n" ]; do
	echo "-object"; echo "memory-backend-ram,id=m$i,size=${mem}M"
	echo "-numa";   echo "node,nodeid=$i,memdev=m$i"
	echo "-numa";   echo "cpu,node-id=$i,socket-id=$i"
	i=$((i + 1))
done
