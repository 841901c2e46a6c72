/* cmd_export.c - ibtopo export: a snapshot or fabric file in another format */
#include "commands.h"
#include "output_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	OPT_FORMAT = CLI_LONG,
	OPT_INPUT_FORMAT,
	OPT_HOST_NAMES,
	OPT_KUEUE_API,
	OPT_LABEL_PREFIX,
	OPT_HOSTS,
	OPT_SLURM_VERSION,
};

/* --hosts FILE: the cluster's members, one a line */
struct cli_lines {
	char **line;
	size_t n;
};

static void cli_lines_free(struct cli_lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->line[i]);
	free(l->line);
	memset(l, 0, sizeof(*l));
}

/* A member of a line: the first word, '#' starts a comment, "node/"
 * (kubectl get nodes -o name) dropped; NULL for none. */
static char *member_of(char *buf)
{
	char *w = buf + strspn(buf, " \t\r\n"), *e;

	if (*w == '#' || !*w)
		return NULL;
	e = w + strcspn(w, " \t\r\n#");
	*e = '\0';
	if (strncmp(w, "node/", 5) == 0)
		w += 5;
	return *w ? w : NULL;
}

static int cli_lines_read(struct cli_lines *l, const char *path)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	char buf[512], *m, **grown;
	size_t cap = 0;
	int rc = 0;

	if (!f)
		return cli_failf("--hosts %s: %s", path, strerror(errno));
	while (!rc && fgets(buf, sizeof(buf), f)) {
		m = member_of(buf);
		if (!m)
			continue;
		if (l->n == cap) {
			cap = cap ? 2 * cap : 64;
			grown = realloc(l->line, cap * sizeof(*grown));
			if (!grown) {
				rc = cli_failf("out of memory");
				break;
			}
			l->line = grown;
		}
		l->line[l->n] = strdup(m);
		if (!l->line[l->n])
			rc = cli_failf("out of memory");
		else
			l->n++;
	}
	if (!rc && ferror(f))
		rc = cli_failf("--hosts %s: read error", path);
	if (f != stdin)
		fclose(f);
	if (rc)
		cli_lines_free(l);
	return rc;
}

/* the format lists come from the library's tables of writers and readers */
static const struct cli_opt opts[] = {
	{ CLI_OPT_FIELDS(
		  "format", 0, 1, "FMT",
		  "output format: %s (default ibnetdiscover); 'list' prints every one"),
	  .id = OPT_FORMAT, .list = cli_export_formats },
	{ CLI_OPT_FIELDS("input-format", 0, 1, "FMT",
			 "format of an input FILE: %s"),
	  .id = OPT_INPUT_FORMAT, .list = cli_file_formats },
	CLI_LONG_OPT(
		OPT_HOST_NAMES, "host-names", 1, "HOW",
		"scheduler formats: 'name' (default) leaves out hosts without a "
		"name, 'guid' lists them as H-<guid>"),
	CLI_LONG_OPT(OPT_KUEUE_API, "kueue-api", 1, "VER",
		     "k8s: the Kueue Topology's API version, v1beta2 (default, "
		     "Kueue 0.15+) or v1beta1 (Kueue 0.14)"),
	CLI_LONG_OPT(OPT_LABEL_PREFIX, "label-prefix", 1, "PREFIX",
		     "k8s: label keys PREFIX<tier> (a DNS subdomain and '/'; "
		     "default topology.ibtopo.io/), or 'topograph' for "
		     "network.topology.nvidia.com/{leaf,spine,core}"),
	CLI_LONG_OPT(
		OPT_HOSTS, "hosts", 1, "FILE",
		"k8s: Nodes only for the cluster members FILE lists, one a "
		"line ('kubectl get nodes -o name' output too; '-' for stdin)"),
	CLI_LONG_OPT(
		OPT_SLURM_VERSION, "slurm-version", 1, "X.Y",
		"slurm-block: the Slurm the file is for (default 26.05); before "
		"26.05 the base block is the smallest, as 24.11 refuses a "
		"smaller block"),
	CLI_OPTS_ANALYSIS,
	/* options with a letter last: long-only ones are numbered by place */
	CLI_OPT_SAME(cli_opt_output),
	{ NULL },
};

static int cmd_export_exec(const struct cli_cmd *self, int argc, char **argv,
			   struct cli_global *g);

