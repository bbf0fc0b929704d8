#!/usr/bin/env bash
# bench/run inside the VM with the module: tests/vm/run runs its SCRIPT
# with bash, and bench/run is Python (make bench-vm calls this).
#   tests/vm/run bench/run_vm.sh [bench/run's arguments]
set -euo pipefail
exec python3 "$(dirname "$0")/run" "$@"
