# ptop: a precise top for Linux.  Plain make; see README.md.
#
#   make            build everything into build/ (B=dir for another place)
#   make run        install missing Debian packages (as root), build, start ptop
#   make check      install what tests need (as root, once), build, run the
#                   tests that find most per minute (tests/check.mk: check-all,
#                   unit, integration, vm T=test_name...; docs/testing.md)
#   make install    PREFIX=/usr/local DESTDIR=   (uninstall: the same files)
#   make dkms-install / dkms-uninstall   the module's sources + contrib/ files
#   make deb        the Debian packages ptop and ptop-taskstats-dkms (debian/)
#   make V=1        show the commands
#
# CC, CFLAGS, CPPFLAGS, LDFLAGS, AR and PKG_CONFIG come from the command line
# or the environment (dpkg-buildflags --export=sh works); the project's own
# flags are added to them, never replace them.

PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
LIBEXECDIR ?= $(PREFIX)/libexec
DATADIR ?= $(PREFIX)/share
MANDIR  ?= $(DATADIR)/man
DOCDIR  ?= $(DATADIR)/doc/ptop
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
ZSHCOMPDIR  ?= $(DATADIR)/zsh/vendor-completions
FISHCOMPDIR ?= $(DATADIR)/fish/vendor_completions.d
# kmod, systemd and dkms read these places whatever PREFIX is
SYSLIBDIR   ?= /usr/lib
MODPROBEDIR ?= $(SYSLIBDIR)/modprobe.d
MODLOADDIR  ?= $(SYSLIBDIR)/modules-load.d
SYSUSERSDIR ?= $(SYSLIBDIR)/sysusers.d
DKMSSRCDIR  ?= /usr/src
DESTDIR ?=
B       := build

VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' kmod/dkms.conf 2>/dev/null)
ifeq ($(VERSION),)
VERSION := 0.0.0
endif

# make's built-in defaults (cc, ar) give way to the environment's
ifeq ($(origin CC),default)
CC      := cc
endif
ifeq ($(origin AR),default)
AR      := ar
endif
PKG_CONFIG ?= pkg-config
CFLAGS  ?= -O2 -g
CPPFLAGS ?=
LDFLAGS ?=
WARN    := -Wall -Wextra -Wformat-security -Wshadow -Wno-unused-parameter
# the project's own flags: after the user's CPPFLAGS, before the user's CFLAGS
# (so that a user's -O or -Wno-... wins)
PTOP_CPPFLAGS := -D_GNU_SOURCE -DPTOP_VERSION='"$(VERSION)"' -I.
ALL_CPPFLAGS = $(CPPFLAGS) $(PTOP_CPPFLAGS)
ALL_CFLAGS = -std=gnu11 $(WARN) $(CFLAGS)
DEPFLAGS := -MMD -MP

ifeq ($(V),1)
Q :=
say = @true
else
Q := @
say = @printf '  %-7s %s\n' $(1) $(2)
endif

# --- dependencies via pkg-config, with the Debian package to install -------
# pkg name : Debian package
PKGS := ncursesw:libncurses-dev libnl-genl-3.0:libnl-genl-3-dev \
	libcap:libcap-dev libedit:libedit-dev zlib:zlib1g-dev
TEST_PKGS := cmocka:libcmocka-dev

# Debian packages: building, running, testing
DEB_BUILD := build-essential pkg-config libncurses-dev libnl-genl-3-dev \
	libcap-dev libedit-dev zlib1g-dev
# (check-all's own: DEB_CHECK_ALL in tests/check.mk)
DEB_TEST  := libcmocka-dev procps htop time linux-perf qemu-system-x86 tmux strace \
	busybox-static cpio linux-headers-amd64 dkms kmod \
	python3 groff-base mandoc dpkg-dev binutils zsh fish \
	clang-14 libclang-rt-14-dev valgrind sparse \
	python3-prometheus-client \
	flex bison bc libelf-dev libssl-dev

