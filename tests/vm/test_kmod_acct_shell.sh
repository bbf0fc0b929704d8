#!/bin/bash
# c* folds against the kernel's count (split from test_kmod_acct): this
# shell's c* grows by the T + C of the groups folded into it plus their
# exit paths after their EXIT records, never less, and never more than the
# kernel's count of the shell's waited children (bash's `times`) + 2 ms +
# 1%. It was a known defect (1 run in 3 up to +125 ms over): the reference
# itself was off, by the two awk children that turned the `times` readings
# into numbers (100-300 ms each at host load: one in the kernel's count
# only, one in the c* only); see docs/reliability.md.
. "$(dirname "$0")/kmod_common.sh"
require_module
W=$(mktemp -d)
ACCT_UPPER=1
ACCT_CHECK="waited children: c* = the kernel's wait4 totals; this shell's c* between the folds and the kernel's count"
. "$(dirname "$0")/acct_waited.sh"
check_idle_state "acct_shell"
check_dmesg "acct_shell"
rm -rf "$W"
finish test_kmod_acct_shell
