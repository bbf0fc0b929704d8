# ptop: a precise top for Linux.  Plain make; see README.md.
#
#   make            build everything into build/
#   make run        install missing Debian packages (as root), build, start ptop
#   make check      install what tests need (as root), build, run every test
#   make install    PREFIX=/usr/local DESTDIR=
#   make V=1        show the commands

PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/vendor-completions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d
DESTDIR ?=
B       := build

VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' kmod/dkms.conf 2>/dev/null)
ifeq ($(VERSION),)
VERSION := 0.0.0
endif

CC      ?= cc
CFLAGS  ?= -O2 -g
WARN    := -Wall -Wextra -Wformat-security -Wshadow -Wno-unused-parameter
CPPFLAGS += -D_GNU_SOURCE -DPTOP_VERSION='"$(VERSION)"' -I.
ALL_CFLAGS = -std=gnu11 $(WARN) $(CFLAGS) -MMD -MP

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
DEB_TEST  := libcmocka-dev procps htop time linux-perf qemu-system-x86 tmux \
	busybox-static cpio linux-headers-amd64 dkms kmod gnuplot-nox \
	python3 atop

pc_name = $(firstword $(subst :, ,$(1)))
pc_deb  = $(lastword $(subst :, ,$(1)))
pc_check = $(if $(shell pkg-config --exists $(call pc_name,$(1)) && echo y),,\
	$(error pkg-config cannot find $(call pc_name,$(1)): install the Debian package $(call pc_deb,$(1)) (or run 'make deps' as root)))

NEED_PC = $(foreach p,$(PKGS),$(call pc_check,$(p)))
PC_CFLAGS = $(shell pkg-config --cflags $(foreach p,$(PKGS),$(call pc_name,$(p))))
PC_LIBS   = $(shell pkg-config --libs $(foreach p,$(PKGS),$(call pc_name,$(p))))
CMOCKA_CFLAGS = $(shell pkg-config --cflags cmocka)
CMOCKA_LIBS   = $(shell pkg-config --libs cmocka)