pc_name = $(firstword $(subst :, ,$(1)))
pc_deb  = $(lastword $(subst :, ,$(1)))
# $(call once,VAR,shell command): the command runs on VAR's first use only,
# and at most once per make run (not once per object file)
once = $(eval $(1) := $$(shell $(2)))$($(1))
pc_missing = $(foreach p,$(1),$(if $(shell $(PKG_CONFIG) --exists $(call pc_name,$(p)) && echo y),,$(p)))
pc_fail = $(error pkg-config ($(PKG_CONFIG)) cannot find $(call pc_name,$(firstword $(1))): install the Debian package $(call pc_deb,$(firstword $(1))) (or run 'make deps' as root))
# one pkg-config call for all of them; the per-package search only on failure
pc_check = $(if $(shell $(PKG_CONFIG) --exists $(foreach p,$(1),$(call pc_name,$(p))) && echo y),,\
	$(call pc_fail,$(call pc_missing,$(1))))

NEED_PC = $(eval NEED_PC :=)$(call pc_check,$(PKGS))
NEED_CMOCKA = $(eval NEED_CMOCKA :=)$(call pc_check,$(TEST_PKGS))
PC_CFLAGS = $(call once,PC_CFLAGS,$(PKG_CONFIG) --cflags $(foreach p,$(PKGS),$(call pc_name,$(p))))
PC_LIBS   = $(call once,PC_LIBS,$(PKG_CONFIG) --libs $(foreach p,$(PKGS),$(call pc_name,$(p))))
CMOCKA_CFLAGS = $(call once,CMOCKA_CFLAGS,$(PKG_CONFIG) --cflags cmocka)
CMOCKA_LIBS   = $(call once,CMOCKA_LIBS,$(PKG_CONFIG) --libs cmocka)

# `make clean all` (any -j): each goal in its own make, one after the other,
# so that clean never races the build
ifneq ($(filter clean,$(MAKECMDGOALS)),)
ifneq ($(filter-out clean,$(MAKECMDGOALS)),)
SERIAL_GOALS := 1
endif
endif

ifdef SERIAL_GOALS
.PHONY: $(MAKECMDGOALS) serial-goals
$(MAKECMDGOALS): serial-goals ; @:
serial-goals:
	@set -e; for g in $(MAKECMDGOALS); do $(MAKE) --no-print-directory $$g; done
else

