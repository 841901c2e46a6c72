/* cmd_metrics.c - ibtopo metrics: a snapshot's port health for Prometheus */
#include "commands.h"
#include "fabric_pair.h"
#include "output_file.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { OPT_NO_FINDINGS = CLI_LONG, OPT_SINCE, OPT_COLLECT, OPT_ALL_FABRICS };

static const struct cli_opt opts[] = {
	CLI_LONG_OPT(
		OPT_NO_FINDINGS, "no-findings", 0, NULL,
		"leave out ibtopo_fabric_findings (runs the link checks only)"),
	CLI_LONG_OPT(OPT_SINCE, "since", 1, "REF",
		     "an earlier snapshot of the fabric: BER, wait share and "
		     "findings over the interval"),
	CLI_LONG_OPT(OPT_COLLECT, "collect", 1, "GROUP,...", CLI_COLLECT_HELP),
	CLI_LONG_OPT(OPT_ALL_FABRICS, "all-fabrics", 0, NULL,
		     "the latest snapshot of every fabric of the database, "
		     "one exposition (discover --all-ports stores one per "
		     "subnet)"),
	CLI_OPTS_ANALYSIS,
	/* options with a letter last: long-only ones are numbered by place */
	CLI_OPT_SAME(cli_opt_output),
	{ NULL },
};

static int cmd_metrics_exec(const struct cli_cmd *self, int argc, char **argv,
			    struct cli_global *g);

const struct cli_cmd cmd_metrics_entry = {
	.name = "metrics",
	.summary = "write port counters and link state for Prometheus",
	.args = "[REF|FILE] [-o FILE] [--since REF] [--collect GROUP,...] [--all-fabrics] [--no-findings] " CLI_ARGS_ANALYSIS,
	.details =
		"REF (default: latest) is a snapshot, best taken with discover\n"
		"--counters or import --counters; an existing FILE is read instead.\n"
		"The output is the Prometheus text format 0.0.4. Per port, in\n"
		"groups (--collect); the default four hold what the example alert\n"
		"rules and dashboard use, about 10 series a port:\n"
		"  link          ibtopo_port_linked, _state, _rate_bytes_per_second\n"
		"                and _possible_rate_bytes_per_second, the rate its\n"
		"                link could run at as analyze judges it: rate <\n"
		"                possible exactly on the links analyze calls\n"
		"                downgraded\n"
		"  errors        SymbolErrorCounter, LinkDownedCounter, PortRcvErrors\n"
		"                (ibtopo_port_*_total)\n"
		"  traffic       bytes sent (4 x PortXmitData words), PortXmitWait\n"
		"  health        with an earlier reading: BER, XmitWait share\n"
		"and on request:\n"
		"  phy           physical state, lanes, lane speed\n"
		"  more-errors   the other nine error counters of PortCounters\n"
		"  more-traffic  bytes received, packets sent and received\n"
		"  saturation    ibtopo_port_counters_saturated per port\n"
		"  all           every group (26 series a port)\n"
		"Always: ibtopo_port_info, ibtopo_node_info, and for each counter\n"
		"that stopped at its largest value ibtopo_port_saturated; per\n"
		"fabric the node and link counts, the snapshot's time (a text\n"
		"dump's: its file's mtime) and whether it is partial, and the\n"
		"analysis' findings by kind and severity.\n"
		"Port series carry fabric, node_guid and port only, so a pulled\n"
		"cable changes a value (ibtopo_port_state, ibtopo_port_linked), never\n"
		"a series; ibtopo_port_info adds the node's name and type, its LID\n"
		"and the far end (remote_guid, remote_node, remote_port,\n"
		"remote_type), ibtopo_node_info the model: join with\n"
		"  * on(fabric,node_guid,port) group_left(node) ibtopo_port_info\n"
		"With --since REF (latest~1 after a discover --counters: the sweep\n"
		"before) the bit error rate per receiving port and its threshold\n"
		"(ibtopo_port_bit_error_rate{,_threshold}), the PortXmitWait share\n"
		"(ibtopo_port_transmit_wait_share{,_threshold}) and the port-error\n"
		"findings are those of the interval, as health --since has them;\n"
		"serve always measures against its previous sweep.\n"
		"--all-fabrics writes the latest snapshot of every fabric of the\n"
		"database (a multi-rail host's, stored by discover --all-ports) in\n"
		"one text, each by its fabric's name, each family once; no REF,\n"
		"--since or --fabric with it.\n"
		"-o FILE is written to a temporary file beside it (not named *.prom)\n"
		"and renamed over it, as node_exporter's textfile collector needs\n"
		"(name it *.prom there).",
	.opts = opts,
	.exec = cmd_metrics_exec,
	.flags = CLI_NEEDS_DB,
};

