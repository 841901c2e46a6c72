/*
 * gen-fabric - write a generated test fabric, or analyze one.
 *
 *   gen-fabric [PARAMS] SHAPE                 net file on stdout (ibsim)
 *   gen-fabric --format ibnetdiscover ...     ibnetdiscover text instead
 *   gen-fabric --analyze [--json] [PARAMS] SHAPE|FILE
 *   gen-fabric --bench DIR [PARAMS] SHAPE     time the leaf-pair analysis,
 *                                             write DIR/switch-graph.tsv and
 *                                             DIR/leaf-pairs.tsv for a check
 *
 * SHAPE: ft2 ft3 single star ring mesh grid torus director rails dragonfly.
 * PARAMS: --pods N --leaves N --spines N --cores N --hosts N --links N
 *   --core-links N --dual --switches N --rows N --cols N --radix N
 *   --directors N --lines N --idle N (director: also --spines, --leaves)
 *   --rails N --units N (rails: also --hosts per unit, --spines, --links)
 *   --groups N --global N (dragonfly: also --leaves, --spines, --hosts)
 *   --speed NAME --host-speed NAME --fault NAME (same-level, drop-uplink,
 *   missing-spine, level-skip, host-on-spine, piled, ca-to-ca,
 *   piled-across, swap-rail, missing-rail, missing-global; repeatable)
 *   --min-paths N --roots FILE --root-pattern REGEX (analysis)
 *
 * Uses the public API only.
 */
#include "fabricgen.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void usage(void)
{
	fprintf(stderr, "usage: gen-fabric [--analyze [--json] | --bench DIR] "
		"[--format ibsim|ibnetdiscover] [PARAMS] SHAPE|FILE\n");
	exit(2);
}

static unsigned num(const char *s)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > 100000) {
		fprintf(stderr, "gen-fabric: bad number '%s'\n", s);
		exit(2);
	}
	return (unsigned)v;
}

static unsigned fault(const char *s)
{
	static const struct { const char *name; unsigned bit; } f[] = {
		{ "same-level", FG_FAULT_SAME_LEVEL },
		{ "drop-uplink", FG_FAULT_DROP_UPLINK },
		{ "missing-spine", FG_FAULT_MISSING_SPINE },
		{ "level-skip", FG_FAULT_LEVEL_SKIP },
		{ "host-on-spine", FG_FAULT_HOST_ON_SPINE },
		{ "piled", FG_FAULT_PILED },
		{ "ca-to-ca", FG_FAULT_CA_TO_CA },
		{ "piled-across", FG_FAULT_PILED_ACROSS },
		{ "swap-rail", FG_FAULT_SWAP_RAIL },
		{ "missing-rail", FG_FAULT_MISSING_RAIL },
		{ "missing-global", FG_FAULT_MISSING_GLOBAL },
	};

	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (strcmp(s, f[i].name) == 0)
			return f[i].bit;
	fprintf(stderr, "gen-fabric: unknown fault '%s'\n", s);
	exit(2);
}

static int shape(const char *s, struct fg_params *p)
{
	if (strcmp(s, "ft2") == 0)
		p->levels = 2;
	else if (strcmp(s, "ft3") == 0)
		p->levels = 3;
	else if (strcmp(s, "single") == 0)
		p->shape = FG_SINGLE;
	else if (strcmp(s, "star") == 0)
		p->shape = FG_STAR;
	else if (strcmp(s, "ring") == 0)
		p->shape = FG_RING;
	else if (strcmp(s, "mesh") == 0)
		p->shape = FG_MESH;
	else if (strcmp(s, "grid") == 0)
		p->shape = FG_GRID;
	else if (strcmp(s, "torus") == 0)
		p->shape = FG_TORUS;
	else if (strcmp(s, "director") == 0)
		p->shape = FG_DIRECTOR;
	else if (strcmp(s, "rails") == 0)
		p->shape = FG_RAILS;
	else if (strcmp(s, "dragonfly") == 0)
		p->shape = FG_DRAGONFLY;
	else
		return -1;
	return 0;
}

