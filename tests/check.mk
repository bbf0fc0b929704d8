# The test targets, included by the top Makefile.  docs/testing.md lists
# what each runs and how long it takes.
#
#   make check        what finds most defects per minute (minutes, not an
#                     hour): unit, asan, fuzz (seconds per parser),
#                     integration, kmod-lint, vm (the default kernel's VM
#                     tests, batched into few boots); ends with a table of
#                     the suites' times
#   make check-all    everything else too: the slow tests, the kernel
#                     matrix, the DKMS chroots, the test-build windows,
#                     long fuzzing, the suites under load, the attack run,
#                     the debug kernel, the packages, the bench
#   make unit | asan | integration | slow | kmod-lint
#   make vm                      the VM tests of make check
#   make vm T=test_kmod_smoke    one VM test (K=6.12 for another kernel)
#   make vm-slow | vm-matrix     check-all's VM parts
#   make test-deps               the Debian packages of make check
#   make test-deps-all           and those of make check-all

# --- the Debian packages the tests need --------------------------------------
DEB_CHECK_ALL := gnuplot-nox atop $(DEB_PKG)
# make check installs them on its first run only: the stamp names the list
DEPS_STAMP = $(B)/.test-deps-$(shell printf '%s' '$(DEB_BUILD) $(DEB_TEST)' | cksum | cut -d' ' -f1)
$(B)/.test-deps-%:
	$(MAKE) --no-print-directory test-deps
	@mkdir -p $(@D) && rm -f $(B)/.test-deps-* && touch $@

test-deps: deps
	$(call install_debs,$(DEB_TEST),test-deps)
test-deps-all: test-deps
	$(call install_debs,$(DEB_CHECK_ALL),test-deps-all)