# --- sources ----------------------------------------------------------------
LIB_SRCS    := $(sort $(wildcard lib/*.c))
UI_SRCS     := $(sort $(wildcard ui/*.c) $(wildcard config/*.c))
PTOP_SRCS   := ptop/ptop.c $(sort $(wildcard ptop/ptop_*.c))
TSTIME_SRCS := ptop/tstime.c $(sort $(wildcard ptop/tstime_*.c))
UNIT_SRCS   := $(sort $(wildcard tests/unit/test_*.c))
UNIT_HELPERS := $(filter-out $(UNIT_SRCS),$(sort $(wildcard tests/unit/*.c)))
HELPER_SRCS := $(sort $(wildcard tests/helpers/*.c))

obj = $(patsubst %.c,$(B)/obj/%.o,$(1))
LIB_A  := $(B)/libptop.a
UI_A   := $(B)/libptopui.a
BINS   := $(B)/ptop $(if $(wildcard ptop/tstime.c),$(B)/tstime)
UNIT_BINS   := $(patsubst tests/unit/%.c,$(B)/tests/unit/%,$(UNIT_SRCS))
HELPER_BINS := $(patsubst tests/helpers/%.c,$(B)/tests/helpers/%,$(HELPER_SRCS))

.PHONY: all run check unit-check asan-check integration-check vm-check bench \
	dkms-check deps test-deps install uninstall clean kmod dkms-install
.DEFAULT_GOAL := all
# keep objects that pattern rules made on the way (no rebuilds, no rm noise)
.SECONDARY:

all: $(BINS)

$(B)/obj/%.o: %.c
	$(NEED_PC)
	@mkdir -p $(@D)
	$(call say,CC,$<)
	$(Q)$(CC) $(CPPFLAGS) $(PC_CFLAGS) $(ALL_CFLAGS) -c -o $@ $<

$(LIB_A): $(call obj,$(LIB_SRCS))
	$(call say,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(UI_A): $(call obj,$(UI_SRCS))
	$(call say,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(B)/ptop: $(call obj,$(PTOP_SRCS)) $(UI_A) $(LIB_A)
	$(call say,LD,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(PC_LIBS) -lm

$(B)/tstime: $(call obj,$(TSTIME_SRCS)) $(UI_A) $(LIB_A)
	$(call say,LD,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(PC_LIBS) -lm

# --- tests ------------------------------------------------------------------
$(B)/obj/tests/unit/%.o: tests/unit/%.c
	$(call pc_check,cmocka:libcmocka-dev)
	@mkdir -p $(@D)
	$(call say,CC,$<)
	$(Q)$(CC) $(CPPFLAGS) $(PC_CFLAGS) $(CMOCKA_CFLAGS) $(ALL_CFLAGS) -c -o $@ $<

$(B)/tests/unit/test_%: $(B)/obj/tests/unit/test_%.o $(call obj,$(UNIT_HELPERS)) $(UI_A) $(LIB_A)
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(CMOCKA_LIBS) $(PC_LIBS) -lm

$(B)/tests/helpers/%: tests/helpers/%.c
	@mkdir -p $(@D)
	$(call say,CC,$<)
	$(Q)$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -o $@ $< -lpthread -lm

unit-check: $(UNIT_BINS)
	@fail=0; for t in $(UNIT_BINS); do \
		echo "== $$t"; $$t || fail=1; \
	done; exit $$fail

# each test's output also goes to $(B)/logs/; a failing test's FAIL lines
# are kept in $(FAILURES) so that `make check` can repeat them at its end
# (CI shows only the tail of the output)
FAILURES = $(B)/logs/failures.txt
run_logged = mkdir -p $(B)/logs/$(1); log=$(B)/logs/$(1)/$$(basename $$t).log; \
	{ $(2); } 2>&1 | tee $$log; rc=$${PIPESTATUS[0]}; \
	if [ $$rc != 0 ]; then echo "FAIL: $$t (exit $$rc)"; fail=1; \
		{ echo "-- $$t (exit $$rc):"; grep -E '^(FAIL|not ok)' $$log | head -20; } >>$(FAILURES); fi

integration-check: SHELL := /bin/bash
integration-check: all $(HELPER_BINS)
	@fail=0; for t in $(sort $(wildcard tests/integration/*.sh)); do \
		echo "== $$t"; $(call run_logged,integration,B=$(B) bash $$t); \
	done; exit $$fail

# not part of check: minutes per N (bench/run --help)
bench: all $(HELPER_BINS)
	python3 bench/run $(BENCH_ARGS)

vm-check: SHELL := /bin/bash
vm-check: all $(HELPER_BINS)
	@if [ -x tests/vm/run ]; then \
		fail=0; for t in $(sort $(wildcard tests/vm/test_*.sh)); do \
			echo "== vm: $$t"; $(call run_logged,vm-tests,tests/vm/run $$t); \
		done; exit $$fail; \
	else echo "vm-check: tests/vm/run missing"; exit 1; fi

dkms-check:
	@if [ -f kmod/dkms.conf ]; then bash tests/dkms/check.sh; \
	else echo "dkms-check: kmod/dkms.conf missing"; exit 1; fi

# the unit tests once more under AddressSanitizer + UBSan
ASAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
asan-check:
	$(MAKE) B=$(B)/asan CFLAGS="$(ASAN_FLAGS)" unit-check

# every suite runs even when an earlier one failed; the summary at the end
# names the failed suites and repeats their FAIL lines
CHECK_SUITES := unit-check asan-check integration-check \
	$(if $(wildcard kmod/Kbuild),vm-check) $(if $(wildcard kmod/dkms.conf),dkms-check)
check: test-deps
	$(MAKE) all
	@mkdir -p $(B)/logs && rm -f $(FAILURES); failed=; \
	for s in $(CHECK_SUITES); do $(MAKE) $$s || failed="$$failed $$s"; done; \
	if [ -n "$$failed" ]; then \
		echo "make check: FAILED:$$failed"; cat $(FAILURES) 2>/dev/null; exit 1; \
	fi; echo "make check: all suites passed"

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

test-deps: deps
	@m="$(call missing_debs,$(DEB_TEST))"; \
	if [ -n "$$m" ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "installing: $$m"; \
			DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $$m || \
			{ apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $$m; }; \
		else echo "missing Debian packages: $$m (run 'make test-deps' as root)"; exit 1; fi; \
	fi

run: deps
	$(MAKE) all
	./$(B)/ptop $(ARGS)

# --- kernel module ----------------------------------------------------------
kmod:
	$(MAKE) -C kmod

# copies the module's sources to $(DESTDIR)/usr/src/ptop_taskstats-<ver>;
# then: dkms install ptop_taskstats/<ver> && modprobe ptop_taskstats
dkms-install:
	$(MAKE) -C kmod dkms-install DESTDIR=$(DESTDIR)

# --- install ----------------------------------------------------------------
install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 755 $(BINS) $(DESTDIR)$(BINDIR)/
	for m in $(wildcard man/*.1); do install -m 644 $$m $(DESTDIR)$(MANDIR)/man1/; done
	$(if $(wildcard completions/ptop.bash),install -D -m 644 completions/ptop.bash $(DESTDIR)$(BASHCOMPDIR)/ptop)
	$(if $(wildcard completions/tstime.bash),install -D -m 644 completions/tstime.bash $(DESTDIR)$(BASHCOMPDIR)/tstime)
	$(if $(wildcard completions/_ptop),install -D -m 644 completions/_ptop $(DESTDIR)$(ZSHCOMPDIR)/_ptop)
	$(if $(wildcard completions/ptop.fish),install -D -m 644 completions/ptop.fish $(DESTDIR)$(FISHCOMPDIR)/ptop.fish)

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/ptop $(DESTDIR)$(BINDIR)/tstime
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(wildcard man/*.1)))
	rm -f $(DESTDIR)$(BASHCOMPDIR)/ptop $(DESTDIR)$(BASHCOMPDIR)/tstime
	rm -f $(DESTDIR)$(ZSHCOMPDIR)/_ptop $(DESTDIR)$(FISHCOMPDIR)/ptop.fish

clean:
	rm -rf $(B)/*.a $(B)/obj $(B)/ptop $(B)/tstime $(B)/tests
	-$(if $(wildcard kmod/Makefile),$(MAKE) -C kmod clean)

-include $(shell find $(B) -name '*.d' 2>/dev/null)
