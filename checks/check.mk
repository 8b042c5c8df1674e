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
CHECK_JOBS   ?= 2
CHECK_LINK   ?=
CHECK_RUN     = BUILD=$(BUILD) CHECK_JOBS=$(CHECK_JOBS) CHECK_LINK="$(CHECK_LINK)" \
                checks/check.sh $(CHECK_SERIES)

# Every gate needs the unpatched base repository ($(BUILD)/linux-base).
check-base-tree:
	@qemu/tree.sh $(BUILD) none $(FORCE)

.PHONY: check-base-tree check check-selftest check-checkpatch check-sparse check-cocci \
        check-cocci-kernel check-cocci-ours check-build check-link

check: check-base-tree
	@$(CHECK_RUN) selftest cocci-rules checkpatch sparse cocci-kernel cocci-ours build link

check-selftest: check-base-tree
	@$(CHECK_RUN) selftest cocci-rules

check-checkpatch: check-base-tree
	@$(CHECK_RUN) checkpatch

check-sparse: check-base-tree
	@$(CHECK_RUN) sparse

check-cocci: check-base-tree
	@$(CHECK_RUN) cocci-rules cocci-kernel cocci-ours

check-cocci-kernel: check-base-tree
	@$(CHECK_RUN) cocci-kernel

check-cocci-ours: check-base-tree
	@$(CHECK_RUN) cocci-rules cocci-ours

check-build: check-base-tree
	@$(CHECK_RUN) build

check-link: check-base-tree
	@$(CHECK_RUN) link