const struct cli_cmd cmd_export_entry = {
	.name = "export",
	.summary =
		"write a fabric as ibnetdiscover, ibsim, Slurm, Kubernetes, CSV, "
		"JSON or LFTs",
	.args = "[REF|FILE] [--format FMT] [-o FILE] [--node-name-map FILE] " CLI_ARGS_ANALYSIS,
	.details =
		"REF is a snapshot id, a label, 'latest' or 'latest~N' (default:\n"
		"latest); an existing FILE is read instead of the database.\n"
		"A partial snapshot is written as far as it goes, said on stderr,\n"
		"and export exits 3 (incomplete).\n"
		"Formats:\n"
		"  ibnetdiscover  as `ibnetdiscover` prints it; ibsim and `ibtopo\n"
		"                 import` read it back into the same fabric\n"
		"  ibsim          an ibsim net file: each port enables only its link's\n"
		"                 active width and speed, so the simulated fabric\n"
		"                 trains as this one ran; NDR and faster links are\n"
		"                 written as HDR (ibsim 0.10 stops there), with a\n"
		"                 warning\n"
		"  slurm          topology.conf for Slurm's topology/tree plugin: a\n"
		"                 leaf lists its hosts (Nodes=), a switch above the\n"
		"                 leaves switches of lower levels (Switches=),\n"
		"                 levels as `analyze` ranks them; each host under\n"
		"                 one leaf; a director is one switch, a scalable\n"
		"                 unit of rails one leaf, a Dragonfly+ group one\n"
		"                 leaf; a logical 'top' when no switch reaches\n"
		"                 every host. A host is the first word of its CA's\n"
		"                 description (give names with --node-name-map);\n"
		"                 hosts with the firmware's default description\n"
		"                 are left out with a warning (--host-names guid);\n"
		"  slurm-block    topology.conf for topology/block (Slurm 23.11+):\n"
		"                 a block per leaf of that tree, BlockSizes=\n"
		"                 from the base block (what at least half the\n"
		"                 blocks hold; the smallest with --slurm-version\n"
		"                 before 26.05) up to what enough blocks form\n"
		"  slurm-yaml     Slurm 25.05 topology.yaml with that tree, one\n"
		"                 topology named after the fabric (a file's:\n"
		"                 --fabric NAME, else the name the store gives it)\n"
		"  k8s            a Kueue Topology (kueue.x-k8s.io/v1beta2; see\n"
		"                 --kueue-api) and Node objects with a label per\n"
		"                 tier (topology.ibtopo.io/leaf, spine, core; see\n"
		"                 --label-prefix), for `kubectl apply\n"
		"                 --server-side --field-manager=ibtopo -f FILE`;\n"
		"                 every Node carries every level's label, a tier\n"
		"                 its path skips naming the switch above it, as\n"
		"                 Kueue ignores a Node that lacks one; --hosts\n"
		"                 FILE keeps only the cluster's members\n"
		"                 exit 2 when no host can be listed or names clash\n"
		"  csv            one row per link, as `show links --format csv`\n"
		"  json           " CLI_JSON
		",\"nodes\":[...],\"links\":[...]}\n"
		"  lfts           the switches' forwarding tables (discover --routes,\n"
		"                 import --routes) as OpenSM's opensm-lfts.dump, which\n"
		"                 `opensm -R file -U FILE` loads; exit 2 without tables\n"
		"--format list prints the formats, one a line (from the library's\n"
		"table of writers).\n"
		"Node-name maps: lines `0x<guid> \"name\"` (infiniband-diags),\n"
		"`0x<guid> name` or `H-<guid> name`; '#' starts a comment.",
	.opts = opts,
	.exec = cmd_export_exec,
	.flags = CLI_NEEDS_DB,
};

/* --hosts and --label-prefix are k8s'; the members into xo */
static int k8s_members(const struct cli_cmd *self,
		       enum ibtopo_export_format format, const char *hosts,
		       struct cli_lines *members, struct ibtopo_export_opts *xo)
{
	if ((hosts || xo->label_prefix) && format != IBTOPO_EXPORT_K8S)
		return cli_usage_error(self, "--%s is for --format k8s",
				       hosts ? "hosts" : "label-prefix");
	if (!hosts)
		return 0;
	if (cli_lines_read(members, hosts))
		return EXIT_TROUBLE;
	if (!members->n)
		return cli_failf("--hosts %s lists no host", hosts);
	xo->hosts = (const char *const *)members->line;
	xo->nhosts = members->n;
	return 0;
}

/*
 * The scheduler formats name a file's fabric --fabric NAME, else the
 * stored fabric that has its switches, as metrics does; a snapshot's is
 * its fabric in the store. 0 or the exit status.
 */
static int name_file_fabric(struct ibtopo_fabric *fabric,
			    const struct cli_global *g)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	const char *name = cli_fabric(g);
	char stored[80];

	if (ibtopo_fabric_meta(fabric)->fabric)
		return 0;
	if (!name)
		name = cli_stored_fabric_name(stored, sizeof(stored), fabric,
					      g);
	if (!name)
		return 0;
	if (!ibtopo_store_fabric_name_is_valid(name))
		return cli_failf("bad fabric name '%.64s' in IBTOPO_FABRIC",
				 name);
	if (ibtopo_fabric_set_fabric_name(fabric, name, &err))
		return cli_fail(&err);
	return 0;
}

