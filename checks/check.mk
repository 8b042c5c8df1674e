# The static gate, included by the top Makefile ('-include checks/check.mk').
#
#   make check            [SERIES=v2|v1|DIR]  self-tests, then every gate
#   make check-selftest   [SERIES=...]        prove the gates catch problems
#   make check-checkpatch | check-sparse | check-cocci | check-build
#
# SERIES defaults to v2 here (SERIES=none is taken as v2). SERIES=v1 only
# reports (exit 0); CHECK_REPORT_ONLY=0/1 overrides. CHECK_JOBS (default 2)
# is make -j and the number of parallel spatch runs. The link gate builds
# the whole kernel with 'make kernel SERIES=...' (the kernel the boot tests
# use); CHECK_LINK="n" also links it with CONFIG_SCHED_CACHE=n in the check
# build folder.
# Results are cached in $(BUILD)/check-cache by content hash; remove it to
# start over. Logs: $(BUILD)/check-results/SERIES/.

CHECK_SERIES := $(if $(filter none,$(SERIES)),v2,$(SERIES))
## make check: make -j and parallel spatch runs
CHECK_JOBS   ?= 2
## make check: "n" also links the kernel with CONFIG_SCHED_CACHE=n
CHECK_LINK   ?=
CHECK_RUN     = BUILD=$(BUILD) CHECK_JOBS=$(CHECK_JOBS) CHECK_LINK="$(CHECK_LINK)" \
                checks/check.sh $(CHECK_SERIES)

# Every gate needs the unpatched base repository ($(BUILD)/linux-base).
## the unpatched base repository every gate needs
check-base-tree:
	@qemu/tree.sh $(BUILD) none $(FORCE)

.PHONY: check-base-tree check check-selftest check-checkpatch check-sparse check-cocci \
        check-cocci-kernel check-cocci-ours check-build check-link

## the static gate on $(SERIES) (default v2; v1 only reports): gate
## self-tests, checkpatch --strict, new sparse warnings, Coccinelle (kernel
## rules and cocci/), per-patch W=1 builds with CONFIG_SCHED_CACHE=y and =n,
## the whole kernel
check: check-base-tree
	@$(CHECK_RUN) selftest cocci-rules checkpatch sparse cocci-kernel cocci-ours build link

## the gates' self-tests alone
check-selftest: check-base-tree
	@$(CHECK_RUN) selftest cocci-rules

## checkpatch --strict on every patch alone
check-checkpatch: check-base-tree
	@$(CHECK_RUN) checkpatch

## new sparse warnings alone
check-sparse: check-base-tree
	@$(CHECK_RUN) sparse

## Coccinelle alone (the kernel's rules and cocci/)
check-cocci: check-base-tree
	@$(CHECK_RUN) cocci-rules cocci-kernel cocci-ours

## the kernel's Coccinelle rules alone
check-cocci-kernel: check-base-tree
	@$(CHECK_RUN) cocci-kernel

## the rules in cocci/ alone
check-cocci-ours: check-base-tree
	@$(CHECK_RUN) cocci-rules cocci-ours

## the per-patch builds alone
check-build: check-base-tree
	@$(CHECK_RUN) build

## the whole kernel's link alone
check-link: check-base-tree
	@$(CHECK_RUN) link
