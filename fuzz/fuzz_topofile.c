/*
 * fuzz_topofile.c - fuzz targets for the text readers.
 *
 * Built with -DFUZZ_TARGET='"<name>"' and -fsanitize=fuzzer (see
 * fuzz/run.sh) it is the libFuzzer target of one reader; `--targets`
 * lists the names. Built without, it is a driver
 * that feeds files (or every file of directories) through all readers, so
 * `make check` can run the seed corpus and every kept crasher under the
 * sanitizers of the build.
 *
 * Beyond "no crash": whatever a topology reader accepts must write out in
 * every export format, each read back: ibnetdiscover text into a fabric
 * writing the same text, an ibsim net file with the same cables, Slurm's
 * topology.conf as the tree plugin takes it, CSV with one record per link,
 * JSON with every node and link, and forwarding tables (after the routes
 * target loads some) as a dump that loads back the same.
 *
 * The cable readers (inventory CSV, ibdiagnet db_csv), the counters
 * reader (perfquery, ibqueryerrors output), the routes reader (LFT
 * dumps) and the plan reader
 * work against a fixed fabric, read from the file named by the
 * IBTOPO_FUZZ_FABRIC environment variable (the driver: --fabric FILE).
 * A cable file that fails must leave the fabric's cables as they were; a
 * plan that reads must validate against itself with no finding; counters
 * that fail to load leave no port with counters, counters that load go
 * through the health analysis and its reports.
 *
 * A format read from a path, like the cache target (an `ibnetdiscover
 * --cache` file, binary), gets its input through a memfd: for the cache
 * our structural check must stop whatever libibnetdisc's loader would
 * trip on.
 */
#define _GNU_SOURCE	/* memfd_create */
#include <ibtopo.h>

#include <dirent.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * Targets by name: "auto" and every input format the library lists
 * (ibtopo_file_format_name()), then these, which read against the fixed
 * fabric or need no fabric at all. A new input format is fuzzed without
 * an edit here or in fuzz/run.sh.
 */
static const char *const other_targets[] = {
	"namemap", "cables", "dbcsv", "plan", "counters", "routes",
};

/* The fuzz targets, or NULL past the last; `n` from 0. */
static const char *target_name(int n)
{
	int nformats = 0;

	/* the formats are the enumerators after IBTOPO_FILE_AUTO */
	while (strcmp(ibtopo_file_format_name(
			(enum ibtopo_file_format)(nformats + 1)), "?") != 0)
		nformats++;
	if (n <= nformats)
		return n == 0 ? "auto" :
		       ibtopo_file_format_name((enum ibtopo_file_format)n);
	n -= nformats + 1;
	return (size_t)n < sizeof(other_targets) / sizeof(other_targets[0]) ?
	       other_targets[n] : NULL;
}

static bool needs_fabric(const char *target)
{
	return strcmp(target, "cables") == 0 || strcmp(target, "dbcsv") == 0 ||
	       strcmp(target, "plan") == 0 || strcmp(target, "counters") == 0 ||
	       strcmp(target, "routes") == 0;
}

/* The fixed fabric of the cable and plan targets, as text. */
static struct ibtopo_buffer fixed;

static void die(const char *what, const struct ibtopo_error *err)
{
	fprintf(stderr, "fuzz: %s: %s\n", what, err ? err->message : "");
	abort();
}

static struct ibtopo_buffer write_as(const struct ibtopo_fabric *f,
			   enum ibtopo_export_format fmt)
{
	struct ibtopo_buffer m = { 0 };
	struct ibtopo_sink o = { IBTOPO_SINK_VERSION,
		IBTOPO_FORMAT_TEXT, ibtopo_write_buffer, &m, 0 };
	struct ibtopo_error err = IBTOPO_ERROR_INIT;

	if (ibtopo_fabric_write(&o, f, fmt, &err))
		die("write", &err);
	return m;
}