/*
 * A file's fabric without a time of its own (a text dump) is as old as
 * the file: ibtopo_snapshot_timestamp_seconds then says when it was
 * written, not 0 (which every staleness alert takes for 1970).
 */
static void file_time(struct ibtopo_fabric *fabric, const char *what)
{
	const struct ibtopo_fabric_meta *m = ibtopo_fabric_meta(fabric);
	struct stat st;

	if (m->snapshot_id > 0 || m->taken_at || !what ||
	    strcmp(what, "-") == 0 || stat(what, &st) || !S_ISREG(st.st_mode))
		return;
	ibtopo_fabric_set_taken_at(fabric, st.st_mtime);
}

/* --all-fabrics: the latest snapshot of each stored fabric, analysed. */
static int load_all(struct ibtopo_analysis ***an, size_t *n,
		    const struct ibtopo_analyze_opts *ao,
		    const struct cli_global *g, struct ibtopo_error *err)
{
	struct ibtopo_fabric_info *fi = NULL;
	struct ibtopo_store *store = NULL;
	size_t nf = 0;
	int rc = cli_open_store(&store, g, IBTOPO_STORE_READONLY, err);

	*n = 0;
	if (!rc)
		rc = ibtopo_store_fabrics(&fi, &nf, store, err);
	if (!rc && !nf) {
		snprintf(err->message, sizeof(err->message),
			 "--all-fabrics: the database has no snapshot");
		rc = IBTOPO_ENOTFOUND;
	}
	if (!rc && !(*an = calloc(nf, sizeof(**an))))
		rc = IBTOPO_ENOMEM;
	for (size_t i = 0; !rc && i < nf; i++) {
		struct ibtopo_fabric *f = NULL;

		rc = ibtopo_store_load(&f, store, fi[i].latest_id, err);
		if (!rc && cli_analysis(&(*an)[i], f, ao, g))
			rc = IBTOPO_ERROR;
		if (rc)
			ibtopo_fabric_free(f);
		else
			(*n)++;
	}
	ibtopo_fabric_info_list_free(fi, nf);
	ibtopo_store_free(store);
	return rc;
}

/* The analyses of load_all() and their fabrics, freed. */
static void free_all(struct ibtopo_analysis **an, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct ibtopo_fabric *f =
			(struct ibtopo_fabric *)ibtopo_analysis_fabric(an[i]);

		ibtopo_analysis_free(an[i]);
		ibtopo_fabric_free(f);
	}
	free(an);
}

/* metrics --all-fabrics: every stored fabric's latest, one text. */
static int metrics_all(const char *output, const struct ibtopo_metrics_opts *mo,
		       const struct ibtopo_analyze_opts *ao,
		       const struct cli_global *g)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_metrics_opts *mos = NULL;
	struct ibtopo_analysis **an = NULL;
	struct output_file out;
	struct ibtopo_sink ro;
	size_t n = 0;
	int rc = load_all(&an, &n, ao, g, &err);

	if (rc) {
		free_all(an, n);
		return rc == IBTOPO_ERROR ? EXIT_TROUBLE : cli_fail(&err);
	}
	mos = calloc(n, sizeof(*mos));
	for (size_t i = 0; mos && i < n; i++)
		mos[i] = *mo;
	rc = mos ? output_file_open(&out, output, true) :
		   cli_failf("out of memory");
	if (!rc) {
		ro = output_file_opts(&out, IBTOPO_FORMAT_TEXT);
		if (ibtopo_metrics_write_many(&ro, an, mos, n, &err)) {
			rc = output_file_fail(&out, &err);
			output_file_abort(&out);
		} else {
			rc = output_file_close(&out);
		}
	}
	free(mos);
	free_all(an, n);
	return rc;
}