static int write_pairs(const char *dir, const struct ibtopo_fabric *f,
		       const struct ibtopo_topology *t)
{
	char path[4096];
	FILE *g, *l;
	size_t n = ibtopo_fabric_node_count(f);

	snprintf(path, sizeof(path), "%s/switch-graph.tsv", dir);
	g = fopen(path, "w");
	snprintf(path, sizeof(path), "%s/leaf-pairs.tsv", dir);
	l = fopen(path, "w");
	if (!g || !l) {
		fprintf(stderr, "gen-fabric: cannot write in '%s': %s\n", dir,
			strerror(errno));
		if (g)
			fclose(g);
		if (l)
			fclose(l);
		return -1;
	}
	/* every cable between two switches, one line each */
	for (size_t i = 0; i < ibtopo_fabric_link_count(f); i++) {
		const struct ibtopo_link *k = ibtopo_fabric_link(f, i);

		if (k->a->node->type == IBTOPO_NODE_SWITCH &&
		    k->b->node->type == IBTOPO_NODE_SWITCH &&
		    k->a->node != k->b->node)
			fprintf(g, "%s\t%s\n", k->a->node->desc, k->b->node->desc);
	}
	/* leaf switches: switches with servers */
	for (size_t i = 0; i < n; i++) {
		const struct ibtopo_node *a = ibtopo_fabric_node(f, i);

		if (a->type != IBTOPO_NODE_SWITCH)
			continue;
		for (size_t j = i + 1; j < n; j++) {
			const struct ibtopo_node *b = ibtopo_fabric_node(f, j);
			long long e;

			if (b->type != IBTOPO_NODE_SWITCH)
				continue;
			e = ibtopo_topology_leaf_paths(t, a, b,
						       IBTOPO_PATHS_EDGE_DISJOINT);
			if (e >= 0)
				fprintf(l, "%s\t%s\t%lld\n", a->desc, b->desc, e);
		}
	}
	fclose(l);
	return fclose(g);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "pods", 1, NULL, 'p' }, { "leaves", 1, NULL, 'l' },
		{ "spines", 1, NULL, 's' }, { "cores", 1, NULL, 'c' },
		{ "hosts", 1, NULL, 'h' }, { "links", 1, NULL, 'k' },
		{ "core-links", 1, NULL, 'K' }, { "dual", 0, NULL, 'd' },
		{ "switches", 1, NULL, 'n' }, { "rows", 1, NULL, 'r' },
		{ "cols", 1, NULL, 'C' }, { "radix", 1, NULL, 'R' },
		{ "speed", 1, NULL, 'S' }, { "host-speed", 1, NULL, 'H' },
		{ "fault", 1, NULL, 'f' }, { "format", 1, NULL, 'F' },
		{ "analyze", 0, NULL, 'a' }, { "json", 0, NULL, 'j' },
		{ "bench", 1, NULL, 'b' }, { "min-paths", 1, NULL, 'm' },
		{ "roots", 1, NULL, 'o' }, { "root-pattern", 1, NULL, 'P' },
		{ "directors", 1, NULL, 'D' }, { "lines", 1, NULL, 'L' },
		{ "idle", 1, NULL, 'I' }, { "rails", 1, NULL, 'A' },
		{ "units", 1, NULL, 'U' }, { "groups", 1, NULL, 'G' },
		{ "global", 1, NULL, 'g' },
		{ NULL, 0, NULL, 0 },
	};
	struct fg_params p = { .shape = FG_FAT_TREE, .levels = 2, .leaves = 4,
			       .spines = 2, .pods = 2, .cores = 4, .hosts = 2,
			       .switches = 4, .rows = 3, .cols = 3,
			       .directors = 3, .lines = 6, .idle = 1,
			       .rails = 4, .units = 2, .groups = 5 };
	struct ibtopo_topology_opts to = IBTOPO_TOPOLOGY_OPTS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_sink ro = { IBTOPO_SINK_VERSION,
					 IBTOPO_FORMAT_TEXT, ibtopo_write_file,
					 stdout, 0 };
	enum ibtopo_export_format fmt = IBTOPO_EXPORT_IBSIM;
	struct ibtopo_findings findings = IBTOPO_FINDINGS_INIT;
	struct ibtopo_topology *t = NULL;
	struct ibtopo_fabric *f = NULL;
	const char *bench = NULL;
	bool analyze = false, json = false;
	struct stat st;
	int c, rc;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'p': p.pods = num(optarg); break;
		case 'l': p.leaves = num(optarg); break;
		case 's': p.spines = num(optarg); break;
		case 'c': p.cores = num(optarg); break;
		case 'h': p.hosts = num(optarg); break;
		case 'k': p.links = num(optarg); break;
		case 'K': p.core_links = num(optarg); break;
		case 'd': p.dual_homed = true; break;
		case 'n': p.switches = num(optarg); break;
		case 'r': p.rows = num(optarg); break;
		case 'C': p.cols = num(optarg); break;
		case 'R': p.radix = num(optarg); break;
		case 'D': p.directors = num(optarg); break;
		case 'L': p.lines = num(optarg); break;
		case 'I': p.idle = num(optarg); break;
		case 'A': p.rails = num(optarg); break;
		case 'U': p.units = num(optarg); break;
		case 'G': p.groups = num(optarg); break;
		case 'g': p.global = num(optarg); break;
		case 'S': p.speed = ibtopo_speed_parse(optarg); break;
		case 'H': p.host_speed = ibtopo_speed_parse(optarg); break;
		case 'f': p.faults |= fault(optarg); break;
		case 'F':
			if (strcmp(optarg, "ibnetdiscover") == 0)
				fmt = IBTOPO_EXPORT_IBNETDISCOVER;
			else if (strcmp(optarg, "ibsim") != 0)
				usage();
			break;
		case 'a': analyze = true; break;
		case 'j': json = true; break;
		case 'b': bench = optarg; analyze = true; break;
		case 'm': to.min_paths = num(optarg); break;
		case 'o': to.roots_file = optarg; break;
		case 'P': to.root_pattern = optarg; break;
		default: usage();
		}
	}
	if (optind + 1 != argc)
		usage();
	if (stat(argv[optind], &st) == 0 && S_ISREG(st.st_mode))
		rc = ibtopo_fabric_read_file(&f, argv[optind], NULL, &err);
	else if (shape(argv[optind], &p) == 0)
		rc = fg_build(&f, &p, &err);
	else
		usage();
	if (rc) {
		fprintf(stderr, "gen-fabric: %s\n", err.message);
		return 2;
	}
	if (!analyze) {
		rc = ibtopo_fabric_write(&ro, f, fmt, &err);
		if (rc)
			fprintf(stderr, "gen-fabric: %s\n", err.message);
		ibtopo_fabric_free(f);
		return rc ? 2 : 0;
	}
	if (bench) {
		struct rusage ru;
		double t0 = now(), t1;

		/* the benchmark's subject: leaf-pair counts and the class */
		to.flags |= IBTOPO_TOPOLOGY_NO_SERVER_PAIRS;
		rc = ibtopo_topology_analyze(&t, f, &to, &findings, &err);
		t1 = now();
		getrusage(RUSAGE_SELF, &ru);
		if (rc) {
			fprintf(stderr, "gen-fabric: %s\n", err.message);
			return 2;
		}
		printf("switches %zu servers %zu class %s levels %u\n",
		       ibtopo_fabric_count_type(f, IBTOPO_NODE_SWITCH),
		       ibtopo_topology_server_count(t),
		       ibtopo_topology_class_name(ibtopo_topology_class(t)),
		       ibtopo_topology_levels(t));
		printf("analysis_seconds %.4f\n", t1 - t0);
		printf("peak_rss_kb %ld\n", ru.ru_maxrss);
		rc = write_pairs(bench, f, t);
	} else {
		struct ibtopo_analyze_opts ao = IBTOPO_ANALYZE_OPTS_INIT;
		struct ibtopo_analysis *an = NULL;

		/* the topology section alone */
		ao.topology = to;
		ao.flags = IBTOPO_ANALYZE_NO_CHECKS | IBTOPO_ANALYZE_NO_HEALTH |
			   IBTOPO_ANALYZE_NO_ROUTES;
		ro.format = json ? IBTOPO_FORMAT_JSON : IBTOPO_FORMAT_TEXT;
		rc = ibtopo_analysis_new(&an, f, &ao, &err);
		if (!rc)
			rc = ibtopo_report_analysis(&ro, an, &err);
		if (rc)
			fprintf(stderr, "gen-fabric: %s\n", err.message);
		ibtopo_analysis_free(an);
	}
	ibtopo_topology_free(t);
	ibtopo_findings_release(&findings);
	ibtopo_fabric_free(f);
	return rc ? 2 : 0;
}
