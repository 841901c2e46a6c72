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
	CLI_LONG_OPT(OPT_LEAVES, "leaves", 1, "L",
		     "leaf switches (per pod with --levels 3)"),
	CLI_LONG_OPT(OPT_SPINES, "spines", 1, "S",
		     "spine switches (per pod with --levels 3)"),
	CLI_LONG_OPT(OPT_HOSTS, "hosts-per-leaf", 1, "H",
		     "hosts on each leaf, one cable each"),
	CLI_LONG_OPT(OPT_UPLINKS, "uplinks", 1, "U",
		     "cables from each leaf to the spines "
		     "(default: H, non-blocking)"),
	CLI_LONG_OPT(OPT_SPEED, "speed", 1, "SPEED",
		     "planned link speed (default HDR)"),
	CLI_LONG_OPT(OPT_WIDTH, "width", 1, "WIDTH",
		     "planned link width (default 4x)"),
	CLI_LONG_OPT(OPT_RADIX, "radix", 1, "N",
		     "ports per switch (default 40)"),
	CLI_LONG_OPT(OPT_LEVELS, "levels", 1, "2|3",
		     "2: leaves and spines (default); 3: pods "
		     "under core switches"),
	CLI_LONG_OPT(OPT_PODS, "pods", 1, "P", "pods (--levels 3)"),
	CLI_LONG_OPT(OPT_FORMAT, "format", 1, "FMT",
		     "ibnetdiscover (a plan, default) or ibsim"),
	CLI_LONG_OPT(OPT_SERVERS, "servers", 1, "N", "rail-optimized: servers"),
	CLI_LONG_OPT(OPT_RAILS, "rails", 1, "R",
		     "rail-optimized: HCAs per server, one rail each"),
	CLI_LONG_OPT(
		OPT_UNIT, "unit", 1, "N",
		"rail-optimized: servers per scalable unit (default radix/2)"),
	CLI_LONG_OPT(OPT_GROUPS, "groups", 1, "G",
		     "dragonfly-plus: groups of leaves and spines"),
	CLI_LONG_OPT(
		OPT_GLOBAL, "global", 1, "K",
		"dragonfly-plus: links between every two groups (default 1)"),
	CLI_OPT_SAME(cli_opt_output),
	{ NULL },
};

static int cmd_plan_exec(const struct cli_cmd *self, int argc, char **argv,
			 struct cli_global *g);

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

struct plan_args {
	struct ibtopo_plan_params p;
	struct ibtopo_plan_rail_params rp;
	struct ibtopo_plan_dragonfly_params dp;
	enum ibtopo_file_format format;
	const char *output;
};

/* The count a counting option sets, and why 0 is refused (NULL: it is not). */
static unsigned *count_of(struct plan_args *a, int c, const char **zero)
{
	*zero = NULL;
	switch (c) {
	case OPT_LEAVES:
		return &a->p.leaves;
	case OPT_SPINES:
		return &a->p.spines;
	case OPT_HOSTS:
		return &a->p.hosts_per_leaf;
	case OPT_UPLINKS:
		*zero = "'--uplinks 0': leaves need at least one uplink";
		return &a->p.uplinks;
	case OPT_RADIX:
		*zero = "'--radix 0' out of range";
		return &a->p.radix;
	case OPT_LEVELS:
		*zero = "'--levels 0': a fat tree has 2 or 3 levels";
		return &a->p.levels;
	case OPT_PODS:
		return &a->p.pods;
	case OPT_SERVERS:
		return &a->rp.servers;
	case OPT_RAILS:
		return &a->rp.rails;
	case OPT_GROUPS:
		return &a->dp.groups;
	case OPT_GLOBAL:
		*zero = "'--global 0': groups need a global link";
		return &a->dp.global;
	case OPT_UNIT:
		*zero = "'--unit 0': a unit has servers";
		return &a->rp.unit;
	default:
		return NULL;
	}
}