static int cmd_metrics_exec(const struct cli_cmd *self, int argc, char **argv,
			    struct cli_global *g)
{
	struct ibtopo_metrics_opts mo = IBTOPO_METRICS_OPTS_INIT;
	struct ibtopo_analyze_opts ao = IBTOPO_ANALYZE_OPTS_INIT;
	struct cli_source src = { .what = NULL };
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_analysis *an = NULL;
	struct ibtopo_fabric *fabric = NULL, *since = NULL;
	struct cli_state st = { .analyze = &ao, .global = g };
	const char *output = NULL, *since_ref = NULL;
	char stored[80];
	struct output_file out;
	struct ibtopo_sink ro;
	bool all = false;
	int c, rc;

	while ((c = cli_getopt(&st, argc, argv, self)) != -1) {
		switch (c) {
		case 'o':
			output = st.optarg;
			break;
		case OPT_SINCE:
			since_ref = st.optarg;
			break;
		case OPT_COLLECT:
			if (ibtopo_metrics_collect_parse(st.optarg, &mo.collect,
							 &err))
				return cli_usage_error(self, "%s", err.message);
			break;
		case OPT_ALL_FABRICS:
			all = true;
			break;
		case OPT_NO_FINDINGS:
			mo.flags |= IBTOPO_METRICS_NO_FINDINGS;
			ao.flags |= IBTOPO_ANALYZE_NO_TOPOLOGY |
				    IBTOPO_ANALYZE_NO_HEALTH |
				    IBTOPO_ANALYZE_NO_ROUTES;
			break;
		default:
			return cli_usage_error(self, "unexpected option");
		}
	}
	if (argc - st.optind > 1)
		return cli_usage_error(self, "unexpected argument '%s'",
				       argv[st.optind + 1]);
	if (st.optind < argc)
		src.what = argv[st.optind];
	if (all && (src.what || since_ref || cli_fabric(g)))
		return cli_usage_error(self,
				       "--all-fabrics reads the latest "
				       "snapshot of every fabric; no REF, "
				       "--since or --fabric");
	if (all)
		return metrics_all(output, &mo, &ao, g);

	if (cli_load_fabric(&fabric, g, &src, &err))
		return cli_fail(&err);
	file_time(fabric, src.what);
	if (since_ref) {
		rc = cli_load_fabric(&since, g,
				     &(struct cli_source){ .what = since_ref },
				     &err);
		if (!rc)
			rc = cli_check_pair(g, since, fabric, &err);
		if (!rc)
			rc = cli_check_order(since, fabric, "--since", "REF",
					     false, &err);
		if (rc) {
			rc = cli_fail(&err);
			goto out_free;
		}
		ao.since = since;
	}
	/* a file's fabric: the one --fabric names, else the stored fabric
	 * that has its switches, else the store's rule */
	if (!ibtopo_fabric_meta(fabric)->fabric)
		mo.fabric_name =
			cli_fabric(g) ?
				cli_fabric(g) :
				cli_stored_fabric_name(stored, sizeof(stored),
						       fabric, g);
	rc = cli_analysis(&an, fabric, &ao, g);
	if (!rc)
		rc = output_file_open(&out, output, true);
	if (rc)
		goto out_free;
	ro = output_file_opts(&out, IBTOPO_FORMAT_TEXT);
	if (ibtopo_metrics_write(&ro, an, &mo, &err)) {
		rc = output_file_fail(&out, &err);
		output_file_abort(&out);
		goto out_free;
	}
	rc = output_file_close(&out);
out_free:
	ibtopo_analysis_free(an);
	ibtopo_fabric_free(since);
	ibtopo_fabric_free(fabric);
	return rc;
}