/*
 * A scheduler format: a fabric without a host to list, or with names
 * that clash, is refused (IBTOPO_EINVAL: *refused and an empty text);
 * anything else is a failure.
 */
static struct ibtopo_buffer write_sched(const struct ibtopo_fabric *f,
			      enum ibtopo_export_format fmt, bool *refused)
{
	struct ibtopo_buffer m = { 0 };
	struct ibtopo_sink o = { IBTOPO_SINK_VERSION,
		IBTOPO_FORMAT_TEXT, ibtopo_write_buffer, &m, 0 };
	struct ibtopo_export_opts x = IBTOPO_EXPORT_OPTS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_analysis *an = NULL;
	int rc;

	x.flags = IBTOPO_EXPORT_HOST_GUIDS;
	*refused = false;
	rc = ibtopo_analysis_new(&an, f, NULL, &err);
	if (!rc)
		rc = ibtopo_analysis_write(&o, an, fmt, &x, &err);
	ibtopo_analysis_free(an);
	if (rc) {
		if (err.code != IBTOPO_EINVAL)
			die("write", &err);
		*refused = true;
	}
	return m;
}

/* The other scheduler formats: written or refused, never a failure. */
static void check_sched(const struct ibtopo_fabric *f,
			enum ibtopo_export_format fmt)
{
	bool refused;
	struct ibtopo_buffer m = write_sched(f, fmt, &refused);

	if (!refused && !m.len)
		die("a scheduler format wrote nothing", NULL);
	free(m.text);
}

static struct ibtopo_fabric *read_as(const struct ibtopo_buffer *m,
				     enum ibtopo_file_format fmt, const char *what)
{
	struct ibtopo_read_opts o = IBTOPO_READ_OPTS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = NULL;

	o.format = fmt;
	if (ibtopo_fabric_read_buffer(&f, m->text ? m->text : "", m->len, what,
				      &o, &err))
		die(what, &err);
	return f;
}

/* ibnetdiscover text reads back into a fabric that writes the same text. */
static void check_ibnetdiscover(const struct ibtopo_fabric *f)
{
	struct ibtopo_buffer t1 = write_as(f, IBTOPO_EXPORT_IBNETDISCOVER), t2;
	struct ibtopo_fabric *g;

	g = read_as(&t1, IBTOPO_FILE_IBNETDISCOVER, "ibnetdiscover output");
	t2 = write_as(g, IBTOPO_EXPORT_IBNETDISCOVER);
	if (t1.len != t2.len || memcmp(t1.text, t2.text, t1.len))
		die("ibnetdiscover output does not read back the same", NULL);
	free(t1.text);
	free(t2.text);
	ibtopo_fabric_free(g);
}

/* A net file reads back with the same nodes (by GUID) and cables. */
static void check_ibsim(const struct ibtopo_fabric *f)
{
	struct ibtopo_buffer net = write_as(f, IBTOPO_EXPORT_IBSIM);
	struct ibtopo_fabric *h = read_as(&net, IBTOPO_FILE_IBSIM, "ibsim output");

	if (ibtopo_fabric_link_count(h) != ibtopo_fabric_link_count(f) ||
	    ibtopo_fabric_node_count(h) != ibtopo_fabric_node_count(f))
		die("ibsim output does not read back the same links", NULL);
	for (size_t i = 0; i < ibtopo_fabric_link_count(f); i++) {
		const struct ibtopo_link *l = ibtopo_fabric_link(f, i);
		const struct ibtopo_node *a =
			ibtopo_fabric_find_node(h, l->a->node->guid);
		const struct ibtopo_port *p =
			a && l->a->num <= a->nports ? a->ports[l->a->num] : NULL;

		if (!p || !p->remote || p->remote->num != l->b->num ||
		    p->remote->node->guid != l->b->node->guid)
			die("ibsim output does not read back the same cable", NULL);
	}
	free(net.text);
	ibtopo_fabric_free(h);
}