static const struct cli_keyword format_words[] = {
	{ "ibnetdiscover", IBTOPO_FILE_IBNETDISCOVER },
	{ "plan", IBTOPO_FILE_IBNETDISCOVER }, /* not in the message */
	{ "ibsim", IBTOPO_FILE_IBSIM },
	{ NULL, 0 },
};

/* The options into *a; the shape's index in argv into *shape. */
static int parse_args(struct plan_args *a, int *shape,
		      const struct cli_cmd *self, struct cli_global *g,
		      int argc, char **argv)
{
	struct cli_state st = { .global = g };
	const char *zero;
	unsigned *count;
	int c, v;

	while ((c = cli_getopt(&st, argc, argv, self)) != -1) {
		count = count_of(a, c, &zero);
		if (count) {
			if (!parse_count(self, st.row->long_name, st.optarg,
					 count))
				return EXIT_TROUBLE;
			/* 0 would read as "not given" */
			if (!*count)
				return zero ? cli_usage_error(self, "%s",
							      zero) :
					      cli_usage_error(
						      self,
						      "'--%s 0': at least 1",
						      st.row->long_name);
			continue;
		}
		switch (c) {
		case OPT_SPEED:
			a->p.speed = ibtopo_speed_parse(st.optarg);
			if (!a->p.speed)
				return cli_usage_error(
					self, "unknown speed '%s' (SDR .. XDR)",
					st.optarg);
			break;
		case OPT_WIDTH:
			a->p.width = ibtopo_width_parse(st.optarg);
			if (!a->p.width)
				return cli_usage_error(
					self,
					"unknown width '%s' (1x, 2x, 4x, 8x, 12x)",
					st.optarg);
			break;
		case OPT_FORMAT:
			if (!cli_keyword_find(format_words, st.optarg, &v))
				return cli_usage_error(
					self,
					"unknown format '%s' (ibnetdiscover or ibsim)",
					st.optarg);
			a->format = (enum ibtopo_file_format)v;
			break;
		case 'o':
			a->output = st.optarg;
			break;
		default:
			return cli_usage_error(self, "unexpected option");
		}
	}
	if (argc - st.optind < 1)
		return cli_usage_error(
			self, "plan needs a shape: fat-tree or rail-optimized");
	*shape = st.optind;
	return 0;
}

static int plan_dragonfly(struct ibtopo_fabric **plan, struct plan_args *a,
			  const struct cli_cmd *self)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_plan_dragonfly_params *dp = &a->dp;
	const struct ibtopo_plan_params *p = &a->p;

	if (a->rp.servers || a->rp.rails || a->rp.unit || p->levels || p->pods)
		return cli_usage_error(self,
				       "dragonfly-plus does not take --%s",
				       a->rp.servers ? "servers" :
				       a->rp.rails   ? "rails" :
				       a->rp.unit    ? "unit" :
				       p->levels     ? "levels" :
						       "pods");
	if (!dp->groups || !p->leaves || !p->spines || !p->hosts_per_leaf)
		return cli_usage_error(self, "dragonfly-plus needs --%s",
				       !dp->groups ? "groups" :
				       !p->leaves  ? "leaves" :
				       !p->spines  ? "spines" :
						     "hosts-per-leaf");
	dp->leaves = p->leaves;
	dp->spines = p->spines;
	dp->hosts_per_leaf = p->hosts_per_leaf;
	dp->uplinks = p->uplinks;
	dp->radix = p->radix;
	dp->speed = p->speed;
	dp->width = p->width;
	return ibtopo_plan_dragonfly_plus(plan, dp, &err) ? cli_fail(&err) : 0;
}