# $(call install_debs,PACKAGES,TARGET): the missing ones, as root
install_debs = @m="$(call missing_debs,$(1))"; \
	if [ -n "$$m" ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "installing: $$m"; \
			DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $$m || \
			{ apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $$m; }; \
		else echo "missing Debian packages: $$m (run 'make $(2)' as root)"; exit 1; fi; \
	fi

# --- the suites -------------------------------------------------------------
CHECK_SUITES := unit asan fuzz-check integration \
	$(if $(wildcard kmod/Kbuild),kmod-lint vm)
CHECK_ALL_SUITES := $(CHECK_SUITES) slow fuzz-long \
	$(if $(wildcard kmod/Kbuild),vm-slow vm-matrix vm-window-check vm-races) \
	$(if $(wildcard kmod/dkms.conf),dkms-check) \
	check-loaded $(if $(wildcard kmod/Kbuild),vm-attack vm-check-debug) bench

.PHONY: check check-all unit asan integration slow vm vm-slow vm-matrix \
	vm-races fuzz-long check-loaded dkms-check test-deps test-deps-all \
	unit-check asan-check integration-check vm-check

# builds use every CPU unless the caller chose -j (the tests themselves
# run one after the other)
SUITE_MAKE = $(MAKE)$(if $(filter -j%,$(MAKEFLAGS)),, -j$(shell nproc))

check: $(DEPS_STAMP)
	@$(SUITE_MAKE) --no-print-directory all
	@B=$(B) SUITES_MAKE="$(SUITE_MAKE)" tests/suites check $(CHECK_SUITES)

check-all: test-deps-all
	@$(SUITE_MAKE) --no-print-directory all
	@B=$(B) SUITES_MAKE="$(SUITE_MAKE)" tests/suites check-all $(CHECK_ALL_SUITES)

# each test's output also goes to $(B)/logs/; a failing test's FAIL lines
# (cmocka's: its [  FAILED  ], [  ERROR   ] and the failed check's
# "error:" line; a sanitizer's report) are kept in $(FAILURES) so that
# `make check` can repeat them at its end (CI shows only the tail of the
# output). A failure that printed none of them is kept by its last lines.
FAILURES ?= $(B)/logs/failures.txt
FAIL_LINES := ^(FAIL|not ok)|^\[  (FAILED|ERROR) |: error: |^SUMMARY: |ERROR: [A-Za-z]+Sanitizer|runtime error:
run_logged = mkdir -p $(B)/logs/$(1); log=$(B)/logs/$(1)/$$(basename $$t).log; \
	t0=$$(date +%s); { $(2); } 2>&1 | tee $$log; rc=$${PIPESTATUS[0]}; \
	echo "== $$t: exit $$rc, $$(( $$(date +%s) - t0 )) s"; \
	if [ $$rc != 0 ]; then echo "FAIL: $$t (exit $$rc)"; fail=1; \
		{ echo "-- $$t (exit $$rc):"; grep -E '$(FAIL_LINES)' $$log | head -20 | grep . || \
			tail -n 12 $$log; } >>$(FAILURES); fi

unit unit-check: SHELL := /bin/bash
unit unit-check: $(UNIT_BINS)
	@fail=0; for t in $(UNIT_BINS); do \
		echo "== $$t"; $(call run_logged,unit,$$t); \
	done; exit $$fail

# the unit tests once more under AddressSanitizer + UBSan
ASAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
asan asan-check:
	$(MAKE) B=$(B)/asan CFLAGS="$(ASAN_FLAGS)" FAILURES=$(abspath $(FAILURES)) unit

# tests/integration/*.sh: each within about a minute on a loaded machine;
# tests/slow/*.sh: the same kind, longer (check-all); lib.sh is what the
# scripts source, no test
integration integration-check slow: SHELL := /bin/bash
integration integration-check slow: all $(HELPER_BINS)
	@fail=0; for t in $(filter-out %/lib.sh,$(sort $(wildcard tests/$(if $(filter slow,$@),slow,integration)/*.sh))); do \
		echo "== $$t"; $(call run_logged,$(if $(filter slow,$@),slow,integration),B=$(B) bash $$t); \
	done; exit $$fail

# long fuzzing: every target for FUZZ_LONG_SECONDS
FUZZ_LONG_SECONDS ?= 300
fuzz-long:
	$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=$(FUZZ_LONG_SECONDS)

# --- the VM tests -----------------------------------------------------------
# make check: every tests/vm/test_*.sh on the default kernel but those of
# tests/vm/slow (check-all, each with its reason) and tests/vm/known_defects
VM_LISTED = $(shell sed -n 's/^\(test_[a-z0-9_]*\.sh\).*/\1/p' $(1) 2>/dev/null)
VM_SLOW := $(call VM_LISTED,tests/vm/slow)
VM_KNOWN := $(call VM_LISTED,tests/vm/known_defects)
VM_CHECK := $(filter-out $(VM_SLOW) $(VM_KNOWN),$(notdir $(wildcard tests/vm/test_*.sh)))
T ?=
K ?=
vm: all $(HELPER_BINS)
	B=$(B) tests/vm/batch $(if $(K),--kernel $(K)) $(if $(T),$(T),$(VM_CHECK))
vm-slow: all $(HELPER_BINS)
	B=$(B) tests/vm/batch $(VM_SLOW)

# the other kernels of tests/vm/kernels (KVERS="5.10 sid": those only;
# KVERS=all: every test on every kernel, the default one too)
KVERS ?=
vm-matrix: all $(HELPER_BINS)
	B=$(B) tests/vm/matrix --others $(KVERS)
vm-check: all $(HELPER_BINS)
	B=$(B) tests/vm/matrix $(KVERS)

# the module's test builds with a window (Makefile: vm-reaper-race and on)
vm-races: all $(HELPER_BINS)
	@fail=0; for t in vm-reaper-race vm-exit-pos vm-pass-pairs vm-leader-window \
		vm-unload-window vm-chunk-window; do \
		$(MAKE) --no-print-directory $$t || { fail=1; echo "-- make $$t failed" >>$(FAILURES); }; \
	done; exit $$fail

# on the host, then dkms add/build/install in each kernel's chroot (root)
dkms-check:
	@if [ -f kmod/dkms.conf ]; then fail=0; bash tests/dkms/check.sh || fail=1; \
		if [ "$$(id -u)" = 0 ]; then for k in $$(awk '!/^#/ && NF >= 4 { print $$1 }' tests/vm/kernels); do \
			bash tests/dkms/chroot.sh $$k || fail=1; done; \
		else echo "dkms-check: not root: the chroot checks (tests/dkms/chroot.sh) cannot run"; fail=1; fi; \
		exit $$fail; \
	else echo "dkms-check: kmod/dkms.conf missing"; exit 1; fi

# make check's suites while a parallel build keeps the CPUs busy:
# tests/load/busy loops `make -B -j$(LOAD_JOBS)` of a copy of this tree's
# sources at normal priority for as long as the suites run
# (LOADED_SUITES="..." to choose)
LOAD_JOBS ?= 4
LOADED_SUITES ?= $(CHECK_SUITES)
check-loaded: SHELL := /bin/bash
check-loaded: all
	@mkdir -p $(B)/logs; tests/load/busy -j $(LOAD_JOBS) -l $(B)/logs/load.log -- \
		env B=$(B) SUITES_MAKE="$(MAKE)" tests/suites check-loaded $(LOADED_SUITES)