/* RFC 4180: the fields of the record at *pp, which moves past it. */
static size_t csv_record(const char **pp)
{
	const char *p = *pp;
	size_t fields = 1;
	bool quoted = false;

	for (; *p && (quoted || *p != '\n'); p++) {
		if (*p == '"' && quoted && p[1] == '"')
			p++;
		else if (*p == '"')
			quoted = !quoted;
		else if (*p == ',' && !quoted)
			fields++;
	}
	if (quoted || *p != '\n')
		die("csv output: a record without its end", NULL);
	*pp = p + 1;
	return fields;
}

/* `show links` CSV: a header, then one record of as many fields per link. */
static void check_csv(const struct ibtopo_fabric *f)
{
	struct ibtopo_buffer m = write_as(f, IBTOPO_EXPORT_CSV);
	const char *p = m.text ? m.text : "";
	size_t header = csv_record(&p), rows = 0;

	while (*p) {
		if (csv_record(&p) != header)
			die("csv output: a record with another field count", NULL);
		rows++;
	}
	if (rows != ibtopo_fabric_link_count(f))
		die("csv output: not one record per link", NULL);
	free(m.text);
}

/* One JSON object, of IBTOPO_JSON_SCHEMA_VERSION, with every node and link. */
static void check_json(const struct ibtopo_fabric *f)
{
	struct ibtopo_buffer m = write_as(f, IBTOPO_EXPORT_JSON);
	json_error_t jerr;
	json_t *doc = json_loadb(m.text ? m.text : "", m.len, 0, &jerr);

	if (!doc)
		die("json output does not parse", NULL);
	if (json_integer_value(json_object_get(doc, "schema_version")) !=
		    IBTOPO_JSON_SCHEMA_VERSION ||
	    json_array_size(json_object_get(doc, "nodes")) !=
		    ibtopo_fabric_node_count(f) ||
	    json_array_size(json_object_get(doc, "links")) !=
		    ibtopo_fabric_link_count(f))
		die("json output lacks the schema_version, a node or a link",
		    NULL);
	json_decref(doc);
	free(m.text);
}

/*
 * A topology.conf as Slurm's topology/tree plugin reads it: SwitchName=
 * with Nodes= or Switches= (not both), unique switch names, children that
 * are switches of the file, no node under two switches. Names are hostlist
 * expressions ("n[01-04,7]x", groups multiply out).
 */
struct slurm_names {
	char **v;
	size_t n, a;
};

static void names_add(struct slurm_names *s, const char *name)
{
	if (s->n == s->a) {
		size_t na = s->a ? s->a * 2 : 64;
		char **nv = realloc(s->v, na * sizeof(*nv));

		if (!nv)
			die("out of memory", NULL);
		s->v = nv;
		s->a = na;
	}
	s->v[s->n] = strdup(name);
	if (!s->v[s->n++])
		die("out of memory", NULL);
}

static bool names_have(const struct slurm_names *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->v[i], name) == 0)
			return true;
	return false;
}

static void names_release(struct slurm_names *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
}

/* One hostlist item (no comma outside brackets) into `out`. */
static void hostlist_expand(const char *item, struct slurm_names *out)
{
	const char *open = strchr(item, '['), *close;
	char buf[512], range[256], *save = NULL, *r;

	if (!open) {
		if (!*item)
			die("slurm output: an empty name", NULL);
		names_add(out, item);
		return;
	}
	close = strchr(open, ']');
	if (!close || (size_t)(close - open) >= sizeof(range))
		die("slurm output: an unclosed or long '['", NULL);
	memcpy(range, open + 1, (size_t)(close - open - 1));
	range[close - open - 1] = '\0';
	for (r = strtok_r(range, ",", &save); r; r = strtok_r(NULL, ",", &save)) {
		char *dash = strchr(r, '-'), *end;
		unsigned long lo = strtoul(r, &end, 10), hi = lo;

		if (end == r || (dash ? end != dash : *end))
			die("slurm output: a bad range in '[]'", NULL);
		if (dash && ((hi = strtoul(dash + 1, &end, 10)) < lo || *end))
			die("slurm output: a bad range in '[]'", NULL);
		if (hi - lo > 100000)
			die("slurm output: a range too long", NULL);
		for (unsigned long v = lo; v <= hi; v++) {
			snprintf(buf, sizeof(buf), "%.*s%0*lu%s", (int)(open - item),
				 item, (int)(dash ? dash - r : (long)strlen(r)), v,
				 close + 1);
			hostlist_expand(buf, out);
		}
	}
}

