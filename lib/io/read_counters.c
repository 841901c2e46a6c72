/*
 * read_counters.c - port counters from files, attached to a fabric
 * (`import --counters`): the output of infiniband-diags' perfquery and
 * ibqueryerrors, told apart by their content.
 *
 * perfquery prints one block per port it was asked about, a header that
 * names the port by LID and number, then one "Field:....value" line per
 * counter of PortCounters (or, with -x, PortCountersExtended):
 *
 *   # Port counters: Lid 2 port 39 (CapMask: 0x1600)
 *   PortSelect:......................39
 *   SymbolErrorCounter:..............12
 *   # Port extended counters: Lid 2 port 39 (CapMask: 0x1600 ...)
 *   PortXmitData:....................123456789012
 *
 * ibqueryerrors prints the ports whose counters pass its thresholds, by
 * GUID (a switch's, or a CA port's) and port number:
 *
 *   Errors for 0x1000000000000200 "leaf01"
 *      GUID 0x1000000000000200 port 39: [SymbolErrorCounter == 12] ...
 *
 * Counters go to the ports as discover --counters stores them: the
 * values a file states are valid, the 64-bit data and packet counters of
 * an extended block are marked extended (and stay over 32-bit ones of
 * the same port), fields ibtopo does not keep are skipped. Ports the
 * fabric does not have (a LID or GUID it does not know, perfquery's
 * "port 255" sums) are counted, not an error. The whole file is read
 * before any port changes: bad input leaves the fabric as it was.
 */
#include "io-int.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

enum ctr_format { CTR_NONE, CTR_PERFQUERY, CTR_IBQUERYERRORS };

/* The counters of one port, before they go to the fabric. */
struct pending {
	struct ibtopo_port *port;
	struct ibtopo_counters c;
};

struct ctr_reader {
	struct ibtopo__src src;
	struct ibtopo_fabric *fabric;
	struct ibtopo_node **by_lid;	/* 65536 entries */
	struct ibtopo__imap seen;	/* port pointer -> pending index */
	struct pending *pend;
	size_t npend, apend;
	size_t unknown;
	int64_t read_at_ms;
	/* the perfquery block being read: its port (NULL: unknown) */
	struct pending *cur;
	bool in_block, cur_ext;
};

static const uint32_t data_counters =
	1u << IBTOPO_CTR_XMIT_DATA | 1u << IBTOPO_CTR_RCV_DATA |
	1u << IBTOPO_CTR_XMIT_PKTS | 1u << IBTOPO_CTR_RCV_PKTS;

static bool starts(const char *p, const char *w)
{
	return strncmp(p, w, strlen(w)) == 0;
}

static enum ctr_format format_of_line(const char *p)
{
	p = ibtopo__skip_ws(p);
	if (starts(p, "# Port counters:") ||
	    starts(p, "# Port extended counters:"))
		return CTR_PERFQUERY;
	if (starts(p, "Errors for ") || starts(p, "GUID 0x"))
		return CTR_IBQUERYERRORS;
	return CTR_NONE;
}

static int build_lid_table(struct ctr_reader *r)
{
	size_t nn = ibtopo_fabric_node_count(r->fabric);

	r->by_lid = calloc(65536, sizeof(*r->by_lid));
	if (!r->by_lid)
		return ibtopo__error_set(r->src.err, IBTOPO_ENOMEM,
					 "out of memory");
	for (size_t i = 0; i < nn; i++) {
		struct ibtopo_node *n = ibtopo_fabric_node(r->fabric, i);

		for (unsigned k = 0; k <= n->nports; k++) {
			const struct ibtopo_port *p = n->ports[k];
			unsigned span;

			if (!p || !p->lid)
				continue;
			span = 1u << (p->lmc > 7 ? 7 : p->lmc);
			for (unsigned l = p->lid; l < p->lid + span && l < 65536;
			     l++)
				r->by_lid[l] = n;
		}
	}
	return 0;
}

/* The pending counters of a port, added on first use. */
static int pending_of(struct pending **out, struct ctr_reader *r,
		      struct ibtopo_port *port)
{
	uint64_t key = ibtopo__mix64((uint64_t)(uintptr_t)port);
	size_t i = ibtopo__imap_find(&r->seen, key, NULL, NULL);

