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
 * Beyond "no crash": whatever a topology reader accepts must write out as
 * ibnetdiscover text that reads back into a fabric writing the same text,
 * and as an ibsim net file that reads back with the same links.
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
static struct {
	char *text;
	size_t len;
} fixed;

struct mem {
	char *buf;
	size_t len, alloc;
};

static int mem_write(void *arg, const char *buf, size_t len)
{
	struct mem *m = arg;

	if (m->len + len + 1 > m->alloc) {
		size_t n = m->alloc ? m->alloc : 4096;
		char *nb;

		while (n < m->len + len + 1)
			n *= 2;
		nb = realloc(m->buf, n);
		if (!nb)
			return IBTOPO_ENOMEM;
		m->buf = nb;
		m->alloc = n;
	}
	memcpy(m->buf + m->len, buf, len);
	m->len += len;
	m->buf[m->len] = '\0';
	return 0;
}

static void die(const char *what, const struct ibtopo_error *err)
{
	fprintf(stderr, "fuzz: %s: %s\n", what, err ? err->message : "");
	abort();
}

static struct mem write_as(const struct ibtopo_fabric *f,
			   enum ibtopo_export_format fmt)
{
	struct mem m = { NULL, 0, 0 };
	struct ibtopo_sink o = { IBTOPO_SINK_VERSION,
		IBTOPO_FORMAT_TEXT, mem_write, &m, 0 };
	struct ibtopo_error err = IBTOPO_ERROR_INIT;

	if (ibtopo_fabric_write(&o, f, fmt, &err))
		die("write", &err);
	return m;
}

/* A scheduler format: a fabric without a host to list, or with names
 * that clash, is refused (IBTOPO_EINVAL); anything else is a failure. */
static void write_sched(const struct ibtopo_fabric *f,
			enum ibtopo_export_format fmt)
{
	struct mem m = { NULL, 0, 0 };
	struct ibtopo_sink o = { IBTOPO_SINK_VERSION,
		IBTOPO_FORMAT_TEXT, mem_write, &m, 0 };
	struct ibtopo_export_opts x = IBTOPO_EXPORT_OPTS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;

	x.flags = IBTOPO_EXPORT_HOST_GUIDS;
	if (ibtopo_fabric_write_opts(&o, f, fmt, &x, &err) &&
	    err.code != IBTOPO_EINVAL)
		die("write", &err);
	free(m.buf);
}

static struct ibtopo_fabric *read_as(const struct mem *m,
				     enum ibtopo_file_format fmt, const char *what)
{
	struct ibtopo_read_opts o = IBTOPO_READ_OPTS_INIT;
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = NULL;

	o.format = fmt;
	if (ibtopo_fabric_read_buffer(&f, m->buf ? m->buf : "", m->len, what,
				      &o, &err))
		die(what, &err);
	return f;
}

static void check_written(const struct ibtopo_fabric *f)
{
	struct mem t1 = write_as(f, IBTOPO_EXPORT_IBNETDISCOVER), t2, net, other;
	struct ibtopo_fabric *g, *h;

	if (ibtopo_fabric_node_count(f) == 0)
		die("a fabric without nodes", NULL);
	g = read_as(&t1, IBTOPO_FILE_IBNETDISCOVER, "ibnetdiscover output");
	t2 = write_as(g, IBTOPO_EXPORT_IBNETDISCOVER);
	if (t1.len != t2.len || memcmp(t1.buf, t2.buf, t1.len))
		die("ibnetdiscover output does not read back the same", NULL);
	net = write_as(f, IBTOPO_EXPORT_IBSIM);
	h = read_as(&net, IBTOPO_FILE_IBSIM, "ibsim output");
	if (ibtopo_fabric_link_count(h) != ibtopo_fabric_link_count(f) ||
	    ibtopo_fabric_node_count(h) != ibtopo_fabric_node_count(f))
		die("ibsim output does not read back the same links", NULL);
	for (int k = IBTOPO_EXPORT_CSV; k <= IBTOPO_EXPORT_JSON; k++) {
		other = write_as(f, (enum ibtopo_export_format)k);
		free(other.buf);
	}
	write_sched(f, IBTOPO_EXPORT_SLURM);
	write_sched(f, IBTOPO_EXPORT_SLURM_BLOCK);
	write_sched(f, IBTOPO_EXPORT_SLURM_YAML);
	write_sched(f, IBTOPO_EXPORT_K8S);
	free(t1.buf);
	free(t2.buf);
	free(net.buf);
	ibtopo_fabric_free(g);
	ibtopo_fabric_free(h);
}