/* A hostlist expression: items split at commas outside brackets. */
static void hostlist_split(const char *expr, struct slurm_names *out)
{
	char item[512];
	size_t n = 0;
	int depth = 0;

	for (const char *p = expr;; p++) {
		if (*p == '\0' || (*p == ',' && !depth)) {
			item[n] = '\0';
			hostlist_expand(item, out);
			n = 0;
			if (!*p)
				break;
			continue;
		}
		depth += (*p == '[') - (*p == ']');
		if (n + 1 >= sizeof(item))
			die("slurm output: a name too long", NULL);
		item[n++] = *p;
	}
}

static void check_slurm(const struct ibtopo_fabric *f)
{
	bool refused;
	struct ibtopo_buffer m = write_sched(f, IBTOPO_EXPORT_SLURM, &refused);
	struct slurm_names switches = { 0 }, children = { 0 }, nodes = { 0 };
	char *save = NULL;

	if (refused) {
		free(m.text);
		return;
	}
	for (char *l = strtok_r(m.text, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		char *name, *rest, *list;
		size_t before = switches.n;

		if (*l == '#')
			continue;
		if (strncmp(l, "SwitchName=", 11))
			die("slurm output: a line that is not SwitchName=", NULL);
		name = l + 11;
		rest = strchr(name, ' ');
		if (rest)
			*rest++ = '\0';
		hostlist_split(name, &switches);
		for (size_t i = before; i < switches.n; i++)
			for (size_t j = 0; j < i; j++)
				if (strcmp(switches.v[i], switches.v[j]) == 0)
					die("slurm output: a switch named twice", NULL);
		if (!rest)
			die("slurm output: a switch with neither Nodes= nor "
			    "Switches=", NULL);
		list = strchr(rest, '=');
		if (!list || strchr(list, ' '))
			die("slurm output: more than one of Nodes=, Switches=", NULL);
		*list++ = '\0';
		if (strcmp(rest, "Switches") == 0) {
			hostlist_split(list, &children);
		} else if (strcmp(rest, "Nodes") == 0) {
			before = nodes.n;
			hostlist_split(list, &nodes);
			for (size_t i = before; i < nodes.n; i++)
				for (size_t j = 0; j < i; j++)
					if (strcmp(nodes.v[i], nodes.v[j]) == 0)
						die("slurm output: a node under two switches",
						    NULL);
		} else {
			die("slurm output: neither Nodes= nor Switches=", NULL);
		}
	}
	for (size_t i = 0; i < children.n; i++)
		if (!names_have(&switches, children.v[i]))
			die("slurm output: a child that is no switch", NULL);
	names_release(&switches);
	names_release(&children);
	names_release(&nodes);
	free(m.text);
}

/*
 * Forwarding tables as opensm-lfts.dump: none is EINVAL; a fabric that
 * has them writes a dump that loads onto `onto` (the same nodes, without
 * tables) and writes the same dump again.
 */
static void check_lfts(const struct ibtopo_fabric *f, struct ibtopo_fabric *onto)
{
	struct ibtopo_routes_load_opts o = IBTOPO_ROUTES_LOAD_OPTS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_buffer t1 = { 0 }, t2;
	struct ibtopo_sink so = { IBTOPO_SINK_VERSION, IBTOPO_FORMAT_TEXT,
		ibtopo_write_buffer, &t1, 0 };
	size_t unknown = 0;
	int rc = ibtopo_fabric_write(&so, f, IBTOPO_EXPORT_LFTS, &err);

	if (!ibtopo_fabric_has_routes(f)) {
		if (rc != IBTOPO_EINVAL)
			die("lfts output of a fabric without tables", &err);
		free(t1.text);
		return;
	}
	if (rc)
		die("write lfts", &err);
	if (!onto)
		die("lfts output with no fabric to read it onto", NULL);
	if (ibtopo_routes_load_buffer(onto, t1.text ? t1.text : "", t1.len,
				      "lfts output", &o, &unknown, &err) ||
	    unknown)
		die("lfts output does not read back", &err);
	t2 = write_as(onto, IBTOPO_EXPORT_LFTS);
	if (t1.len != t2.len || memcmp(t1.text, t2.text, t1.len))
		die("lfts output does not read back the same", NULL);
	free(t1.text);
	free(t2.text);
}

/*
 * Every writer the library lists, each with its read-back check: a new
 * export format fails here until it has one.
 */
static void check_written(const struct ibtopo_fabric *f,
			  struct ibtopo_fabric *onto)
{
	if (ibtopo_fabric_node_count(f) == 0)
		die("a fabric without nodes", NULL);
	for (int k = 0; strcmp(ibtopo_export_format_name(
				       (enum ibtopo_export_format)k), "?"); k++) {
		const char *name =
			ibtopo_export_format_name((enum ibtopo_export_format)k);

		if (strcmp(name, "ibnetdiscover") == 0)
			check_ibnetdiscover(f);
		else if (strcmp(name, "ibsim") == 0)
			check_ibsim(f);
		else if (strcmp(name, "slurm") == 0)
			check_slurm(f);
		else if (strcmp(name, "slurm-block") == 0 ||
			 strcmp(name, "slurm-yaml") == 0 ||
			 strcmp(name, "k8s") == 0)
			check_sched(f, (enum ibtopo_export_format)k);
		else if (strcmp(name, "csv") == 0)
			check_csv(f);
		else if (strcmp(name, "json") == 0)
			check_json(f);
		else if (strcmp(name, "lfts") == 0)
			check_lfts(f, onto);
		else
			die(name, NULL);	/* a writer with no read-back check */
	}
}

static struct ibtopo_fabric *fixed_fabric(void)
{
	if (!fixed.text)
		die("no fixed fabric (IBTOPO_FUZZ_FABRIC, --fabric)", NULL);
	return read_as(&fixed, IBTOPO_FILE_AUTO, "fixed fabric");
}

static struct ibtopo_buffer cables_of(const struct ibtopo_fabric *f,
			    enum ibtopo_format fmt)
{
	struct ibtopo_buffer m = { 0 };
	struct ibtopo_sink o = { IBTOPO_SINK_VERSION, fmt,
		ibtopo_write_buffer, &m, 0 };
	struct ibtopo_error err = IBTOPO_ERROR_INIT;

	if (ibtopo_report_cables(&o, f, &err))
		die("render cables", &err);
	return m;
}

static void fuzz_cables(const unsigned char *data, size_t size)
{
	struct ibtopo_cables_opts o = IBTOPO_CABLES_OPTS_INIT;
	struct ibtopo_check_opts co = IBTOPO_CHECK_OPTS_INIT;
	struct ibtopo_findings found = IBTOPO_FINDINGS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = fixed_fabric();
	struct ibtopo_buffer before = cables_of(f, IBTOPO_FORMAT_TEXT), after, json;
	int rc;

	rc = ibtopo_cables_load_buffer(f, (const char *)data, size, "fuzz", &o,
				       &err);
	after = cables_of(f, IBTOPO_FORMAT_TEXT);
	if (rc) {
		if (rc != err.code || !err.message[0])
			die("a failed cable load gave no message", &err);
		if (before.len != after.len ||
		    memcmp(before.text, after.text, before.len))
			die("a failed cable load changed the fabric", NULL);
	} else {
		json = cables_of(f, IBTOPO_FORMAT_JSON);
		free(json.text);
		if (ibtopo_check_links(&found, f, &co, &err))
			die("checks", &err);
		ibtopo_findings_release(&found);
	}
	free(before.text);
	free(after.text);
	ibtopo_fabric_free(f);
}

static size_t ports_with_counters(const struct ibtopo_fabric *f)
{
	size_t k = 0;

	for (size_t i = 0; i < ibtopo_fabric_node_count(f); i++) {
		const struct ibtopo_node *n = ibtopo_fabric_node(f, i);

		for (unsigned p = 0; p <= n->nports; p++)
			k += n->ports[p] && n->ports[p]->counters;
	}
	return k;
}

static void fuzz_counters(const unsigned char *data, size_t size)
{
	struct ibtopo_counters_load_opts o = IBTOPO_COUNTERS_LOAD_OPTS_INIT;
	struct ibtopo_findings found = IBTOPO_FINDINGS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = fixed_fabric();
	struct ibtopo_health *h = NULL;
	size_t unknown = 0;
	int rc;

	rc = ibtopo_counters_load_buffer(f, (const char *)data, size, "fuzz",
					 &o, &unknown, &err);
	if (rc) {
		if (rc != err.code || !err.message[0])
			die("a failed counters load gave no message", &err);
		if (ports_with_counters(f))
			die("a failed counters load changed the fabric", NULL);
	} else {
		if (ibtopo_health_analyze(&h, &found, f, f, NULL, &err))
			die("health", &err);
		for (int k = IBTOPO_FORMAT_TEXT; k <= IBTOPO_FORMAT_CSV; k++) {
			struct ibtopo_buffer m = { 0 };
			struct ibtopo_sink so = { IBTOPO_SINK_VERSION,
				(enum ibtopo_format)k, ibtopo_write_buffer, &m, 0 };

			if (ibtopo_report_health(&so, h, &found, &err))
				die("health report", &err);
			free(m.text);
		}
		ibtopo_health_free(h);
		ibtopo_findings_release(&found);
	}
	ibtopo_fabric_free(f);
}

/*
 * Forwarding tables: a failed load leaves no table and gives a message; a
 * load that works leaves tables no longer than the LIDs a table can hold,
 * and the routing analysis and its reports run on them.
 */
static void fuzz_routes(const unsigned char *data, size_t size)
{
	struct ibtopo_routes_load_opts o = IBTOPO_ROUTES_LOAD_OPTS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = fixed_fabric();
	size_t unknown = 0;
	int rc;

	rc = ibtopo_routes_load_buffer(f, (const char *)data, size, "fuzz", &o,
				       &unknown, &err);
	if (rc) {
		if (rc != err.code || !err.message[0])
			die("a failed routes load gave no message", &err);
		if (ibtopo_fabric_has_routes(f))
			die("a failed routes load changed the fabric", NULL);
	} else {
		struct ibtopo_routes_opts ro = IBTOPO_ROUTES_OPTS_INIT;
		struct ibtopo_findings found = IBTOPO_FINDINGS_INIT;
		struct ibtopo_routes *r = NULL;
		struct ibtopo_fabric *onto;

		for (size_t i = 0; i < ibtopo_fabric_node_count(f); i++) {
			const struct ibtopo_node *n = ibtopo_fabric_node(f, i);

			if (n->lft && (n->lft->top > IBTOPO_LFT_MAX_LID ||
				       n->type != IBTOPO_NODE_SWITCH))
				die("a table on a CA or past 0xbfff", NULL);
		}
		/* whatever the tables say, the analysis and its reports run */
		onto = fixed_fabric();
		check_written(f, onto);
		ibtopo_fabric_free(onto);
		ro.bisections = 2;
		rc = ibtopo_routes_analyze(&r, f, NULL, &ro, &found, &err);
		if (rc && rc != IBTOPO_EINVAL)
			die("routes analysis", &err);
		for (int k = IBTOPO_FORMAT_TEXT; r && k <= IBTOPO_FORMAT_CSV;
		     k++) {
			struct ibtopo_buffer m = { 0 };
			struct ibtopo_sink so = { IBTOPO_SINK_VERSION,
				(enum ibtopo_format)k, ibtopo_write_buffer, &m, 0 };

			if (ibtopo_report_routes(&so, r, &found, &err))
				die("routes report", &err);
			free(m.text);
		}
		ibtopo_findings_release(&found);
		ibtopo_routes_free(r);
	}
	ibtopo_fabric_free(f);
}

static void validate(const struct ibtopo_fabric *plan,
		     const struct ibtopo_fabric *actual, bool none)
{
	struct ibtopo_findings found = IBTOPO_FINDINGS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;

	if (ibtopo_fabric_validate(&found, plan, actual, NULL, &err))
		die("validate", &err);
	if (none && found.count)
		die("a plan does not validate against itself", NULL);
	ibtopo_findings_release(&found);
}

static void fuzz_plan(const unsigned char *data, size_t size)
{
	struct ibtopo_read_opts o = IBTOPO_READ_OPTS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *plan = NULL, *actual;
	int rc;

	rc = ibtopo_fabric_read_buffer(&plan, (const char *)data, size, "fuzz",
				       &o, &err);
	if (rc) {
		if (plan || rc != err.code || !err.message[0])
			die("a failed plan read left a fabric or no message", &err);
		return;
	}
	actual = fixed_fabric();
	validate(plan, plan, true);
	validate(plan, actual, false);
	validate(actual, plan, false);
	ibtopo_fabric_free(actual);
	ibtopo_fabric_free(plan);
}

/*
 * A format read from a path (an `ibnetdiscover --cache` file is binary and
 * libibnetdisc opens it itself): the input goes through a memfd.
 */
static void fuzz_path(enum ibtopo_file_format format,
		      const unsigned char *data, size_t size)
{
	struct ibtopo_read_opts o = IBTOPO_READ_OPTS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = NULL;
	char path[64];
	int fd = memfd_create("fuzz-cache", 0), rc;

	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size))
		die("memfd", NULL);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	o.format = format;
	rc = ibtopo_fabric_read_file(&f, path, &o, &err);
	close(fd);
	if (rc) {
		if (f || rc != err.code || !err.message[0])
			die("a failed path read left a fabric or no message", &err);
		return;
	}
	if (ibtopo_fabric_node_count(f))
		check_written(f, NULL);
	ibtopo_fabric_free(f);
}