static int cmd_export_exec(const struct cli_cmd *self, int argc, char **argv,
			   struct cli_global *g)
{
	char names[512];
	struct cli_source src = { .what = NULL };
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	enum ibtopo_export_format format = IBTOPO_EXPORT_IBNETDISCOVER;
	struct ibtopo_sink ro;
	struct ibtopo_fabric *fabric = NULL;
	struct output_file out;
	struct ibtopo_analyze_opts ao = IBTOPO_ANALYZE_OPTS_INIT;
	struct cli_state st = { .analyze = &ao, .global = g };
	struct ibtopo_analysis *an = NULL;
	struct ibtopo_export_opts xo = IBTOPO_EXPORT_OPTS_INIT;
	const char *output = NULL, *hosts = NULL;
	struct cli_lines members = { 0 };
	int c, v, rc;

	xo.warn = cli_warn;

	while ((c = cli_getopt(&st, argc, argv, self)) != -1) {
		switch (c) {
		case OPT_FORMAT:
			if (strcmp(st.optarg, "list") == 0)
				return cli_print_export_formats();
			v = ibtopo_export_format_parse(st.optarg);
			if (v < 0)
				return cli_usage_error(
					self, "unknown format '%s' (%s)",
					st.optarg,
					cli_export_formats(names,
							   sizeof(names)));
			format = (enum ibtopo_export_format)v;
			break;
		case 'o':
			output = st.optarg;
			break;
		case OPT_INPUT_FORMAT:
			if (!cli_parse_file_format(self, "input format",
						   st.optarg, &src.format))
				return EXIT_TROUBLE;
			break;
		case OPT_HOST_NAMES:
			if (strcmp(st.optarg, "guid") == 0)
				xo.flags |= IBTOPO_EXPORT_HOST_GUIDS;
			else if (strcmp(st.optarg, "name") != 0)
				return cli_usage_error(
					self,
					"unknown --host-names '%s' "
					"(name, guid)",
					st.optarg);
			break;
		case OPT_KUEUE_API:
			if (strcmp(st.optarg, "v1beta1") == 0)
				xo.kueue_api = IBTOPO_KUEUE_V1BETA1;
			else if (strcmp(st.optarg, "v1beta2") != 0)
				return cli_usage_error(
					self,
					"unknown --kueue-api '%s' "
					"(v1beta2, v1beta1)",
					st.optarg);
			break;
		case OPT_LABEL_PREFIX:
			xo.label_prefix = st.optarg;
			break;
		case OPT_HOSTS:
			hosts = st.optarg;
			break;
		case OPT_SLURM_VERSION:
			if (!cli_parse_slurm_version(st.optarg,
						     &xo.slurm_release))
				return cli_usage_error(
					self,
					"bad --slurm-version '%s' (X.Y, as "
					"24.11)",
					st.optarg);
			break;
		default:
			return cli_usage_error(self, "unexpected option");
		}
	}
	rc = k8s_members(self, format, hosts, &members, &xo);
	if (rc)
		return rc;
	if (cli_load_operand(&fabric, self, &st, argc, argv, g, &src))
		return EXIT_TROUBLE;
	rc = name_file_fabric(fabric, g);
	if (rc)
		goto out_free;
	/* the scheduler formats rank switches by the analysis' levels:
	 * the levels alone, as analyze ranks them with the same options */
	ao.topology.flags |=
		IBTOPO_TOPOLOGY_NO_PATHS | IBTOPO_TOPOLOGY_NO_SERVER_PAIRS;
	rc = cli_analysis(&an, fabric, &ao, g);
	if (!rc)
		rc = output_file_open(&out, output, true);
	if (rc)
		goto out_free;
	ro = output_file_opts(&out, IBTOPO_FORMAT_TEXT);
	if (ibtopo_export_losses(names, sizeof(names), fabric, format))
		cli_warn(NULL, names);
	if (ibtopo_analysis_write(&ro, an, format, &xo, &err)) {
		rc = output_file_fail(&out, &err);
		output_file_abort(&out);
		goto out_free;
	}
	rc = output_file_close(&out);
	/* written, from a snapshot that lacks part of the fabric */
	if (!rc && ibtopo_fabric_meta(fabric)->partial)
		rc = EXIT_INCOMPLETE;
out_free:
	ibtopo_analysis_free(an);
	ibtopo_fabric_free(fabric);
	cli_lines_free(&members);
	return rc;
}
