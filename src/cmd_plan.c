/* cmd_plan.c - ibtopo plan: write a planned topology from parameters */
#include "commands.h"
#include "output_file.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

enum {
	OPT_LEAVES = CLI_LONG,
	OPT_SPINES,
	OPT_HOSTS,
	OPT_UPLINKS,
	OPT_SPEED,
	OPT_WIDTH,
	OPT_RADIX,
	OPT_LEVELS,
	OPT_PODS,
	OPT_FORMAT,
	OPT_SERVERS,
	OPT_RAILS,
	OPT_UNIT,
	OPT_GROUPS,
	OPT_GLOBAL,
};

static const struct cli_opt opts[] = {
	{ "leaves", 0, 1, "L", "leaf switches (per pod with --levels 3)" },
	{ "spines", 0, 1, "S", "spine switches (per pod with --levels 3)" },
	{ "hosts-per-leaf", 0, 1, "H", "hosts on each leaf, one cable each" },
	{ "uplinks", 0, 1, "U",
	  "cables from each leaf to the spines "
	  "(default: H, non-blocking)" },
	{ "speed", 0, 1, "SPEED", "planned link speed (default HDR)" },
	{ "width", 0, 1, "WIDTH", "planned link width (default 4x)" },
	{ "radix", 0, 1, "N", "ports per switch (default 40)" },
	{ "levels", 0, 1, "2|3",
	  "2: leaves and spines (default); 3: pods "
	  "under core switches" },
	{ "pods", 0, 1, "P", "pods (--levels 3)" },
	{ "format", 0, 1, "FMT", "ibnetdiscover (a plan, default) or ibsim" },
	{ "servers", 0, 1, "N", "rail-optimized: servers" },
	{ "rails", 0, 1, "R",
	  "rail-optimized: HCAs per server, one rail each" },
	{ "unit", 0, 1, "N",
	  "rail-optimized: servers per scalable unit (default radix/2)" },
	{ "groups", 0, 1, "G", "dragonfly-plus: groups of leaves and spines" },
	{ "global", 0, 1, "K",
	  "dragonfly-plus: links between every two groups (default 1)" },
	{ "output", 'o', 1, "FILE",
	  "write into FILE ('-' = standard output, the default)" },
	{ NULL },
};

static int cmd_plan_exec(const struct cli_cmd *self, int argc, char **argv,
			 const struct cli_global *g);

const struct cli_cmd cmd_plan_entry = {
	.name = "plan",
	.summary =
		"write a planned fat-tree, rail-optimized or Dragonfly+ topology",
	.args = "fat-tree --leaves L --spines S --hosts-per-leaf H [--uplinks U]\n"
		"       [--speed HDR] [--width 4x] [--radix 40] [--levels 2|3]\n"
		"       [--pods P] [--format ibnetdiscover|ibsim] [-o FILE]\n"
		"       rail-optimized --servers N --rails R --spines S [--unit N]\n"
		"       [--uplinks U] [--speed HDR] [--width 4x] [--radix 40] ...\n"
		"       dragonfly-plus --groups G --leaves L --spines S\n"
		"       --hosts-per-leaf H [--global K] [--uplinks U] ...",
	.details =
		"Leaf ports 1..H take the hosts (hostNNN, port 1), ports H+1..H+U\n"
		"the uplinks: uplink k goes to spine k mod S, spines numbering\n"
		"their down ports in leaf order. With --levels 3 every pod spine\n"
		"has as many cables up as down, to its own group of core switches,\n"
		"and each core takes one cable from every pod (--radix 36 --pods\n"
		"36 --leaves 18 --spines 18 --hosts-per-leaf 18: 11,664 hosts).\n"
		"Shapes that do not fit the radix are refused with the reason.\n"
		"--format ibnetdiscover writes a plan for 'ibtopo validate': node\n"
		"names where ibnetdiscover prints GUIDs, the planned width and\n"
		"speed in each port's trailer. --format ibsim writes a net file to\n"
		"simulate the plan: ibsim -s -n FILE.\n"
		"rail-optimized (DGX SuperPOD style): N servers of R HCAs in\n"
		"scalable units of --unit servers; each unit has a leaf per rail\n"
		"(rail<K>-suNN), HCA k of its servers (\"dgxNNN mlx5_<k>\") on the\n"
		"leaf of rail k, ports 1..unit; each leaf has U uplinks (default:\n"
		"the unit, non-blocking), uplink k to spine k mod S.\n"
		"dragonfly-plus: G groups (gNN-leafNN, gNN-spineNN), every leaf\n"
		"cabled to each spine of its group (U / S times, default once),\n"
		"every two groups joined by K global links between spines, group\n"
		"a's global links to the other groups in order, the k-th on\n"
		"spine k mod S (the count must spread evenly over the spines).",
	.opts = opts,
	.exec = cmd_plan_exec,
};

