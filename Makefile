# Cache-aware scheduling v2: build, boot-test, check and benchmark the series.
# 'make help' lists the targets and variables.

SHELL      := /bin/bash
## build folder (ignored by git)
BUILD      ?= build
## none (unpatched), v1, v2, or v2-nodebug (v2 without its DEBUG patch)
SERIES     ?= none
## base (qemu/configs/base.config on tinyconfig), debug (adds
## qemu/configs/debug.config: KASAN, kmemleak, DEBUG_LIST, lockdep, CPU
## hotplug; own output folder; full stress counts), or nofeature
## (CONFIG_SCHED_CACHE off)
CONFIG     ?= base
## NxLxC[xT]: nodes x LLCs/node x cores/LLC [x threads/core]; several,
## space separated, boot one after another
TOPOLOGY   ?= 2x2x4
## a folder copied to /extra in the guest; /extra/run runs after the tests
EXTRA      ?=
# The debug kernel (KASAN, kmemleak, lockdep) runs the full stress counts:
# its boots and its stress binary get longer limits.
DEBUG      := $(filter debug,$(CONFIG))
# the debug kernel's limits (make debug-check gives them to its boot)
DEBUG_TIMEOUT       := 9000
DEBUG_GUEST_TIMEOUT := 7200
## seconds one boot may take before it is killed and failed
TIMEOUT    ?= $(if $(DEBUG),$(DEBUG_TIMEOUT),1200)
## seconds one guest test program may take
GUEST_TIMEOUT ?= $(if $(DEBUG),$(DEBUG_GUEST_TIMEOUT),600)
## stress.c counts: full (default with CONFIG=debug) or short
STRESS     ?= $(if $(DEBUG),full,short)
# The debug kernel runs the reliability suite, not the placement tests:
# their thresholds are calibrated on the base kernel's costs, which KASAN,
# kmemleak and lockdep multiply (balance.two_processes and .switching
# failed there). TESTS='*' runs everything anyway.
## shell glob of guest test names (several: comma-separated), or none
TESTS      ?= $(if $(DEBUG),stress$(comma)topology,*)
comma      := ,
## 1: let tree discard local changes in $(BUILD)/src-$(SERIES)
FORCE      ?= 0
## extra kernel command line
APPEND     ?=
## make bench: runs of each workload in each boot
RUNS       ?= 3
## make bench, lb-compare: measured seconds of each workload
SECS       ?= 10
## make sweep: boots of each kernel for the cells near an edge
BOOTS      ?= 3
## make sweep: measured seconds of each cell (after 2 s of warm-up)
SWEEP_SECS ?= 6
## 0: make bench without its boots under the cache model
BENCH_MODEL ?= 1
## make bench: measured seconds of each workload under the model
MODEL_SECS ?= 5
## make bench: boots of each kernel for the latency workload (its p99 is
## judged by boot: the first is the plain boot, the others latency only)
LAT_BOOTS  ?= 3
## make fresh-check: quick (make deps and the first builds), full (also a
## kernel build and one boot of the unpatched kernel on 2x2x4), or plants
## (its self-test: the missing dpkg-dev and git identity planted back must
## each fail it, naming them)
FRESH      ?= quick
## make fresh-check: the commit to check (default HEAD; committed work only)
FRESH_REV  ?= HEAD
## make fresh-check: root, or user (a user with sudo rights runs the steps)
FRESH_AS   ?= root
## make mutant-check: the mutants to run (names of tests/mutants/*.patch;
## empty: all)
MUTANTS    ?=

## make rfc: author of every patch ("Name <mail>")
FROM       ?=
## make rfc: the poster's Signed-off-by on every patch; make check: the
## sign-off checkpatch sees
SIGNOFF    ?=
## 0: run QEMU without -icount (on by default; qemu/run.sh says why)
ICOUNT     ?=
## -icount shift: 2^N ns of guest time per instruction (empty: 1)
ICOUNT_SHIFT ?=
## off: idle guest time jumps to the next timer (empty: on)
ICOUNT_SLEEP ?=