static int plan_rails(struct ibtopo_fabric **plan, struct plan_args *a,
		      const struct cli_cmd *self)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_plan_rail_params *rp = &a->rp;
	const struct ibtopo_plan_params *p = &a->p;

	if (p->leaves || p->hosts_per_leaf || p->levels || p->pods)
		return cli_usage_error(
			self,
			"rail-optimized takes --servers, --rails, --spines and --unit, not --%s",
			p->leaves	  ? "leaves" :
			p->hosts_per_leaf ? "hosts-per-leaf" :
			p->levels	  ? "levels" :
					    "pods");
	if (!rp->servers || !rp->rails || !p->spines)
		return cli_usage_error(self, "rail-optimized needs --%s",
				       !rp->servers ? "servers" :
				       !rp->rails   ? "rails" :
						      "spines");
	rp->spines = p->spines;
	rp->uplinks = p->uplinks;
	rp->radix = p->radix;
	rp->speed = p->speed;
	rp->width = p->width;
	return ibtopo_plan_rail_optimized(plan, rp, &err) ? cli_fail(&err) : 0;
}

static int plan_fat_tree(struct ibtopo_fabric **plan, struct plan_args *a,
			 const struct cli_cmd *self)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	const struct ibtopo_plan_params *p = &a->p;

	if (a->rp.servers || a->rp.rails || a->rp.unit)
		return cli_usage_error(self, "fat-tree does not take --%s",
				       a->rp.servers ? "servers" :
				       a->rp.rails   ? "rails" :
						       "unit");
	if (!p->leaves || !p->spines || !p->hosts_per_leaf)
		return cli_usage_error(self, "fat-tree needs --%s",
				       !p->leaves ? "leaves" :
				       !p->spines ? "spines" :
						    "hosts-per-leaf");
	return ibtopo_plan_fat_tree(plan, p, &err) ? cli_fail(&err) : 0;
}

static const struct {
	const char *name;
	int (*build)(struct ibtopo_fabric **plan, struct plan_args *a,
		     const struct cli_cmd *self);
} shapes[] = {
	{ "fat-tree", plan_fat_tree },
	{ "rail-optimized", plan_rails },
	{ "dragonfly-plus", plan_dragonfly },
};

static int cmd_plan_exec(const struct cli_cmd *self, int argc, char **argv,
			 struct cli_global *g)
{
	struct plan_args a = {
		.p = IBTOPO_PLAN_PARAMS_INIT,
		.rp = IBTOPO_PLAN_RAIL_PARAMS_INIT,
		.dp = IBTOPO_PLAN_DRAGONFLY_PARAMS_INIT,
		.format = IBTOPO_FILE_IBNETDISCOVER,
	};
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *plan = NULL;
	struct ibtopo_sink ro;
	struct output_file out;
	const char *shape;
	size_t k = 0;
	int rc, at = 0;

	rc = parse_args(&a, &at, self, g, argc, argv);
	if (rc)
		return rc;
	shape = argv[at];
	while (k < sizeof(shapes) / sizeof(shapes[0]) &&
	       strcmp(shapes[k].name, shape) != 0)
		k++;
	if (k == sizeof(shapes) / sizeof(shapes[0]))
		return cli_usage_error(
			self,
			"unknown shape '%s' (fat-tree, rail-optimized or dragonfly-plus)",
			shape);
	if (shapes[k].build != plan_dragonfly && (a.dp.groups || a.dp.global))
		return cli_usage_error(self, "%s does not take --%s", shape,
				       a.dp.groups ? "groups" : "global");
	if (argc - at > 1)
		return cli_usage_error(self, "unexpected argument '%s'",
				       argv[at + 1]);
	rc = shapes[k].build(&plan, &a, self);
	if (rc)
		return rc;
	rc = output_file_open(&out, a.output, true);
	if (rc)
		goto out_free_plan;
	ro = output_file_opts(&out, IBTOPO_FORMAT_TEXT);
	if (ibtopo_plan_write(&ro, plan, a.format, &err)) {
		rc = output_file_fail(&out, &err);
		output_file_abort(&out);
		goto out_free_plan;
	}
	rc = output_file_close(&out);
out_free_plan:
	ibtopo_fabric_free(plan);
	return rc;
}