static bool parse_count(const struct cli_cmd *self, const char *name,
			const char *arg, unsigned *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-' || v > 100000) {
		cli_usage_error(self, "bad --%s '%s': expected a count", name,
				arg);
		return false;
	}
	*out = (unsigned)v;
	return true;
}

static int cmd_plan_exec(const struct cli_cmd *self, int argc, char **argv,
			 const struct cli_global *g)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_plan_params p = IBTOPO_PLAN_PARAMS_INIT;
	struct ibtopo_plan_rail_params rp = IBTOPO_PLAN_RAIL_PARAMS_INIT;
	struct ibtopo_plan_dragonfly_params dp =
		IBTOPO_PLAN_DRAGONFLY_PARAMS_INIT;
	bool rails, dragonfly;
	enum ibtopo_file_format format = IBTOPO_FILE_IBNETDISCOVER;
	struct ibtopo_fabric *plan = NULL;
	struct ibtopo_sink ro;
	struct cli_state st = { 0 };
	struct output_file out;
	const char *output = NULL;
	bool ok = true;
	int c, rc;

	while ((c = cli_getopt(&st, argc, argv, self)) != -1 && ok) {
		switch (c) {
		case OPT_LEAVES:
			ok = parse_count(self, "leaves", st.optarg, &p.leaves);
			break;
		case OPT_SPINES:
			ok = parse_count(self, "spines", st.optarg, &p.spines);
			break;
		case OPT_HOSTS:
			ok = parse_count(self, "hosts-per-leaf", st.optarg,
					 &p.hosts_per_leaf);
			break;
		case OPT_UPLINKS:
			ok = parse_count(self, "uplinks", st.optarg,
					 &p.uplinks);
			if (ok && !p.uplinks)
				return cli_usage_error(
					self,
					"'--uplinks 0': leaves need at least one uplink");
			break;
		case OPT_RADIX:
			ok = parse_count(self, "radix", st.optarg, &p.radix);
			if (ok && !p.radix)
				return cli_usage_error(
					self, "'--radix 0' out of range");
			break;
		case OPT_LEVELS:
			ok = parse_count(self, "levels", st.optarg, &p.levels);
			if (ok && !p.levels)
				return cli_usage_error(
					self,
					"'--levels 0': a fat tree has 2 or 3 levels");
			break;
		case OPT_PODS:
			ok = parse_count(self, "pods", st.optarg, &p.pods);
			break;
		case OPT_SERVERS:
			ok = parse_count(self, "servers", st.optarg,
					 &rp.servers);
			break;
		case OPT_RAILS:
			ok = parse_count(self, "rails", st.optarg, &rp.rails);
			break;
		case OPT_GROUPS:
			ok = parse_count(self, "groups", st.optarg, &dp.groups);
			break;
		case OPT_GLOBAL:
			ok = parse_count(self, "global", st.optarg, &dp.global);
			if (ok && !dp.global)
				return cli_usage_error(
					self,
					"'--global 0': groups need a global link");
			break;
		case OPT_UNIT:
			ok = parse_count(self, "unit", st.optarg, &rp.unit);
			if (ok && !rp.unit)
				return cli_usage_error(
					self, "'--unit 0': a unit has servers");
			break;
		case OPT_SPEED:
			p.speed = ibtopo_speed_parse(st.optarg);
			if (!p.speed)
				return cli_usage_error(
					self, "unknown speed '%s' (SDR .. XDR)",
					st.optarg);
			break;
		case OPT_WIDTH:
			p.width = ibtopo_width_parse(st.optarg);
			if (!p.width)
				return cli_usage_error(
					self,
					"unknown width '%s' (1x, 2x, 4x, 8x, 12x)",
					st.optarg);
			break;
		case OPT_FORMAT:
			if (strcmp(st.optarg, "ibnetdiscover") == 0 ||
			    strcmp(st.optarg, "plan") == 0)
				format = IBTOPO_FILE_IBNETDISCOVER;
			else if (strcmp(st.optarg, "ibsim") == 0)
				format = IBTOPO_FILE_IBSIM;
			else
				return cli_usage_error(
					self,
					"unknown format '%s' (ibnetdiscover or ibsim)",
					st.optarg);
			break;
		case 'o':
			output = st.optarg;
			break;
		default:
			return cli_usage_error(self, "unexpected option");
		}
	}
	if (!ok)
		return EXIT_TROUBLE;
	if (argc - st.optind < 1)
		return cli_usage_error(
			self, "plan needs a shape: fat-tree or rail-optimized");
	rails = strcmp(argv[st.optind], "rail-optimized") == 0;
	dragonfly = strcmp(argv[st.optind], "dragonfly-plus") == 0;
	if (!rails && !dragonfly && strcmp(argv[st.optind], "fat-tree") != 0)
		return cli_usage_error(
			self,
			"unknown shape '%s' (fat-tree, rail-optimized or dragonfly-plus)",
			argv[st.optind]);
	if (!dragonfly && (dp.groups || dp.global))
		return cli_usage_error(self, "%s does not take --%s",
				       argv[st.optind],
				       dp.groups ? "groups" : "global");
	if (dragonfly &&
	    (rp.servers || rp.rails || rp.unit || p.levels || p.pods))
		return cli_usage_error(self,
				       "dragonfly-plus does not take --%s",
				       rp.servers ? "servers" :
				       rp.rails	  ? "rails" :
				       rp.unit	  ? "unit" :
				       p.levels	  ? "levels" :
						    "pods");
	if (argc - st.optind > 1)
		return cli_usage_error(self, "unexpected argument '%s'",
				       argv[st.optind + 1]);
	if (dragonfly) {
		if (!dp.groups || !p.leaves || !p.spines || !p.hosts_per_leaf)
			return cli_usage_error(self,
					       "dragonfly-plus needs --%s",
					       !dp.groups ? "groups" :
					       !p.leaves  ? "leaves" :
					       !p.spines  ? "spines" :
							    "hosts-per-leaf");
		dp.leaves = p.leaves;
		dp.spines = p.spines;
		dp.hosts_per_leaf = p.hosts_per_leaf;
		dp.uplinks = p.uplinks;
		dp.radix = p.radix;
		dp.speed = p.speed;
		dp.width = p.width;
		if (ibtopo_plan_dragonfly_plus(&plan, &dp, &err))
			return cli_fail(&err);
	} else if (rails) {
		if (p.leaves || p.hosts_per_leaf || p.levels || p.pods)
			return cli_usage_error(
				self,
				"rail-optimized takes --servers, --rails, --spines and --unit, not --%s",
				p.leaves	 ? "leaves" :
				p.hosts_per_leaf ? "hosts-per-leaf" :
				p.levels	 ? "levels" :
						   "pods");
		if (!rp.servers || !rp.rails || !p.spines)
			return cli_usage_error(self,
					       "rail-optimized needs --%s",
					       !rp.servers ? "servers" :
					       !rp.rails   ? "rails" :
							     "spines");
		rp.spines = p.spines;
		rp.uplinks = p.uplinks;
		rp.radix = p.radix;
		rp.speed = p.speed;
		rp.width = p.width;
		if (ibtopo_plan_rail_optimized(&plan, &rp, &err))
			return cli_fail(&err);
	} else {
		if (rp.servers || rp.rails || rp.unit)
			return cli_usage_error(self,
					       "fat-tree does not take --%s",
					       rp.servers ? "servers" :
					       rp.rails	  ? "rails" :
							    "unit");
		if (!p.leaves || !p.spines || !p.hosts_per_leaf)
			return cli_usage_error(self, "fat-tree needs --%s",
					       !p.leaves ? "leaves" :
					       !p.spines ? "spines" :
							   "hosts-per-leaf");
		if (ibtopo_plan_fat_tree(&plan, &p, &err))
			return cli_fail(&err);
	}
	rc = output_file_open(&out, output, true);
	if (rc)
		goto out_free_plan;
	ro = output_file_opts(&out, IBTOPO_FORMAT_TEXT);
	if (ibtopo_plan_write(&ro, plan, format, &err)) {
		rc = output_file_fail(&out, &err);
		output_file_abort(&out);
		goto out_free_plan;
	}
	rc = output_file_close(&out);
out_free_plan:
	ibtopo_fabric_free(plan);
	return rc;
}