/* Formats a buffer cannot hold: reading an empty one says EINVAL. */
static bool read_from_path(enum ibtopo_file_format format)
{
	struct ibtopo_read_opts o = IBTOPO_READ_OPTS_INIT;
	struct ibtopo_fabric *f = NULL;
	int rc;

	o.format = format;
	rc = ibtopo_fabric_read_buffer(&f, "", 0, "probe", &o, NULL);
	ibtopo_fabric_free(f);
	return rc == IBTOPO_EINVAL;
}

static int fuzz_one(const char *target, const unsigned char *data, size_t size)
{
	struct ibtopo_read_opts o = IBTOPO_READ_OPTS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_name_map *map = NULL;
	struct ibtopo_fabric *f = NULL;
	int rc;

	int format;

	if (strcmp(target, "cables") == 0 || strcmp(target, "dbcsv") == 0) {
		fuzz_cables(data, size);
		return 0;
	}
	if (strcmp(target, "plan") == 0) {
		fuzz_plan(data, size);
		return 0;
	}
	if (strcmp(target, "counters") == 0) {
		fuzz_counters(data, size);
		return 0;
	}
	if (strcmp(target, "routes") == 0) {
		fuzz_routes(data, size);
		return 0;
	}
	if (strcmp(target, "namemap") == 0) {
		rc = ibtopo_name_map_parse(&map, (const char *)data, size, "fuzz",
					   &err);
		if (rc && (map || rc != err.code || !err.message[0]))
			die("a failed map parse left a map or no message", &err);
		if (!rc && ibtopo_name_map_count(map))
			(void)ibtopo_name_map_lookup(map, 0x0002c90300080e84ull);
		ibtopo_name_map_free(map);
		return 0;
	}
	format = ibtopo_file_format_parse(target);
	if (format < 0)
		die(target, NULL);
	if (format != IBTOPO_FILE_AUTO &&
	    read_from_path((enum ibtopo_file_format)format)) {
		fuzz_path((enum ibtopo_file_format)format, data, size);
		return 0;
	}
	o.format = (enum ibtopo_file_format)format;
	rc = ibtopo_fabric_read_buffer(&f, (const char *)data, size, "fuzz", &o,
				       &err);
	if (rc) {
		if (f || rc != err.code || !err.message[0])
			die("a failed read left a fabric or no message", &err);
		return 0;
	}
	check_written(f, NULL);
	ibtopo_fabric_free(f);
	return 0;
}