static struct ibtopo_fabric *fixed_fabric(void)
{
	struct mem m = { fixed.text, fixed.len, fixed.len };

	if (!fixed.text)
		die("no fixed fabric (IBTOPO_FUZZ_FABRIC, --fabric)", NULL);
	return read_as(&m, IBTOPO_FILE_AUTO, "fixed fabric");
}

static struct mem cables_of(const struct ibtopo_fabric *f,
			    enum ibtopo_format fmt)
{
	struct mem m = { NULL, 0, 0 };
	struct ibtopo_sink o = { IBTOPO_SINK_VERSION, fmt,
		mem_write, &m, 0 };
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
	struct mem before = cables_of(f, IBTOPO_FORMAT_TEXT), after, json;
	int rc;

	rc = ibtopo_cables_load_buffer(f, (const char *)data, size, "fuzz", &o,
				       &err);
	after = cables_of(f, IBTOPO_FORMAT_TEXT);
	if (rc) {
		if (rc != err.code || !err.message[0])
			die("a failed cable load gave no message", &err);
		if (before.len != after.len ||
		    memcmp(before.buf, after.buf, before.len))
			die("a failed cable load changed the fabric", NULL);
	} else {
		json = cables_of(f, IBTOPO_FORMAT_JSON);
		free(json.buf);
		if (ibtopo_check_links(&found, f, &co, &err))
			die("checks", &err);
		ibtopo_findings_release(&found);
	}
	free(before.buf);
	free(after.buf);
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
			struct mem m = { NULL, 0, 0 };
			struct ibtopo_sink so = { IBTOPO_SINK_VERSION,
				(enum ibtopo_format)k, mem_write, &m, 0 };

			if (ibtopo_report_health(&so, h, &found, &err))
				die("health report", &err);
			free(m.buf);
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

		for (size_t i = 0; i < ibtopo_fabric_node_count(f); i++) {
			const struct ibtopo_node *n = ibtopo_fabric_node(f, i);

			if (n->lft && (n->lft->top > IBTOPO_LFT_MAX_LID ||
				       n->type != IBTOPO_NODE_SWITCH))
				die("a table on a CA or past 0xbfff", NULL);
		}
		/* whatever the tables say, the analysis and its reports run */
		ro.bisections = 2;
		rc = ibtopo_routes_analyze(&r, f, NULL, &ro, &found, &err);
		if (rc && rc != IBTOPO_EINVAL)
			die("routes analysis", &err);
		for (int k = IBTOPO_FORMAT_TEXT; r && k <= IBTOPO_FORMAT_CSV;
		     k++) {
			struct mem m = { NULL, 0, 0 };
			struct ibtopo_sink so = { IBTOPO_SINK_VERSION,
				(enum ibtopo_format)k, mem_write, &m, 0 };

			if (ibtopo_report_routes(&so, r, &found, &err))
				die("routes report", &err);
			free(m.buf);
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
		check_written(f);
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
	check_written(f);
	ibtopo_fabric_free(f);
	return 0;
}

static void load_fixed(const char *path)
{
	FILE *f = fopen(path, "rb");
	struct mem m = { NULL, 0, 0 };
	char buf[65536];
	size_t n;

	if (!f) {
		perror(path);
		exit(2);
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		if (mem_write(&m, buf, n))
			exit(2);
	fclose(f);
	fixed.text = m.buf;
	fixed.len = m.len;
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
