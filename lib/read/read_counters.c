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
 * ibdiagnet writes the counters it read to ibdiagnet2.pm, one block per
 * port, a header naming it by port number and GUID (the switch's, or the
 * CA port's), then "name=value" lines, values in hex, NA when not read:
 *
 *   Port=39 Lid=0x0002 GUID=0x1000000000000200 Device=54000 Port Name=leaf01/P39
 *   symbol_error_counter=0x000000000000000c
 *   port_xmit_data_extended=0x0000001cbe991a14
 *
 * and to the PM_INFO section of ibdiagnet2.db_csv (read with the section
 * reader of cables_dbcsv.c), a CSV header NodeGUID,PortGUID,PortNumber, then the
 * IBA names; "...Ext" / "...Extended" columns are the 64-bit counters.
 * With --pm_pause_time ibdiagnet reads the counters twice and writes the
 * growth between the two readings to PM_DELTA, same columns: PM_INFO is
 * taken as the later reading, and with opts->before the earlier one
 * (PM_INFO - PM_DELTA, pm_pause_ms earlier) goes to the same ports of
 * that fabric, so that health has growth and rates from one file.
 *
 * Counters go to the ports as discover --counters stores them: the
 * values a file states are valid, the 64-bit data and packet counters of
 * an extended block are marked extended (and stay over 32-bit ones of
 * the same port), fields ibtopo does not keep are skipped. Ports the
 * fabric does not have (a LID or GUID it does not know, perfquery's
 * "port 255" sums) are counted, not an error. The whole file is read
 * before any port changes: bad input leaves the fabric as it was.
 */
#include "cables/cables-int.h"
#include "read/read-int.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

enum ctr_format {
	CTR_NONE, CTR_PERFQUERY, CTR_IBQUERYERRORS, CTR_IBDIAG_PM, CTR_DBCSV
};

/* The counters of one port, before they go to the fabric. */
struct pending {
	struct ibtopo_port *port;
	struct ibtopo_counters c;
};

/* Pending counters by port. */
struct plist {
	struct ibtopo__imap seen;	/* port pointer -> pending index */
	struct pending *pend;
	size_t npend, apend;
};

struct ctr_reader {
	struct ibtopo__src src;
	struct ibtopo_fabric *fabric;
	struct ibtopo_node **by_lid;	/* 65536 entries */
	struct plist now;
	struct plist delta;		/* db_csv PM_DELTA */
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
	if (starts(p, "Port=") && ibtopo__is_digit(p[5]) && strstr(p, " GUID="))
		return CTR_IBDIAG_PM;
	if (starts(p, "START_PM_INFO") || starts(p, "START_PM_DELTA"))
		return CTR_DBCSV;
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

static size_t plist_find(const struct plist *l, const struct ibtopo_port *port)
{
	uint64_t key = ibtopo__mix64((uint64_t)(uintptr_t)port);

	return ibtopo__imap_find(&l->seen, key, NULL, NULL);
}

/* The pending counters of a port in `l`, added on first use. */
static int pending_in(struct pending **out, struct ctr_reader *r,
		      struct plist *l, struct ibtopo_port *port)
{
	uint64_t key = ibtopo__mix64((uint64_t)(uintptr_t)port);
	size_t i = ibtopo__imap_find(&l->seen, key, NULL, NULL);

	if (i == SIZE_MAX) {
		if (l->npend == l->apend) {
			size_t n = l->apend ? 2 * l->apend : 64;
			struct pending *np = realloc(l->pend, n * sizeof(*np));

			if (!np)
				goto out_nomem;
			l->pend = np;
			l->apend = n;
		}
		i = l->npend++;
		memset(&l->pend[i], 0, sizeof(l->pend[i]));
		l->pend[i].port = port;
		l->pend[i].c.read_at_ms = r->read_at_ms;
		if (ibtopo__imap_put(&l->seen, key, i))
			goto out_nomem;
	}
	*out = &l->pend[i];
	return 0;

out_nomem:
	return ibtopo__error_set(r->src.err, IBTOPO_ENOMEM, "out of memory");
}

static int pending_of(struct pending **out, struct ctr_reader *r,
		      struct ibtopo_port *port)
{
	return pending_in(out, r, &r->now, port);
}

/*
 * One counter value: 64-bit (extended) counters win over the narrower
 * ones of PortCounters; a value wider than the PortCounters field came
 * from a 64-bit counter.
 */
static void put_value(struct pending *pd, int ctr, uint64_t v, bool ext)
{
	uint32_t bit = 1u << ctr;
	unsigned bits = ibtopo_counter_bits((enum ibtopo_counter)ctr, false);
	bool wide = ext || (bits < 64 && v >> bits);

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
		put_value(r->cur, ctr, v,
			  r->cur_ext && (data_counters & (1u << ctr)));
	return 0;
}

/*
 * Port `num` of the node whose node GUID, or one of whose port GUIDs, is
 * `guid`; NULL when the fabric has none (or for 255, all ports).
 */
static struct ibtopo_port *port_by_guid(struct ctr_reader *r, uint64_t guid,
					unsigned long num)
{
	struct ibtopo_node *n = ibtopo_fabric_find_node(r->fabric, guid);
	struct ibtopo_port *port = NULL;

	if (num == 255)
		return NULL;
	if (n)
		port = port_at(n, num);
	if (!port) {
		port = ibtopo_fabric_find_port(r->fabric, guid);
		if (port && port->num != num)
			port = port_at(port->node, num);
	}
	return port;
}

/* "GUID 0x... port N: [Counter == value] ..." */
static int ibqueryerrors_port(struct ctr_reader *r, const char *p)
{
	unsigned line = r->src.lineno;
	struct ibtopo_port *port;
	struct pending *pd = NULL;
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
	port = port_by_guid(r, guid, num);
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

/*
 * A counter by the name ibdiagnet gives it: the IBA name
 * ("SymbolErrorCounter") or its snake case ("symbol_error_counter"), a
 * "Ext" / "Extended" / "_extended" ending for the 64-bit counter (*ext),
 * and the few names ibdiagnet2.pm shortens. -1: not a counter ibtopo keeps.
 */
static int counter_of(const char *name, size_t n, bool *ext)
{
	static const struct {
		const char *name;
		enum ibtopo_counter ctr;
	} aliases[] = {
		{ "linkdowncounter", IBTOPO_CTR_LINK_DOWNED },
		{ "portxmitdiscard", IBTOPO_CTR_XMIT_DISCARDS },
		{ "excessivebuffererrors",
		  IBTOPO_CTR_EXCESSIVE_BUFFER_OVERRUN_ERRORS },
	};
	char buf[64];
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		char c = name[i];

		if (c == '_')
			continue;
		if (k + 1 >= sizeof(buf))
			return -1;
		buf[k++] = (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
	}
	buf[k] = '\0';
	*ext = false;
	if (k > 8 && strcmp(buf + k - 8, "extended") == 0) {
		buf[k - 8] = '\0';
		*ext = true;
	} else if (k > 3 && strcmp(buf + k - 3, "ext") == 0) {
		buf[k - 3] = '\0';
		*ext = true;
	}
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (strcmp(buf, aliases[i].name) == 0)
			return aliases[i].ctr;
	return ibtopo_counter_parse(buf);
}

/* ibdiagnet's word for a value it did not read */
static bool is_na(const char *p)
{
	return strcmp(p, "NA") == 0 || strcmp(p, "N/A") == 0 ||
	       strcmp(p, "na") == 0 || strcmp(p, "n/a") == 0;
}

/* "Port=N Lid=0x... GUID=0x... Device=... Port Name=..." */
static int pm_header(struct ctr_reader *r, const char *p)
{
	unsigned line = r->src.lineno;
	const char *g = strstr(p, " GUID=");
	struct ibtopo_port *port;
	unsigned long num;
	uint64_t guid;

	p += 5;
	if (!ibtopo__parse_uint(&p, 255, &num) || (*p != ' ' && *p != '\t'))
		return ibtopo__src_error(&r->src, line,
			"expected a port number (0..255) after 'Port='");
	g += 6;
	if (!ibtopo__parse_hex64(&g, &guid))
		return ibtopo__src_error(&r->src, line,
					 "expected a GUID after 'GUID='");
	r->in_block = true;
	r->cur = NULL;
	port = port_by_guid(r, guid, num);
	if (!port) {
		r->unknown++;
		return 0;
	}
	return pending_of(&r->cur, r, port);
}

/* "name=value" inside an ibdiagnet2.pm block */
static int pm_field(struct ctr_reader *r, const char *p)
{
	unsigned line = r->src.lineno;
	const char *eq = strchr(p, '=');
	uint64_t v;
	bool ext;
	int ctr;

	if (!r->in_block)
		return ibtopo__src_error(&r->src, line,
			"expected 'Port=N Lid=... GUID=0x...' before the "
			"counters");
	if (!eq || eq == p)
		return ibtopo__src_error(&r->src, line,
					 "expected 'counter_name=value'");
	ctr = counter_of(p, (size_t)(eq - p), &ext);
	p = ibtopo__skip_ws(eq + 1);
	if (is_na(p))
		return 0;
	if (!parse_value(&p, &v) || *ibtopo__skip_ws(p))
		return ibtopo__src_error(&r->src, line,
			"expected a number or NA after '='");
	if (ctr >= 0 && r->cur)
		put_value(r->cur, ctr, v, ext);
	return 0;
}

static int read_lines(struct ctr_reader *r, enum ctr_format fmt)
{
	int rc;

	while ((rc = ibtopo__src_next(&r->src)) > 0) {
		const char *p = ibtopo__skip_ws(r->src.line);

		if (!*p)
			continue;
		if (fmt == CTR_IBDIAG_PM) {
			if (*p == '-' || *p == '#')
				continue;
			if (format_of_line(p) == CTR_IBDIAG_PM)
				rc = pm_header(r, p);
			else
				rc = pm_field(r, p);
		} else if (fmt == CTR_PERFQUERY) {
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

#define DBCSV_MAX_FIELDS 512

/*
 * One PM section of a db_csv (PM_INFO or PM_DELTA) into `l`: the header
 * names the port columns and the counters, each row one port.
 */
static int read_pm_section(struct ctr_reader *r, struct ibtopo__dbcsv *sec,
			   const char *name, struct plist *l)
{
	char *f[DBCSV_MAX_FIELDS];
	int ctr[DBCSV_MAX_FIELDS];
	bool ext[DBCSV_MAX_FIELDS];
	int n, ncol = 0, c_node = -1, c_pguid = -1, c_num = -1;

	while ((n = ibtopo__dbcsv_row(sec, f, DBCSV_MAX_FIELDS)) != 0) {
		struct ibtopo_port *port = NULL;
		struct pending *pd;
		unsigned long num;
		uint64_t guid;
		const char *p;
		int rc;

		if (n < 0)
			return ibtopo__src_error(&r->src, sec->no,
						 "unterminated quote");
		if (!ncol) {
			for (int i = 0; i < n; i++) {
				if (strcasecmp(f[i], "NodeGUID") == 0)
					c_node = i;
				else if (strcasecmp(f[i], "PortGUID") == 0)
					c_pguid = i;
				else if (strcasecmp(f[i], "PortNumber") == 0 ||
					 strcasecmp(f[i], "PortNum") == 0)
					c_num = i;
				ctr[i] = counter_of(f[i], strlen(f[i]), &ext[i]);
			}
			if (c_num < 0 || (c_node < 0 && c_pguid < 0))
				return ibtopo__src_error(&r->src, sec->no,
					"the %s header lacks PortNumber or "
					"NodeGUID", name);
			ncol = n;
			continue;
		}
		p = c_num < n ? f[c_num] : "";
		if (!ibtopo__parse_uint(&p, 255, &num) || *p)
			return ibtopo__src_error(&r->src, sec->no,
				"bad PortNumber '%s'", c_num < n ? f[c_num] : "");
		for (int k = 0; k < 2 && !port; k++) {
			int c = k ? c_pguid : c_node;

			if (c < 0 || c >= n || !*f[c])
				continue;
			p = f[c];
			if (!ibtopo__parse_hex64(&p, &guid) || *p)
				return ibtopo__src_error(&r->src, sec->no,
					"bad GUID '%s'", f[c]);
			port = port_by_guid(r, guid, num);
		}
		if (!port) {
			if (l == &r->now)
				r->unknown++;
			continue;
		}
		rc = pending_in(&pd, r, l, port);
		if (rc)
			return rc;
		for (int i = 0; i < n && i < ncol; i++) {
			uint64_t v;

			if (ctr[i] < 0 || !*f[i] || is_na(f[i]))
				continue;
			p = f[i];
			if (!parse_value(&p, &v) || *p)
				return ibtopo__src_error(&r->src, sec->no,
					"bad %s value '%s'",
					ibtopo_counter_name(ctr[i]),
					f[i]);
			put_value(pd, ctr[i], v, ext[i]);
		}
	}
	return 0;
}

/* The PM_INFO and PM_DELTA sections of an ibdiagnet2.db_csv. */
static int read_dbcsv(struct ctr_reader *r, const char *data, size_t len)
{
	struct ibtopo__dbcsv info, delta;
	bool has_info, has_delta;
	char *text;
	int rc = 0;

	text = malloc(len + 1);
	if (!text)
		return ibtopo__error_set(r->src.err, IBTOPO_ENOMEM,
					 "out of memory");
	memcpy(text, data, len);
	text[len] = '\0';
	has_info = ibtopo__dbcsv_section(&info, text, "PM_INFO");
	has_delta = ibtopo__dbcsv_section(&delta, text, "PM_DELTA");
	if (!has_info)
		rc = ibtopo__src_error(&r->src, 1,
			"the ibdiagnet db_csv file has no PM_INFO section");
	if (!rc)
		rc = read_pm_section(r, &info, "PM_INFO", &r->now);
	if (!rc && has_delta)
		rc = read_pm_section(r, &delta, "PM_DELTA", &r->delta);
	free(text);
	return rc;
}

/*
 * The earlier reading of PM_DELTA onto the same ports of `before`: the
 * later one less the growth, pause_ms earlier. A counter lower than its
 * growth (PM_INFO was the first reading after all) is raised to it, so
 * the growth stays what ibdiagnet measured.
 */
static int apply_delta(struct ctr_reader *r, struct ibtopo_fabric *before,
		       int64_t pause_ms, struct ibtopo_error *err)
{
	for (size_t i = 0; i < r->delta.npend; i++) {
		const struct pending *d = &r->delta.pend[i];
		size_t k = plist_find(&r->now, d->port);
		struct ibtopo_counters *now, was;
		struct ibtopo_node *bn;
		struct ibtopo_port *bp;
		int rc;

		if (k == SIZE_MAX)
			continue;
		now = &r->now.pend[k].c;
		bn = ibtopo_fabric_find_node(before, d->port->node->guid);
		bp = bn && d->port->num <= bn->nports ?
			     bn->ports[d->port->num] : NULL;
		if (!bp || !(now->valid & d->c.valid))
			continue;
		memset(&was, 0, sizeof(was));
		for (int c = 0; c < IBTOPO_CTR_COUNT_; c++) {
			uint32_t bit = 1u << c;

			if (!(now->valid & d->c.valid & bit))
				continue;
			if (now->value[c] < d->c.value[c])
				now->value[c] = d->c.value[c];
			was.value[c] = now->value[c] - d->c.value[c];
			was.valid |= bit;
		}
		was.extended = now->extended & was.valid;
		was.read_at_ms = now->read_at_ms - pause_ms;
		rc = ibtopo_port_set_counters(bp, &was, err);
		if (rc)
			return rc;
	}
	return 0;
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
	struct ibtopo_fabric *before = NULL;
	int64_t pause_ms = 1000;
	struct ctr_reader r;
	enum ctr_format fmt;
	int rc;

	memset(&r, 0, sizeof(r));
	if (opts) {
		ro.warn = opts->warn;
		ro.warn_arg = opts->warn_arg;
	}
	if (opts && opts->version >= 2) {
		before = opts->before;
		if (opts->pm_pause_ms)
			pause_ms = opts->pm_pause_ms;
	}
	ibtopo__src_init(&r.src, data, len, name, &ro, err);
	r.fabric = fabric;
	r.read_at_ms = opts && opts->read_at_ms ? opts->read_at_ms : read_at_ms;
	for (size_t i = 0; i < len; i++)
		if (!data[i])
			return ibtopo__src_error(&r.src, 1,
				"binary data (expected perfquery, "
				"ibqueryerrors or ibdiagnet output)");
	fmt = detect(data, len);
	if (fmt == CTR_NONE)
		return ibtopo__src_error(&r.src, 1,
			"expected counters: perfquery, ibqueryerrors, "
			"ibdiagnet2.pm or ibdiagnet2.db_csv output");
	rc = build_lid_table(&r);
	if (rc)
		goto out_release;
	rc = fmt == CTR_DBCSV ? read_dbcsv(&r, data, len) : read_lines(&r, fmt);
	if (rc)
		goto out_release;
	if (before) {
		rc = apply_delta(&r, before, pause_ms, err);
		if (rc)
			goto out_release;
	}
	for (size_t i = 0; i < r.now.npend; i++) {
		if (!r.now.pend[i].c.valid)
			continue;
		rc = ibtopo_port_set_counters(r.now.pend[i].port,
					      &r.now.pend[i].c, err);
		if (rc)
			goto out_release;
	}
	if (out_unknown)
		*out_unknown = r.unknown;

out_release:
	ibtopo__imap_release(&r.now.seen);
	ibtopo__imap_release(&r.delta.seen);
	free(r.now.pend);
	free(r.delta.pend);
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