	if (i == SIZE_MAX) {
		if (r->npend == r->apend) {
			size_t n = r->apend ? 2 * r->apend : 64;
			struct pending *np = realloc(r->pend, n * sizeof(*np));

			if (!np)
				goto out_nomem;
			r->pend = np;
			r->apend = n;
		}
		i = r->npend++;
		memset(&r->pend[i], 0, sizeof(r->pend[i]));
		r->pend[i].port = port;
		r->pend[i].c.read_at_ms = r->read_at_ms;
		if (ibtopo__imap_put(&r->seen, key, i))
			goto out_nomem;
	}
	*out = &r->pend[i];
	return 0;

out_nomem:
	return ibtopo__error_set(r->src.err, IBTOPO_ENOMEM, "out of memory");
}

/*
 * One counter value: extended data counters win over 32-bit ones; a
 * value wider than the PortCounters field came from a 64-bit counter.
 */
static void put_value(struct pending *pd, int ctr, uint64_t v, bool ext)
{
	uint32_t bit = 1u << ctr;
	unsigned bits = ibtopo_counter_bits((enum ibtopo_counter)ctr, false);
	bool wide = (ext && (data_counters & bit)) || (bits < 64 && v >> bits);

	if (!wide && (pd->c.extended & bit))
		return;
	pd->c.value[ctr] = v;
	pd->c.valid |= bit;
	if (wide)
		pd->c.extended |= bit;
}

/* A decimal (or 0x hex) number, up to 2^64-1. */
static bool parse_value(const char **pp, uint64_t *out)
{
	const char *p = *pp;
	uint64_t v = 0;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		p += 2;
		if (!ibtopo__parse_hex64(&p, &v))
			return false;
	} else {
		if (!ibtopo__is_digit(*p))
			return false;
		for (; ibtopo__is_digit(*p); p++) {
			if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
				return false;
			v = v * 10 + (uint64_t)(*p - '0');
		}
	}
	*pp = p;
	*out = v;
	return true;
}

/* The node and port a LID or GUID names, or NULL (counted unknown). */
static struct ibtopo_port *port_at(struct ibtopo_node *n, unsigned long num)
{
	if (!n || num > n->nports)
		return NULL;
	return n->ports[num];
}

/* "# Port [extended ]counters: Lid N port P ..." */
static int perfquery_header(struct ctr_reader *r, const char *p)
{
	unsigned line = r->src.lineno;
	unsigned long lid, num;
	struct ibtopo_port *port;

	p = ibtopo__skip_ws(p);
	r->cur_ext = starts(p, "# Port extended counters:");
	p = strchr(p, ':') + 1;
	p = ibtopo__skip_ws(p);
	if (!ibtopo__word_at(p, "Lid"))
		return ibtopo__src_error(&r->src, line,
			"expected 'Lid N port P' after the header (perfquery "
			"addressed by LID)");
	p = ibtopo__skip_ws(p + 3);
	if (!ibtopo__parse_uint(&p, 65535, &lid))
		return ibtopo__src_error(&r->src, line,
					 "expected a LID (0..65535)");
	p = ibtopo__skip_ws(p);
	if (!ibtopo__word_at(p, "port"))
		return ibtopo__src_error(&r->src, line,
					 "expected 'port P' after the LID");
	p = ibtopo__skip_ws(p + 4);
	if (!ibtopo__parse_uint(&p, 255, &num) ||
	    (*p && *p != ' ' && *p != '\t'))
		return ibtopo__src_error(&r->src, line,
					 "expected a port number (0..255)");
	r->in_block = true;
	r->cur = NULL;
	port = port_at(r->by_lid[lid], num);
	if (!port || num == 255) {
		r->unknown++;
		return 0;
	}
	return pending_of(&r->cur, r, port);
}

