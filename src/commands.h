/* commands.h - the subcommands, one entry each (src/cmd_<name>.c) */
#ifndef IBTOPO_COMMANDS_H
#define IBTOPO_COMMANDS_H

#include "cli.h"

extern const struct cli_cmd cmd_discover_entry;
extern const struct cli_cmd cmd_import_entry;
extern const struct cli_cmd cmd_snapshots_entry;
extern const struct cli_cmd cmd_fabrics_entry;
extern const struct cli_cmd cmd_whatif_entry;
extern const struct cli_cmd cmd_job_entry;
extern const struct cli_cmd cmd_show_entry;
extern const struct cli_cmd cmd_diff_entry;
extern const struct cli_cmd cmd_validate_entry;
extern const struct cli_cmd cmd_plan_entry;
extern const struct cli_cmd cmd_analyze_entry;
extern const struct cli_cmd cmd_render_entry;
extern const struct cli_cmd cmd_export_entry;
extern const struct cli_cmd cmd_health_entry;
extern const struct cli_cmd cmd_routes_entry;
extern const struct cli_cmd cmd_metrics_entry;
extern const struct cli_cmd cmd_serve_entry;

#endif
