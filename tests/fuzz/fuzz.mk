# libFuzzer targets (Debian's clang), included by the top Makefile.
#
#   make fuzz               every target for FUZZ_SECONDS (default 60) each
#   make fuzz FUZZ_TARGETS=config FUZZ_SECONDS=600
#   make fuzz-check         (in make check) the regression inputs once, then
#                           every target for FUZZ_CHECK_SECONDS (default 10;
#                           make check-all fuzzes each for 300 s: fuzz-long)
#
# tests/fuzz/fuzz_<t>.c is target <t>; tests/fuzz/corpus/<t>/ its seeds
# (committed, small, real); what a run finds goes to $(B)/fuzz/corpus/<t>/
# (not committed). A crash leaves $(B)/fuzz/crash-<t>-*: fix the bug, copy
# the input to tests/fuzz/regress/<t>/ so every fuzz-check replays it.

FUZZ_CC ?= $(firstword $(shell command -v clang-14 clang 2>/dev/null) clang)
FUZZ_SECONDS ?= 60
FUZZ_CHECK_SECONDS ?= 10
FUZZ_ALL := $(patsubst tests/fuzz/fuzz_%.c,%,$(sort $(wildcard tests/fuzz/fuzz_*.c)))
FUZZ_TARGETS ?= $(FUZZ_ALL)
FB := $(B)/fuzz
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS := -g -O1 -fno-omit-frame-pointer $(FUZZ_SAN) -fsanitize=fuzzer-no-link \
	-Wno-gnu-variable-sized-type-not-at-end
FUZZ_LIB_SRCS := $(LIB_SRCS) $(CFG_SRCS)
FUZZ_BINS := $(patsubst %,$(FB)/fuzz_%,$(FUZZ_ALL))

.PHONY: fuzz fuzz-build fuzz-check

$(FB)/obj/%.o: %.c
	$(NEED_PC)
	@mkdir -p $(@D)
	$(call say,FUZZCC,$<)
	$(Q)$(FUZZ_CC) $(ALL_CPPFLAGS) $(PC_CFLAGS) -std=gnu11 $(WARN) $(FUZZ_CFLAGS) -MMD -MP -c -o $@ $<

$(FB)/libptop.a: $(patsubst %.c,$(FB)/obj/%.o,$(FUZZ_LIB_SRCS))
	$(call say,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(FB)/fuzz_%: $(FB)/obj/tests/fuzz/fuzz_%.o $(FB)/libptop.a
	$(call say,LD,$@)
	$(Q)$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ $(PC_LIBS) -lm

fuzz-build: $(FUZZ_BINS)

# $(1) target, $(2) seconds at most. libFuzzer's output goes to the log;
# the summary line says target, seconds it ran, execs, coverage, corpus
# size, result.
fuzz_run = mkdir -p $(FB)/corpus/$(1) $(FB)/logs; \
	log=$(FB)/logs/$(1).log; t0=$$(date +%s); \
	$(FB)/fuzz_$(1) -max_total_time=$(2) -timeout=10 -rss_limit_mb=1024 \
		-print_final_stats=1 -artifact_prefix=$(FB)/crash-$(1)- \
		$(if $(wildcard tests/fuzz/$(1).dict),-dict=tests/fuzz/$(1).dict) \
		$(FB)/corpus/$(1) tests/fuzz/corpus/$(1) >$$log 2>&1; rc=$$?; \
	secs=$$(( $$(date +%s) - t0 )); \
	execs=$$(sed -n 's/^stat::number_of_executed_units: *//p' $$log); \
	cov=$$(grep -o 'cov: [0-9]*' $$log | tail -n1); \
	if [ $$rc = 0 ]; then res=ok; else res="FAILED (exit $$rc)"; fail=1; \
		grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' $$log | head -5; fi; \
	echo "fuzz $(1): $$secs s, $${execs:-?} execs, $$cov, corpus $$(ls $(FB)/corpus/$(1) | wc -l): $$res (log $$log)"

# each regression input once: a crash fixed stays fixed
fuzz_replay = if [ -n "$$(ls tests/fuzz/regress/$(1) 2>/dev/null)" ]; then \
	if $(FB)/fuzz_$(1) -runs=1 -artifact_prefix=$(FB)/regress-crash-$(1)- tests/fuzz/regress/$(1)/* >$(FB)/logs/$(1).regress.log 2>&1; \
	then echo "fuzz $(1): $$(ls tests/fuzz/regress/$(1) | wc -l) regression inputs: ok"; \
	else echo "FAIL: fuzz $(1): a regression input crashes (log $(FB)/logs/$(1).regress.log)"; fail=1; fi; fi

fuzz: fuzz-build
	@fail=0; for t in $(FUZZ_TARGETS); do \
		$(call fuzz_replay,$$t); $(call fuzz_run,$$t,$(FUZZ_SECONDS)); \
	done; exit $$fail

fuzz-check: fuzz-build
	@mkdir -p $(FB)/logs; fail=0; for t in $(FUZZ_ALL); do \
		$(call fuzz_replay,$$t); $(call fuzz_run,$$t,$(FUZZ_CHECK_SECONDS)); \
	done; exit $$fail

-include $(patsubst %.c,$(FB)/obj/%.d,$(FUZZ_LIB_SRCS) $(wildcard tests/fuzz/fuzz_*.c))