/* "Field:.......value" inside a perfquery block */
static int perfquery_field(struct ctr_reader *r, const char *p)
{
	unsigned line = r->src.lineno;
	const char *colon = strchr(p, ':');
	char name[64];
	uint64_t v;
	int ctr;

	if (!r->in_block)
		return ibtopo__src_error(&r->src, line,
			"expected '# Port counters: Lid N port P' before "
			"the counters");
	if (!colon || colon == p || (size_t)(colon - p) >= sizeof(name))
		return ibtopo__src_error(&r->src, line,
					 "expected 'Field:....value'");
	memcpy(name, p, (size_t)(colon - p));
	name[colon - p] = '\0';
	for (p = colon + 1; *p == '.'; p++)
		;
	p = ibtopo__skip_ws(p);
	if (!parse_value(&p, &v) || *ibtopo__skip_ws(p))
		return ibtopo__src_error(&r->src, line,
			"expected a number after '%s:'", name);
	ctr = ibtopo_counter_parse(name);
	if (ctr >= 0 && r->cur)
		put_value(r->cur, ctr, v, r->cur_ext);
	return 0;
}

/* "GUID 0x... port N: [Counter == value] ..." */
static int ibqueryerrors_port(struct ctr_reader *r, const char *p)
{
	unsigned line = r->src.lineno;
	struct ibtopo_port *port = NULL;
	struct pending *pd = NULL;
	struct ibtopo_node *n;
	unsigned long num = 255;
	uint64_t guid;
	int rc;

	p = ibtopo__skip_ws(p + 4);
	if (!ibtopo__parse_hex64(&p, &guid))
		return ibtopo__src_error(&r->src, line,
					 "expected a GUID after 'GUID'");
	p = ibtopo__skip_ws(p);
	if (!ibtopo__word_at(p, "port"))
		return ibtopo__src_error(&r->src, line,
					 "expected 'port N:' after the GUID");
	p = ibtopo__skip_ws(p + 4);
	if (starts(p, "ALL"))
		p += 3;
	else if (!ibtopo__parse_uint(&p, 255, &num))
		return ibtopo__src_error(&r->src, line,
			"expected a port number (0..255) or ALL");
	if (*p++ != ':')
		return ibtopo__src_error(&r->src, line,
					 "expected ':' after the port");
	n = ibtopo_fabric_find_node(r->fabric, guid);
	if (n)
		port = port_at(n, num);
	if (!port) {
		port = ibtopo_fabric_find_port(r->fabric, guid);
		if (port && port->num != num)
			port = port_at(port->node, num);
	}
	if (num == 255)
		port = NULL;
	if (!port)
		r->unknown++;
	else if ((rc = pending_of(&pd, r, port)))
		return rc;
	for (p = ibtopo__skip_ws(p); *p; p = ibtopo__skip_ws(p)) {
		const char *name = p + 1, *end;
		char buf[64];
		uint64_t v;
		int ctr;

		if (*p != '[')
			return ibtopo__src_error(&r->src, line,
				"expected '[Counter == value]'");
		end = strstr(name, " == ");
		if (!end || end == name || (size_t)(end - name) >= sizeof(buf))
			return ibtopo__src_error(&r->src, line,
				"expected '[Counter == value]'");
		memcpy(buf, name, (size_t)(end - name));
		buf[end - name] = '\0';
		p = end + 4;
		if (!parse_value(&p, &v))
			return ibtopo__src_error(&r->src, line,
				"expected a number after '%s =='", buf);
		/* --details and --data add "(4.82MB)" after the value */
		end = strchr(p, ']');
		if (!end)
			return ibtopo__src_error(&r->src, line,
						 "expected ']' after the value");
		p = end + 1;
		ctr = ibtopo_counter_parse(buf);
		if (ctr >= 0 && pd)
			put_value(pd, ctr, v, false);
	}
	return 0;
}

static int read_lines(struct ctr_reader *r, enum ctr_format fmt)
{
	int rc;

	while ((rc = ibtopo__src_next(&r->src)) > 0) {
		const char *p = ibtopo__skip_ws(r->src.line);

		if (!*p)
			continue;
		if (fmt == CTR_PERFQUERY) {
			if (format_of_line(p) == CTR_PERFQUERY)
				rc = perfquery_header(r, p);
			else if (*p == '#')
				continue;
			else
				rc = perfquery_field(r, p);
		} else {
			/* summaries ("## ...") and link info lines pass */
			if (*p == '#' || starts(p, "Errors for ") ||
			    starts(p, "Link info:"))
				continue;
			if (starts(p, "GUID "))
				rc = ibqueryerrors_port(r, p);
			else
				rc = ibtopo__src_error(&r->src,
					r->src.lineno,
					"expected 'GUID 0x... port N: "
					"[Counter == value]'");
		}
		if (rc)
			return rc;
	}
	return rc;
}