KUNIT_PY   := $(abspath $(BUILD))/linux-base/tools/testing/kunit/kunit.py
export TIMEOUT GUEST_TIMEOUT APPEND KUNIT_PY SECS SWEEP_SECS MODEL_SECS LAT_BOOTS ICOUNT ICOUNT_SHIFT ICOUNT_SLEEP

SRC        := $(BUILD)/src-$(SERIES)
OUT        := $(BUILD)/out-$(SERIES)$(if $(filter base,$(CONFIG)),,-$(CONFIG))
BZIMAGE    := $(OUT)/arch/x86/boot/bzImage
# v2-nodebug is v2 without its DEBUG patch: v2's configuration
FRAGMENTS  := qemu/configs/base.config \
              $(wildcard qemu/configs/series-$(firstword $(subst -, ,$(SERIES))).config) \
              $(if $(filter base,$(CONFIG)),,qemu/configs/$(CONFIG).config)
GUEST      := $(BUILD)/guest
GUEST_SRCS := $(wildcard tests/*.c)
GUEST_BINS := $(patsubst tests/%.c,$(GUEST)/%,$(GUEST_SRCS))
BENCH_BINS := $(patsubst tests/bench/%.c,$(BUILD)/bench-guest/%,$(wildcard tests/bench/*.c))
SELFTESTS  := $(BUILD)/linux-base/tools/testing/selftests
INITRAMFS  := $(BUILD)/initramfs-$(SERIES)-$(CONFIG).cpio.gz
# The cache model (qemu/plugins/llc.c): MODEL=llc loads it into every boot
## llc: boot under the cache model (qemu/plugins/llc.c; counts in
## LOGDIR/llc.tsv)
MODEL      ?=
## its geometry, e.g. size=16M,ways=16,line=64 (empty: what the guest
## reports)
MODEL_ARGS ?=
PLUGIN     := $(BUILD)/plugins/libllc.so
MODEL_ENV  := $(if $(filter llc,$(MODEL)),LLC_PLUGIN=$(abspath $(PLUGIN)) LLC_ARGS='$(MODEL_ARGS)')
LOGS       := $(BUILD)/logs/$(SERIES)-$(CONFIG)$(if $(MODEL),-$(MODEL))
ifneq ($(filter-out llc,$(MODEL)),)
$(error MODEL=$(MODEL): the only cache model is llc (qemu/plugins/llc.c))
endif

.PHONY: fresh-check debug-check plugin model-test model-hosttest help deps tree series kernel catalogue guest initramfs boot-test boot-test-each run selftest lb-compare bench sweep rfc test test-full nofeature-check mutant-check clean distclean FORCE

# The static gate: checkpatch, sparse, Coccinelle, per-patch builds
-include checks/check.mk

## this list, from the "##" comments in the Makefile and checks/check.mk
help:
	@qemu/make-help.sh $(MAKEFILE_LIST) -- $(foreach v,$(shell sed -n 's/^\([A-Z_]*\)[ \t]*[?:]*=.*/\1/p' $(MAKEFILE_LIST)),'$(v)=$(subst ','\'',$($(v)))')

## install every needed package with apt-get (pinned kernel base) and fetch
## the installed QEMU's source for the cache model
deps:
	@qemu/deps.sh
	@qemu/qemu-src.sh $(BUILD)

# README's quick start on a fresh Debian 12 (debootstrap minbase, chroot):
# CI's own machine is set up, so only a fresh root proves an install step
## README's quick start in a fresh Debian 12 chroot (debootstrap): make deps,
## trees of none and v2, plugin, guest programs; FRESH=full adds a kernel
## build and one boot; logs in $(BUILD)/fresh/logs (needs root or sudo)
fresh-check:
	@FRESH_REV='$(FRESH_REV)' FRESH_AS='$(FRESH_AS)' qemu/fresh-check.sh $(BUILD) $(FRESH)

# The cache model, against the plugin API of the installed QEMU's own
# source (make deps fetches it; qemu-src.sh refuses a version mismatch)
## build the cache model, a TCG plugin, against the installed QEMU's source
plugin:
	@qemu/qemu-src.sh $(BUILD) >/dev/null
	@$(MAKE) --no-print-directory $(PLUGIN)

$(PLUGIN): qemu/plugins/llc.c qemu/plugins/llc-mark.h $(BUILD)/qemu-src/.cas-version
	@mkdir -p $(@D)
	gcc -shared -fPIC -O2 -Wall -Wextra -Wno-unused-parameter -Werror \
		-I$(BUILD)/qemu-src/include/qemu -o $@ $<

# The model on the host: qemu/plugins/llc.c in a driver of known access
# streams, exact counts; each mutant in tests/harness/llc-mutants/ must fail
## the cache model on the host (qemu/plugins/llc-host.c): every case passes,
## every mutant of tests/harness/llc-mutants/ fails the case it names
model-hosttest: plugin
	@qemu/model-hosttest.sh $(BUILD)

# The model's self-test: tests/model.c on $(SERIES)'s kernel on 2x2x4,
# with the model and without (the slowdown's baseline), and with it on
# 1x2x4x2
## the cache model's self-test: its host cases and mutants (make
## model-hosttest), then tests/model.c in three boots (2x2x4 without and
## with the model, 1x2x4x2 with it); part of make test
model-test: kernel initramfs plugin
	@qemu/model-hosttest.sh $(BUILD)
	@APPEND='$(APPEND) cas.series=$(SERIES) cas.config=$(CONFIG)' qemu/model-test.sh $(BZIMAGE) $(INITRAMFS) $(BUILD)/logs/model $(abspath $(PLUGIN))

## extract the base into $(BUILD)/linux-base and apply series-$(SERIES)
tree:
	@qemu/tree.sh $(BUILD) $(SERIES) $(FORCE)

## write series-$(SERIES)/ back from the commits in $(BUILD)/src-$(SERIES)
## (edit there, git rebase -i --autosquash base, then this)
series:
	@qemu/series-export.sh $(BUILD) $(SERIES)

## build bzImage for $(SERIES) in $(BUILD)/out-$(SERIES)[-$(CONFIG)]
kernel: tree
	@qemu/kernel.sh $(SRC) $(OUT) $(FRAGMENTS)

$(SELFTESTS)/kselftest_harness.h:
	@qemu/tree.sh $(BUILD) none $(FORCE)

$(GUEST)/%: tests/%.c $(wildcard tests/lib/*.h) $(SELFTESTS)/kselftest_harness.h
	@mkdir -p $(GUEST)
	gcc -static -O2 -Wall -Werror -D_GNU_SOURCE -pthread -Itests -I$(SELFTESTS) -o $@ $< -lm

## write tests/README.md, the guest test catalogue, from the tests' own
## comments and #defines (tests/catalogue.sh)
catalogue:
	@tests/catalogue.sh >tests/README.md.new && mv tests/README.md.new tests/README.md

## build the static guest test programs from tests/*.c
guest: $(GUEST_BINS)

$(BUILD)/bench-guest/%: tests/bench/%.c $(wildcard tests/lib/*.h) $(SELFTESTS)/kselftest_harness.h
	@mkdir -p $(BUILD)/bench-guest
	gcc -static -O2 -Wall -Werror -D_GNU_SOURCE -pthread -Itests -I$(SELFTESTS) -o $@ $< -lm

## the guest's initramfs: the test programs and EXTRA
initramfs: guest
	@qemu/initramfs.sh $(INITRAMFS) $(GUEST) $(EXTRA)

## build what is missing, boot every $(TOPOLOGY), run the guest tests;
## fails on a failed, missing or unexpected result, a timeout or a kernel splat
boot-test: kernel initramfs $(if $(MODEL),plugin)
	@$(MODEL_ENV) APPEND='$(APPEND) cas.series=$(SERIES) cas.config=$(CONFIG) cas.stress=$(STRESS)$(if $(DEBUG), kmemleak.verbose=1)' qemu/boot-test.sh $(BZIMAGE) $(INITRAMFS) $(LOGS) '$(TESTS)' '$(TOPOLOGY)'

# Every patch of the series built and booted in turn, SCHED_CACHE on from
# the start: the kernels a bisection can land on. Before posting, not in CI.
## build and boot each patch of $(SERIES) (default v2) in turn on the first
## $(TOPOLOGY), SCHED_CACHE on from the start: every test must pass or skip as
## tests/expect.tsv says for that stage (before posting; 13 builds)
boot-test-each: guest
	@qemu/boot-each.sh $(BUILD) $(if $(filter none,$(SERIES)),v2,$(SERIES)) $(firstword $(TOPOLOGY))

## boot the guest to an interactive shell (leave with reboot -f)
run: kernel initramfs $(if $(MODEL),plugin)
	@$(MODEL_ENV) qemu/run.sh $(BZIMAGE) $(INITRAMFS) $(firstword $(TOPOLOGY)) $(LOGS)/run shell $(APPEND)

## prove the harness catches failures (splat patterns, a panic, a not-ok
## test, a wrong topology, a hang, bench and sweep verdicts)
selftest: kernel guest
	@qemu/selftest.sh $(BZIMAGE) $(BUILD)

# The comparisons that need one boot per kernel: none, v1 and v2 in turn
## boot none, v1 and v2 in turn on the first $(TOPOLOGY) with the same
## workloads once (fit, saturate), judged by make bench's checks of them
lb-compare: $(BENCH_BINS)
	@for s in none v1 v2; do $(MAKE) --no-print-directory kernel SERIES=$$s || exit 1; done
	@qemu/lb-compare.sh $(BUILD) $(firstword $(TOPOLOGY))

# Unpatched vs v1 vs v2: the same workloads RUNS times in one boot of each
## boot none, v1 and v2 in turn on the first $(TOPOLOGY), run the workloads
## $(RUNS) times, then each kernel once under the cache model:
## $(BUILD)/bench/results.tsv, table.txt, plots, checks.tap
bench: $(BENCH_BINS) $(if $(filter 0,$(BENCH_MODEL)),,plugin)
	@for s in none v1 v2; do $(MAKE) --no-print-directory kernel SERIES=$$s || exit 1; done
	@BENCH_MODEL=$(BENCH_MODEL) qemu/bench.sh $(BUILD) $(firstword $(TOPOLOGY)) $(RUNS) $(abspath $(PLUGIN))

# The load sweep, on 2x2x4 and 1x4x2 unless TOPOLOGY= is given: none and
# v2 booted side by side (one QEMU per core), one topology after another
SWEEP_TOPOLOGIES := $(if $(filter command line,$(origin TOPOLOGY)),$(TOPOLOGY),2x2x4 1x4x2)
## the load sweep on each $(TOPOLOGY) (default 2x2x4 and 1x4x2): threads x
## on-CPU share x burst length, none and v2 side by side, cells near an
## edge in $(BOOTS) boots: $(BUILD)/sweep/TOPOLOGY/ (results.tsv, cells.tsv,
## heat-*.png, checks.tap)
sweep: $(BENCH_BINS)
	@for s in none v2; do $(MAKE) --no-print-directory kernel SERIES=$$s || exit 1; done
	@rc=0; for t in $(SWEEP_TOPOLOGIES); do qemu/sweep.sh $(BUILD) $$t $(BOOTS) || rc=1; done; exit $$rc

# The posting: build/rfc/, verified (needs make check's results for v2 and v1)
## the posting in $(BUILD)/rfc/, verified (git am on a fresh base, build,
## checkpatch, bodies, subjects); runs make check for v2 and v1
rfc:
	@$(MAKE) --no-print-directory check SERIES=v2
	@$(MAKE) --no-print-directory check SERIES=v1
	@FROM="$(FROM)" SIGNOFF="$(SIGNOFF)" checks/rfc.sh

# What CI runs (README's test command): README's quick start on a fresh
# Debian 12 root (make fresh-check, the quick form), the static gate (no
# boot when it fails), the harness self-test and the cache model's, then
# v2 on every topology. One kernel is built: v2, in make check's link
# gate; the harness and model self-tests boot it too (they judge the
# harness, not the scheduler). The unpatched kernel (a second kernel, 7
# to 10 min cold, and a boot) moved to test-full when CI took 62 min:
# make test should take under an hour cold. v2 without its DEBUG patch
# (the tests observe v2 through what it shows without tracing, so they
# must pass on the series as a maintainer would take it) is another
# kernel: in test-full too (a CI run with it took 86 min).
TEST_TOPOLOGIES := 2x2x4 1x4x2 2x1x4 1x2x2x2
## what CI runs: fresh-check (quick), check, selftest and model-test on
## v2's kernel, v2 on four topologies; stops at the first failure
test:
	@qemu/stage.sh fresh-check $(MAKE) --no-print-directory fresh-check FRESH=quick FRESH_AS=root
	@qemu/stage.sh check $(MAKE) --no-print-directory check SERIES=v2
	@qemu/stage.sh selftest $(MAKE) --no-print-directory selftest SERIES=v2
	@qemu/stage.sh model-test $(MAKE) --no-print-directory model-test SERIES=v2
	@qemu/stage.sh boot-v2 $(MAKE) --no-print-directory boot-test SERIES=v2 TOPOLOGY="$(TEST_TOPOLOGIES)"

# The sanitizers on the posted code: v2 on the debug kernel (KASAN, UBSAN,
# kmemleak, lockdep, full preemption), the reliability storms at full
# counts, recorded for make rfc, which refuses a series without one. The
# debug limits are given here: this make's own (exported) TIMEOUT and
# GUEST_TIMEOUT would otherwise reach the sub-make as the base kernel's.
DEBUG_LOGS := $(BUILD)/logs/v2-debug/2x2x4
## boot v2 on the debug kernel (KASAN, UBSAN, kmemleak, lockdep) on 2x2x4
## with the storms at $(STRESS) counts (default full: about 70 min) and
## record a pass in $(BUILD)/debug/ for make rfc
debug-check:
	@$(MAKE) --no-print-directory boot-test SERIES=v2 CONFIG=debug TOPOLOGY=2x2x4 \
		$(if $(filter command line,$(origin TIMEOUT)),,TIMEOUT=$(DEBUG_TIMEOUT)) \
		$(if $(filter command line,$(origin GUEST_TIMEOUT)),,GUEST_TIMEOUT=$(DEBUG_GUEST_TIMEOUT))
	@qemu/debug-record.sh $(DEBUG_LOGS) $(BUILD)/debug

# The v2 tests' negative control: series-v2 without its DEBUG patch and
# with CONFIG_SCHED_CACHE off (CONFIG=nofeature), booted as v2-nodebug on
# 2x2x4, must fail every v2 test, each for not seeing v2
# (qemu/nofeature-check.sh). A kernel build and a short boot: in test-full.
NOFEATURE_LOGS := $(BUILD)/logs/v2-nodebug-nofeature/2x2x4
## v2-nodebug with CONFIG_SCHED_CACHE off must fail every v2 test, each
## for not seeing v2 (the tests' negative control)
nofeature-check:
	@$(MAKE) --no-print-directory kernel SERIES=v2-nodebug CONFIG=nofeature
	@rm -rf $(NOFEATURE_LOGS)
	@if $(MAKE) --no-print-directory boot-test SERIES=v2-nodebug CONFIG=nofeature TOPOLOGY=2x2x4 \
		TESTS=balance,sched_cache,steering,stress >$(BUILD)/nofeature-check.log 2>&1; then \
		echo "nofeature-check: the v2 tests passed without the feature ($(BUILD)/nofeature-check.log)" >&2; \
		exit 1; \
	fi
	@qemu/nofeature-check.sh $(NOFEATURE_LOGS)/results.log $(BUILD)/nofeature-check.log

# The v2 tests' behavioural negative control: v2 with one mechanism broken
# (tests/mutants/*.patch), one mutant at a time in the check's own tree,
# booted as v2 on 2x2x4, must fail the subtests tests/mutants/expect.tsv
# lists for it, and fail by failed tests only (qemu/mutant-check.sh). The
# first build starts from a copy of v2's own build when that is of the same
# code (as root, in a private mount namespace; a cold build otherwise), the
# others rebuild kernel/sched/fair.c: in test-full.
## v2 with steering inert, no preference, a lowest-LLC preference, or no
## balancer hold (tests/mutants/) must fail the subtests
## tests/mutants/expect.tsv lists for each, and only by failed tests
mutant-check:
	@$(MAKE) --no-print-directory initramfs SERIES=v2
	@qemu/mutant-check.sh $(BUILD) $(MUTANTS)

# make test, plus what needs more kernels (none, v2-nodebug, v1,
# nofeature): v2 without its DEBUG patch on 2x2x4, the unpatched kernel on
# every topology (the cache-aware tests skip there; the stress and
# topology tests run), v1's steering baseline on 2x2x4, make lb-compare,
# and the v2 tests' negative control. Run it before posting.
## test, then fresh-check FRESH=full, FRESH_AS=user and FRESH=plants, v2-nodebug on
## 2x2x4, none on every topology, v1 on 2x2x4, lb-compare,
## nofeature-check, mutant-check and debug-check; run it before posting
test-full: test
	@qemu/stage.sh fresh-full $(MAKE) --no-print-directory fresh-check FRESH=full FRESH_AS=root
	@qemu/stage.sh fresh-user $(MAKE) --no-print-directory fresh-check FRESH=quick FRESH_AS=user
	@qemu/stage.sh fresh-plants $(MAKE) --no-print-directory fresh-check FRESH=plants
	@qemu/stage.sh boot-v2-nodebug $(MAKE) --no-print-directory boot-test SERIES=v2-nodebug TOPOLOGY=2x2x4
	@qemu/stage.sh boot-none $(MAKE) --no-print-directory boot-test SERIES=none TOPOLOGY="$(TEST_TOPOLOGIES)"
	@qemu/stage.sh boot-v1 $(MAKE) --no-print-directory boot-test SERIES=v1 TOPOLOGY=2x2x4
	@qemu/stage.sh lb-compare $(MAKE) --no-print-directory lb-compare TOPOLOGY=2x2x4
	@qemu/stage.sh nofeature-check $(MAKE) --no-print-directory nofeature-check
	@qemu/stage.sh mutant-check $(MAKE) --no-print-directory mutant-check
	@qemu/stage.sh debug-check $(MAKE) --no-print-directory debug-check

## remove logs, guest programs and initramfs images
clean:
	rm -rf $(BUILD)/logs $(GUEST) $(BUILD)/bench-guest $(BUILD)/lb-compare $(BUILD)/bench $(BUILD)/rfc $(BUILD)/rfc-* $(BUILD)/initramfs-*.cpio.gz

## remove $(BUILD) (refuses if a source tree has local changes, or while
## anything is mounted below it)
distclean:
	@b=$$(cd $(BUILD) 2>/dev/null && pwd -P) || exit 0; \
	if awk -v d="$$b" '$$5 == d || index($$5, d "/") == 1 { f = 1 } END { exit !f }' /proc/self/mountinfo; then \
		echo "distclean: something is mounted below $(BUILD) (a fresh-check root?); unmount it first" >&2; exit 1; \
	fi
	@for t in $(BUILD)/src-*/; do \
		[ -d "$$t" ] || continue; \
		if [ -n "$$(git -C $$t status --porcelain --untracked-files=no 2>/dev/null)" ] && [ "$(FORCE)" != 1 ]; then \
			echo "distclean: $$t has local changes; commit them or use FORCE=1" >&2; exit 1; \
		fi; \
	done
	rm -rf $(BUILD)