# --- sources ----------------------------------------------------------------
LIB_SRCS    := $(sort $(wildcard lib/*.c lib/src/*.c))
UI_SRCS     := $(sort $(wildcard ui/*.c))
CFG_SRCS    := $(sort $(wildcard config/*.c))
PTOP_SRCS   := ptop/ptop.c $(sort $(wildcard ptop/ptop_*.c))
TSTIME_SRCS := $(sort $(wildcard tstime/*.c))
UNIT_SRCS   := $(sort $(wildcard tests/unit/test_*.c))
UNIT_HELPERS := $(filter-out $(UNIT_SRCS),$(sort $(wildcard tests/unit/*.c)))
HELPER_SRCS := $(sort $(wildcard tests/helpers/*.c))

obj = $(patsubst %.c,$(B)/obj/%.o,$(1))
LIB_A  := $(B)/libptop.a
UI_A   := $(B)/libptopui.a
CFG_A  := $(B)/libptopcfg.a
BINS   := $(B)/ptop $(if $(wildcard tstime/tstime.c),$(B)/tstime)
UNIT_BINS   := $(patsubst tests/unit/%.c,$(B)/tests/unit/%,$(UNIT_SRCS))
HELPER_BINS := $(patsubst tests/helpers/%.c,$(B)/tests/helpers/%,$(HELPER_SRCS))

.PHONY: all run bench bench-vm \
	vm-check-debug vm-attack vm-reaper-race vm-exit-pos vm-report-window vm-window-check vm-pass-pairs vm-leader-window vm-clock-pair \
	deps install uninstall clean kmod dkms-install dkms-uninstall hooks
.DEFAULT_GOAL := all
# keep objects that pattern rules made on the way (no rebuilds, no rm noise)
.SECONDARY:

all: $(BINS)

$(B)/obj/%.o: %.c
	$(NEED_PC)
	@mkdir -p $(@D)
	$(call say,CC,$<)
	$(Q)$(CC) $(ALL_CPPFLAGS) $(PC_CFLAGS) $(ALL_CFLAGS) $(DEPFLAGS) -c -o $@ $<

# the batch formats: every ui/enc_NAME.c is one, listed for ui/emit.c in a
# generated header (rewritten only when the list changes)
ENC_NAMES := $(patsubst ui/enc_%.c,%,$(sort $(wildcard ui/enc_*.c)))
$(B)/gen/ui_encoders.h: FORCE
	@mkdir -p $(@D)
	@printf 'UI_ENCODER(%s)\n' $(ENC_NAMES) >$@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv -f $@.tmp $@
$(B)/obj/ui/emit.o: $(B)/gen/ui_encoders.h
$(B)/obj/ui/emit.o: override CPPFLAGS += -I$(B)/gen
.PHONY: FORCE install-setcap

$(LIB_A): $(call obj,$(LIB_SRCS))
	$(call say,AR,$@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(UI_A): $(call obj,$(UI_SRCS))
	$(call say,AR,$@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

# the layers link in their one-way order: ptop/ -> ui/ -> config/ -> lib/
$(CFG_A): $(call obj,$(CFG_SRCS))
	$(call say,AR,$@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(B)/ptop: $(call obj,$(PTOP_SRCS)) $(UI_A) $(CFG_A) $(LIB_A)
	$(call say,LD,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(PC_LIBS) -lm

$(B)/tstime: $(call obj,$(TSTIME_SRCS)) $(UI_A) $(LIB_A)
	$(call say,LD,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(PC_LIBS) -lm

# --- tests ------------------------------------------------------------------
$(B)/obj/tests/unit/%.o: tests/unit/%.c
	$(NEED_PC)$(NEED_CMOCKA)
	@mkdir -p $(@D)
	$(call say,CC,$<)
	$(Q)$(CC) $(ALL_CPPFLAGS) $(PC_CFLAGS) $(CMOCKA_CFLAGS) $(ALL_CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(B)/tests/unit/test_%: $(B)/obj/tests/unit/test_%.o $(call obj,$(UNIT_HELPERS)) $(UI_A) $(CFG_A) $(LIB_A)
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(CMOCKA_LIBS) $(PC_LIBS) -lm

$(B)/tests/helpers/%: tests/helpers/%.c
	@mkdir -p $(@D)
	$(call say,CC,$<)
	$(Q)$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< -lpthread -lm

# bench/ programs that use the library (bench/precision.sh runs them)
BENCH_BINS := $(patsubst bench/%.c,$(B)/bench/%,$(sort $(wildcard bench/*.c)))
$(B)/bench/%: $(B)/obj/bench/%.o $(LIB_A)
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(PC_LIBS)
# userspace_cost also runs the view (ui/), before the library
$(B)/bench/userspace_cost: $(B)/obj/bench/userspace_cost.o $(UI_A) $(CFG_A) $(LIB_A)
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(PC_LIBS) -lm

# tstime's tree accounting lives beside tstime, outside the libraries
$(B)/tests/unit/test_tree_acct: $(call obj,tstime/tstime_tree_acct.c)

# not part of check: minutes per N (bench/run --help)
bench: all $(HELPER_BINS) $(BENCH_BINS)
	python3 bench/run $(BENCH_ARGS)

# the module's row: bench/run inside the VM (qemu TCG: ~1 h for all four N;
# BENCH_VM_ARGS="--sources=kmod,kmod_nl -n 100 --add": one N per run)
BENCH_VM_ARGS ?= --sources=kmod,kmod_nl
bench-vm: all $(HELPER_BINS)
	PTOP_VM_TIMEOUT=$${PTOP_VM_TIMEOUT:-5400} PTOP_VM_MEM=$${PTOP_VM_MEM:-4096} \
		tests/vm/run bench/run_vm.sh $(BENCH_VM_ARGS)

# not part of check (docs/reliability.md): the stress/attack VM tests on the
# debug kernel (KASAN, KFENCE, lockdep; built once by
# tests/vm/build-debug-kernel, tens of minutes on 2 cores), and the
# 10-minute attack script (PTOP_ATTACK_SECS=N to shorten; VM_KERNEL=debug)
vm-check-debug: all $(HELPER_BINS)
	B=$(B) tests/vm/debug-check

VM_KERNEL ?=
PTOP_ATTACK_SECS ?= 600
vm-attack: all $(HELPER_BINS)
	PTOP_ATTACK_SECS=$(PTOP_ATTACK_SECS) PTOP_VM_TIMEOUT=$$(($(PTOP_ATTACK_SECS) * 2 + 900)) \
		tests/vm/run $(if $(VM_KERNEL),--kernel $(VM_KERNEL)) tests/vm/attack_all.sh

# a reaper racing a releasing ancestor (docs/reliability.md): the module
# built with a second's window in
# ptop_ts_new_reaper() (KCFLAGS=-DPTOP_TS_TEST_REAPER_WINDOW, on the host:
# a build in the guest timed out under TCG), for the default kernel, run
# by tests/vm/reaper_race.sh
REAPER_KVER = $(shell dpkg-query -W -f='$${Depends}' linux-headers-amd64 | sed -n 's/.*linux-headers-\([^ ,]*\).*/\1/p')
# the module built on the host for the default kernel with a test-only
# window (KCFLAGS=-D$(1)) in $(B)/$(2), and where a run finds it
# (PTOP_VM_KO=... to try another build): for the vm-* targets below
kmod_window_build = KCFLAGS="-D$(1)" $(MAKE) -s -C kmod \
		KDIR=/usr/src/linux-headers-$(REAPER_KVER) BUILD_DIR=$(CURDIR)/$(B)/$(2)
kmod_window_ko = PTOP_VM_KO=$${PTOP_VM_KO:-$(CURDIR)/$(B)/$(1)/ptop_taskstats.ko}
vm-reaper-race: all $(HELPER_BINS)
	$(call kmod_window_build,PTOP_TS_TEST_REAPER_WINDOW,kmod-reaperwin)
	PTOP_VM_KO=$(CURDIR)/$(B)/kmod-reaperwin/ptop_taskstats.ko tests/vm/run tests/vm/reaper_race.sh

# a group's EXIT record position with thousands of records after it
# (docs/reliability.md): the module built with a window after a group's
# EXIT record (KCFLAGS=-DPTOP_TS_TEST_EXIT_WINDOW, on the host), run by
# tests/vm/exit_pos_race.sh; PTOP_VM_KO=... to try another build
vm-exit-pos: all $(HELPER_BINS)
	$(call kmod_window_build,PTOP_TS_TEST_EXIT_WINDOW,kmod-exitwin)
	$(call kmod_window_ko,kmod-exitwin) tests/vm/run tests/vm/exit_pos_race.sh

# a dying group read between its exit report and its EXIT record
# (docs/reliability.md): that window and the pass window below in one
# test build, whose exit probe also runs a task named ptop-repwin on
# between the two (and a thread named ptop-thrwin before its EXIT record,
# the walk after its row), run by tests/vm/report_window.sh and
# tests/vm/thread_window.sh; PTOP_VM_KO=... to try another build
# In make check (vm-window-check): each failed script's FAIL lines go to
# $(FAILURES) as the other suites' do.
WINDOW_SCRIPTS := report_window thread_window
vm-report-window vm-window-check: SHELL := /bin/bash
vm-report-window vm-window-check: all $(HELPER_BINS)
	$(call kmod_window_build,PTOP_TS_TEST_EXIT_WINDOW -DPTOP_TS_TEST_PASS_WINDOW,kmod-repwin)
	@mkdir -p $(B)/logs; fail=0; for s in $(WINDOW_SCRIPTS); do \
		echo "== vm (test build kmod-repwin): tests/vm/$$s.sh"; \
		$(call kmod_window_ko,kmod-repwin) tests/vm/run tests/vm/$$s.sh 2>&1 | tee $(B)/logs/vm-$$s.log; \
		if [ "$${PIPESTATUS[0]}" != 0 ]; then fail=1; \
			{ echo "-- tests/vm/$$s.sh (make vm-window-check):"; grep -E '^FAIL|vm-run:' $(B)/logs/vm-$$s.log | head -20; } >>$(FAILURES); \
		fi; done; exit $$fail

# time on the wrong side of a pass instant by exiting tasks' records
# (docs/reliability.md, "Cause 2: pairs"): the module built with a sleep
# after every pass instant (KCFLAGS=-DPTOP_TS_TEST_PASS_WINDOW, on the
# host), run by tests/vm/pass_pairs.sh; PTOP_VM_KO=... to try another build
vm-pass-pairs: all $(HELPER_BINS)
	$(call kmod_window_build,PTOP_TS_TEST_PASS_WINDOW,kmod-passwin)
	$(call kmod_window_ko,kmod-passwin) tests/vm/run tests/vm/pass_pairs.sh

# a pass instant's clock pair (sched_clock, time) read apart by a stopped
# vCPU (docs/reliability.md, "CI on a busy host"): the module built with
# a 3 ms wait between the two readings of CPU 1's every 8th instant, on
# its first try (KCFLAGS=-DPTOP_TS_TEST_CLOCK_PAIR, on the host), run by
# tests/vm/test_kmod_idle_irq.sh; each interval's error against the pairs
# by tests/vm/diag/clock_pair_ana.py; PTOP_VM_KO=... to try another build
vm-clock-pair: all $(HELPER_BINS)
	$(call kmod_window_build,PTOP_TS_TEST_CLOCK_PAIR,kmod-pairwin)
	$(call kmod_window_ko,kmod-pairwin) \
		PTOP_VM_KMOD_PARAMS="test_pair_log=1 test_pair_stop_every=8 test_pair_stop_ms=3" \
		tests/vm/run tests/vm/test_kmod_idle_irq.sh >$(B)/vm-clock-pair.log; s=$$?; \
		cat $(B)/vm-clock-pair.log; python3 tests/vm/diag/clock_pair_ana.py $(B)/vm-clock-pair.log; exit $$s

# two THREAD records of a group's leader identity in one walk (a
# non-leader exec between the leader's read and the exec'er's, or the
# exec'er read inside de_thread(), docs/reliability.md): the module built
# with a 20 ms wait after a "tsload" leader's record, another in
# de_thread() after a "tsload" exec'er's exchange_tids() (a kretprobe)
# and 50 ms between a dying "tsload" leader's identity read and the
# leader decision (KCFLAGS=-DPTOP_TS_TEST_LEADER_WINDOW, on the host), run by
# tests/vm/test_kmod_late_exec.sh; PTOP_VM_KO=... to try another build
vm-leader-window: all $(HELPER_BINS)
	$(call kmod_window_build,PTOP_TS_TEST_LEADER_WINDOW,kmod-leaderwin)
	$(call kmod_window_ko,kmod-leaderwin) tests/vm/run tests/vm/test_kmod_late_exec.sh

# rmmod while a reader runs passes back to back, with a second after
# the sched_switch probe went and a warning when a pass reads a CPU's
# task in it (KCFLAGS=-DPTOP_TS_TEST_UNLOAD_WINDOW, on the host), run by
# tests/vm/test_kmod_unload_race.sh; PTOP_VM_KO=... to try another build
.PHONY: vm-unload-window
vm-unload-window: all $(HELPER_BINS)
	$(call kmod_window_build,PTOP_TS_TEST_UNLOAD_WINDOW,kmod-unloadwin)
	$(call kmod_window_ko,kmod-unloadwin) tests/vm/run tests/vm/test_kmod_unload_race.sh

# a thread answer while the group's threads come and go, with the thread
# a chunked thread walk rests on made to exit at each boundary
# (KCFLAGS=-DPTOP_TS_TEST_CHUNK_WINDOW, on the host), run by
# tests/vm/test_kmod_thread_restart.sh; PTOP_VM_KO=... to try another build
.PHONY: vm-chunk-window
vm-chunk-window: all $(HELPER_BINS)
	$(call kmod_window_build,PTOP_TS_TEST_CHUNK_WINDOW,kmod-chunkwin)
	$(call kmod_window_ko,kmod-chunkwin) tests/vm/run tests/vm/test_kmod_thread_restart.sh

include tests/fuzz/fuzz.mk
include tests/check.mk

# --- Debian packages --------------------------------------------------------
missing_debs = $(shell for p in $(1); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done)

deps:
	@m="$(call missing_debs,$(DEB_BUILD))"; \
	if [ -n "$$m" ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "installing: $$m"; \
			apt-get install -y --no-install-recommends $$m || \
			{ apt-get update && apt-get install -y --no-install-recommends $$m; }; \
		else echo "missing Debian packages: $$m (run 'make deps' as root)"; exit 1; fi; \
	fi

run: deps
	$(MAKE) all
	./$(B)/ptop $(ARGS)

# --- Debian packages: ptop, ptop-taskstats-dkms (debian/) --------------------
# dpkg-buildpackage writes its results into the parent directory: it runs in
# a copy of the tree (the files git knows, and new ones it does not ignore)
# under $(B)/deb, so the .deb files land in $(B)/deb and nothing outside
# the tree is written (a git checkout: git lists the files). DEB_PKG_BUILD:
# what building them needs (with DEB_BUILD); DEB_PKG: also what
# tests/slow/deb.sh needs to check them (lintian, a Debian 12 chroot).
DEB_PKG_BUILD := dpkg-dev debhelper dh-dkms
DEB_PKG := dpkg-dev debhelper dh-dkms lintian debootstrap debian-archive-keyring
DEB_DIR := $(B)/deb
.PHONY: deb
deb:
	@m="$(call missing_debs,$(DEB_PKG_BUILD))"; [ -z "$$m" ] || \
		{ echo "deb: missing Debian packages: $$m (apt-get install $$m)"; exit 1; }
	rm -rf $(DEB_DIR) && mkdir -p $(DEB_DIR)/ptop-$(VERSION)
	git ls-files -z --cached --others --exclude-standard | \
		xargs -0 cp -a --parents -t $(DEB_DIR)/ptop-$(VERSION)
	cd $(DEB_DIR)/ptop-$(VERSION) && dpkg-buildpackage -us -uc -b
	@ls $(DEB_DIR)/*.deb

# --- kernel module ----------------------------------------------------------
kmod:
	$(MAKE) -C kmod BUILD_DIR=$(abspath $(B))/kmod

# checkpatch and sparse over the module, against the VM tests' kernel headers
KMOD_LINT_KDIR = /usr/src/linux-headers-$(shell dpkg-query -W -f='$${Depends}' linux-headers-amd64 | grep -o '[0-9][^ ,]*-amd64' | head -n1)
.PHONY: kmod-lint
kmod-lint:
	$(MAKE) -C kmod style sparse KDIR=$(KMOD_LINT_KDIR) BUILD_DIR=$(abspath $(B))/kmod-lint

# the module's sources to $(DESTDIR)$(DKMSSRCDIR)/ptop_taskstats-<ver> (for
# `dkms install ptop_taskstats/<ver>`), and the files that load it with its
# reader group (contrib/: modprobe.d, modules-load.d, sysusers.d, the helper)
CONTRIB_LIST = \
	644:$(B)/contrib/modprobe.conf:$(MODPROBEDIR)/ptop_taskstats.conf \
	644:contrib/modules-load.conf:$(MODLOADDIR)/ptop_taskstats.conf \
	644:contrib/sysusers.conf:$(SYSUSERSDIR)/ptop.conf \
	755:contrib/ptop-taskstats-load:$(LIBEXECDIR)/ptop/ptop-taskstats-load

$(B)/contrib/modprobe.conf: contrib/modprobe.conf.in
	@mkdir -p $(@D)
	$(call say,GEN,$@)
	$(Q)sed 's|@LIBEXECDIR@|$(LIBEXECDIR)|g' $< >$@

# install_list MODE:SRC:DEST ...: install -D each; uninstall_list: rm each
install_list = @set -e; for e in $(1); do m=$${e%%:*}; r=$${e\#*:}; \
	s=$${r%%:*}; d="$(DESTDIR)$${r\#*:}"; \
	printf '  %-7s %s\n' INSTALL "$$d"; install -D -m $$m "$$s" "$$d"; done
uninstall_list = @for e in $(1); do d="$(DESTDIR)$${e\#*:*:}"; \
	if [ -e "$$d" ] || [ -L "$$d" ]; then printf '  %-7s %s\n' RM "$$d"; rm -f "$$d"; fi; done

dkms-install: $(B)/contrib/modprobe.conf
	$(MAKE) -C kmod dkms-install DESTDIR=$(DESTDIR) DKMSSRCDIR=$(DKMSSRCDIR)
	$(call install_list,$(CONTRIB_LIST))
	@echo "next: dkms install ptop_taskstats/$(VERSION); systemd-sysusers (group ptop); modprobe ptop_taskstats"

# removes what dkms-install put (and, without DESTDIR, the module from dkms)
dkms-uninstall:
	$(MAKE) -C kmod dkms-uninstall DESTDIR=$(DESTDIR) DKMSSRCDIR=$(DKMSSRCDIR)
	$(call uninstall_list,$(CONTRIB_LIST))
	-@rmdir "$(DESTDIR)$(LIBEXECDIR)/ptop" 2>/dev/null || true

# --- install ----------------------------------------------------------------
# every file `make install` puts, MODE:SOURCE:DESTINATION; `make uninstall`
# removes exactly these
INSTALL_LIST = \
	755:$(B)/ptop:$(BINDIR)/ptop \
	755:$(B)/tstime:$(BINDIR)/tstime \
	644:man/ptop.1:$(MANDIR)/man1/ptop.1 \
	644:man/tstime.1:$(MANDIR)/man1/tstime.1 \
	644:man/ptop_taskstats.4:$(MANDIR)/man4/ptop_taskstats.4 \
	644:man/ptoprc.5:$(MANDIR)/man5/ptoprc.5 \
	644:completions/ptop.bash:$(BASHCOMPDIR)/ptop \
	644:completions/tstime.bash:$(BASHCOMPDIR)/tstime \
	644:completions/_ptop:$(ZSHCOMPDIR)/_ptop \
	644:completions/_tstime:$(ZSHCOMPDIR)/_tstime \
	644:completions/ptop.fish:$(FISHCOMPDIR)/ptop.fish \
	644:completions/tstime.fish:$(FISHCOMPDIR)/tstime.fish \
	644:config/ptoprc.example:$(DOCDIR)/examples/ptoprc \
	644:README.md:$(DOCDIR)/README.md \
	644:LICENSE:$(DOCDIR)/LICENSE

install: all
	$(call install_list,$(INSTALL_LIST))

uninstall:
	$(call uninstall_list,$(INSTALL_LIST))
	-@rmdir "$(DESTDIR)$(DOCDIR)/examples" "$(DESTDIR)$(DOCDIR)" 2>/dev/null || true
	@if [ -d "$(DESTDIR)$(DKMSSRCDIR)/ptop_taskstats-$(VERSION)" ]; then \
		echo "the module's sources stay in $(DESTDIR)$(DKMSSRCDIR)/ptop_taskstats-$(VERSION): make dkms-uninstall"; fi

# the taskstats source for normal users: CAP_NET_ADMIN as a file capability
# (a running ptop keeps only what its source needs: --drop-capabilities)
install-setcap:
	setcap cap_net_admin+ep "$(DESTDIR)$(BINDIR)/ptop"
	$(if $(wildcard tstime/tstime.c),setcap cap_net_admin+ep "$(DESTDIR)$(BINDIR)/tstime")

# the repository's git hooks (.githooks/: commit-msg checks the subject)
hooks:
	git config core.hooksPath .githooks
	@echo "hooks: git now runs .githooks/ (commit-msg: subjects of at most 72 characters)"

clean:
	rm -rf $(B)/*.a $(B)/obj $(B)/ptop $(B)/tstime $(B)/tests $(B)/contrib $(B)/gen
	-$(if $(wildcard kmod/Makefile),$(MAKE) -C kmod clean BUILD_DIR=$(abspath $(B))/kmod)

-include $(patsubst %.o,%.d,$(call obj,$(LIB_SRCS) $(CFG_SRCS) $(UI_SRCS) $(PTOP_SRCS) $(TSTIME_SRCS) $(UNIT_SRCS) $(UNIT_HELPERS) $(wildcard bench/*.c)))

endif # SERIAL_GOALS