static enum ctr_format detect(const char *buf, size_t len)
{
	size_t pos = 0;

	while (pos < len) {
		const char *p = buf + pos, *nl = memchr(p, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - p) : len - pos;
		char line[64];
		enum ctr_format f;

		pos += n + 1;
		if (n >= sizeof(line))
			n = sizeof(line) - 1;
		memcpy(line, p, n);
		line[n] = '\0';
		f = format_of_line(line);
		if (f != CTR_NONE)
			return f;
	}
	return CTR_NONE;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int load(struct ibtopo_fabric *fabric, const char *data, size_t len,
		const char *name, const struct ibtopo_counters_load_opts *opts,
		int64_t read_at_ms, size_t *out_unknown,
		struct ibtopo_error *err)
{
	struct ibtopo_read_opts ro = IBTOPO_READ_OPTS_INIT;
	struct ctr_reader r;
	enum ctr_format fmt;
	int rc;

	memset(&r, 0, sizeof(r));
	if (opts) {
		ro.warn = opts->warn;
		ro.warn_arg = opts->warn_arg;
	}
	ibtopo__src_init(&r.src, data, len, name, &ro, err);
	r.fabric = fabric;
	r.read_at_ms = opts && opts->read_at_ms ? opts->read_at_ms : read_at_ms;
	for (size_t i = 0; i < len; i++)
		if (!data[i])
			return ibtopo__src_error(&r.src, 1,
				"binary data (expected perfquery or "
				"ibqueryerrors output)");
	fmt = detect(data, len);
	if (fmt == CTR_NONE)
		return ibtopo__src_error(&r.src, 1,
			"expected perfquery output ('# Port counters: Lid N "
			"port P') or ibqueryerrors output ('GUID 0x... port "
			"N: [Counter == value]')");
	rc = build_lid_table(&r);
	if (rc)
		goto out_release;
	rc = read_lines(&r, fmt);
	if (rc)
		goto out_release;
	for (size_t i = 0; i < r.npend; i++) {
		if (!r.pend[i].c.valid)
			continue;
		rc = ibtopo_port_set_counters(r.pend[i].port, &r.pend[i].c,
					      err);
		if (rc)
			goto out_release;
	}
	if (out_unknown)
		*out_unknown = r.unknown;

out_release:
	ibtopo__imap_release(&r.seen);
	free(r.pend);
	free(r.by_lid);
	return rc;
}

int ibtopo_counters_load_buffer(struct ibtopo_fabric *fabric, const char *data,
				size_t len, const char *name,
				const struct ibtopo_counters_load_opts *opts,
				size_t *out_unknown, struct ibtopo_error *err)
{
	if (!fabric || (!data && len))
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "no fabric or no data");
	return load(fabric, data ? data : "", len, name ? name : "counters",
		    opts, now_ms(), out_unknown, err);
}

int ibtopo_counters_load(struct ibtopo_fabric *fabric, const char *path,
			 const struct ibtopo_counters_load_opts *opts,
			 size_t *out_unknown, struct ibtopo_error *err)
{
	int64_t at = now_ms();
	struct stat st;
	char *buf = NULL;
	size_t len = 0;
	int rc;

	if (!fabric || !path)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "no fabric or no path");
	rc = ibtopo__read_whole_file(&buf, &len, path, err);
	if (rc)
		return rc;
	if (stat(path, &st) == 0 && st.st_mtime > 0)
		at = (int64_t)st.st_mtim.tv_sec * 1000 +
		     st.st_mtim.tv_nsec / 1000000;
	rc = load(fabric, buf, len, path, opts, at, out_unknown, err);
	free(buf);
	return rc;
}