static void load_fixed(const char *path)
{
	FILE *f = fopen(path, "rb");
	char buf[65536];
	size_t n;

	if (!f) {
		perror(path);
		exit(2);
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		if (ibtopo_write_buffer(&fixed, buf, n))
			exit(2);
	fclose(f);
}

#ifdef FUZZ_TARGET
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *path = getenv("IBTOPO_FUZZ_FABRIC");

	(void)argc;
	(void)argv;
	if (path && *path)
		load_fixed(path);
	return 0;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	return fuzz_one(FUZZ_TARGET, data, size);
}
#else
static size_t files;

static void run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t len = 0, n;

	if (!f) {
		perror(path);
		exit(2);
	}
	do {
		unsigned char *nb = realloc(buf, len + 65536);

		if (!nb)
			exit(2);
		buf = nb;
		n = fread(buf + len, 1, 65536, f);
		len += n;
	} while (n);
	fclose(f);
	for (int t = 0; target_name(t); t++)
		if (fixed.text || !needs_fabric(target_name(t)))
			fuzz_one(target_name(t), buf, len);
	free(buf);
	files++;
}

static void run_path(const char *path, int depth)
{
	struct stat st;
	struct dirent *e;
	DIR *d;

	if (stat(path, &st)) {
		perror(path);
		exit(2);
	}
	if (!S_ISDIR(st.st_mode)) {
		run_file(path);
		return;
	}
	d = opendir(path);
	if (!d || depth > 2) {
		if (d)
			closedir(d);
		return;
	}
	for (e = readdir(d); e; e = readdir(d)) {
		char sub[4096];

		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		run_path(sub, depth + 1);
	}
	closedir(d);
}

/*
 * fuzz-seeds [--fabric FILE] PATH...: without --fabric, the cable and
 * plan targets are left out. fuzz-seeds --targets: their names.
 */
int main(int argc, char **argv)
{
	int i = 1, n = 0;

	if (argc == 2 && strcmp(argv[1], "--targets") == 0) {
		for (int t = 0; target_name(t); t++)
			printf("%s\n", target_name(t));
		return 0;
	}
	if (argc > 2 && strcmp(argv[1], "--fabric") == 0) {
		load_fixed(argv[2]);
		i = 3;
	}
	for (; i < argc; i++)
		run_path(argv[i], 0);
	for (int t = 0; target_name(t); t++)
		n += fixed.text || !needs_fabric(target_name(t));
	printf("fuzz-seeds: %zu files through %d readers, no failure\n", files,
	       n);
	free(fixed.text);
	return 0;
}
#endif
