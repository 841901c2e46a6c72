#!/bin/sh
# tools/lint.sh - the checks that are not tests (tools/check.sh runs it):
#  - shellcheck over every shell script (settings in .shellcheckrc);
#  - clang-format (.clang-format, kernel style) must leave the C files
#    below as they are. The rest of the tree predates .clang-format:
#    formatting it whole would rewrite about 4,800 of its 35,000 lines
#    under the feet of everyone changing them, so a file joins the list
#    when it is formatted (clang-format -i FILE) in a commit of its own.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

formatted="src/*.c src/*.h lib/model/grow.c lib/export/write_csv.c lib/out/out-int.h lib/export/export-int.h"
formatted="$formatted lib/store/store-db.h lib/store/store_save.c lib/store/store_load.c"
formatted="$formatted lib/store/store_snapshots.c lib/cables/cables*.c lib/cables/cables-load.h"
formatted="$formatted lib/store/store_firmware.c"
formatted="$formatted lib/analysis/routes_net.c lib/analysis/topology_base.c"
formatted="$formatted lib/read/read_roots.c lib/read/read_thresholds.c lib/analysis/analyze_inputs.c"
formatted="$formatted lib/analysis/topology_levels.c lib/analysis/topology_ftree.c"
formatted="$formatted lib/analysis/topology_rules.c lib/analysis/paths_worst.c"
formatted="$formatted lib/analysis/check_ports.c"
formatted="$formatted lib/model/fabric_copy.c lib/model/findings_list.c lib/analysis/whatif*.c lib/analysis/whatif-int.h lib/report/report_whatif.c"
formatted="$formatted lib/report/report_whatif_reroute.c"
formatted="$formatted lib/model/hostlist.c lib/analysis/job.c lib/report/report_job.c"
formatted="$formatted lib/analysis/routes_walk.c lib/model/threads.c"
formatted="$formatted lib/analysis/check_subnet.c"
formatted="$formatted lib/findings/kinds_subnet.c lib/findings/families.c"
formatted="$formatted lib/diagram/*.c lib/diagram/diagram-int.h"
formatted="$formatted lib/report/report_analysis.c"
formatted="$formatted tests/helpers.c tests/helpers.h tests/test_cli_opts.c"
formatted="$formatted lib/export/metrics.c"
formatted="$formatted lib/export/metrics_many.c"
formatted="$formatted lib/store/store.c lib/store/store-db.h lib/store/store_fabrics.c lib/store/store_report.c lib/discover/discover_local.c lib/discover/discover_counters.c"
formatted="$formatted lib/discover/discover_repair.c lib/discover/discover-int.h lib/store/store-int.h lib/cables/cables-int.h"
formatted="$formatted lib/export/sched.c lib/export/sched_hostlist.c lib/export/sched.h lib/export/write_slurm.c"
formatted="$formatted lib/export/write_slurm_block.c lib/export/write_slurm_yaml.c lib/export/write_k8s.c"
formatted="$formatted lib/analysis/health_ber.c lib/report/report_health_ber.c lib/report/report-health.h"
formatted="$formatted lib/analysis/health_history.c lib/report/report_health_history.c lib/store/store_history.c"
formatted="$formatted lib/analysis/subnet_managers.c lib/report/report_subnet_managers.c lib/analysis/sections.h"
formatted="$formatted lib/model/pkeys.c lib/discover/sweep_pkey.c lib/analysis/check_pkeys.c lib/findings/kinds_pkeys.c"
formatted="$formatted lib/model/mcast.c lib/read/read_mcfdbs.c lib/include/ibtopo/mcast.h"
formatted="$formatted lib/discover/discover_mcast.c lib/store/store_mcast.c lib/analysis/routes_mcast.c lib/findings/kinds_mcast.c lib/report/report_mcast.c"
formatted="$formatted lib/discover/gets.c"

status=0
if command -v shellcheck >/dev/null 2>&1; then
	if command -v git >/dev/null 2>&1 && [ -e .git ]; then
		scripts=$(git ls-files '*.sh' .ci/run tests/lib.sh)
	else
		scripts=$(find . -name '*.sh' -o -path ./.ci/run)
	fi
	# shellcheck disable=SC2086 # one word per script
	shellcheck -S warning $scripts || status=1
else
	echo "lint: shellcheck not found (tools/install-deps.sh installs it)" >&2
	status=1
fi

if command -v clang-format >/dev/null 2>&1; then
	# shellcheck disable=SC2086 # the globs above
	for f in $formatted; do
		if ! clang-format "$f" | cmp -s - "$f"; then
			echo "lint: clang-format would change $f:" >&2
			clang-format "$f" | diff -u "$f" - | head -40 >&2
			status=1
		fi
	done
else
	echo "lint: clang-format not found (tools/install-deps.sh installs it)" >&2
	status=1
fi
[ "$status" -eq 0 ] && echo "lint: shellcheck and clang-format clean"
exit "$status"
