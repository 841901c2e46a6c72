/* report_health.c - `ibtopo health`: per-port counters, rates, findings */
#include "report/report-int.h"
#include "ibtopo-int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct ibtopo__json json;

/*
 * The ports are written as they are formatted, not built as a jansson
 * tree first: on a 11,664-host fabric that tree was 4 million values and
 * most of `health --format json`'s time. The text is what jansson writes
 * (compact, keys in order, reals as "%.6g" with ".0" or a bare
 * exponent), so the output did not change; the findings still go through
 * the shared findings writer.
 */
struct jbuf {
	char *p;
	size_t len, cap;
	bool oom;
};

static void jb_put(struct jbuf *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		char *np;

		while (b->len + n + 1 > cap)
			cap *= 2;
		np = realloc(b->p, cap);
		if (!np) {
			b->oom = true;
			return;
		}
		b->p = np;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

static void jb_lit(struct jbuf *b, const char *s)
{
	jb_put(b, s, strlen(s));
}

/* A JSON string as jansson escapes it; NULL is null. */
static void jb_str(struct jbuf *b, const char *s)
{
	const char *run;

	if (!s) {
		jb_lit(b, "null");
		return;
	}
	jb_lit(b, "\"");
	for (run = s; *s; s++) {
		unsigned char c = (unsigned char)*s;
		char esc[8];

		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		jb_put(b, run, (size_t)(s - run));
		run = s + 1;
		switch (c) {
		case '"': jb_lit(b, "\\\""); break;
		case '\\': jb_lit(b, "\\\\"); break;
		case '\b': jb_lit(b, "\\b"); break;
		case '\f': jb_lit(b, "\\f"); break;
		case '\n': jb_lit(b, "\\n"); break;
		case '\r': jb_lit(b, "\\r"); break;
		case '\t': jb_lit(b, "\\t"); break;
		default:
			snprintf(esc, sizeof(esc), "\\u%04X", c);
			jb_lit(b, esc);
		}
	}
	jb_put(b, run, (size_t)(s - run));
	jb_lit(b, "\"");
}

/* A key and its colon; keys are plain ASCII names, nothing to escape. */
static void jb_key(struct jbuf *b, const char *key)
{
	jb_lit(b, "\"");
	jb_lit(b, key);
	jb_lit(b, "\":");
}

/* Digits of v, without printf (millions of numbers per report). */
static void jb_int(struct jbuf *b, int64_t v)
{
	char t[24], *q = t + sizeof(t);
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

	do {
		*--q = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*--q = '-';
	jb_put(b, q, (size_t)(t + sizeof(t) - q));
}

/* A real as jansson writes it with JSON_REAL_PRECISION(6). */
static void jb_real(struct jbuf *b, double v)
{
	char t[40], *e;
	int n;

	/* whole numbers below 10^6 print as "%.6g" does, plus ".0" */
	if (v > -999999.5 && v < 999999.5 && v == (double)(int64_t)v &&
	    !(v == 0 && signbit(v))) {
		jb_int(b, (int64_t)v);
		jb_lit(b, ".0");
		return;
	}
	n = snprintf(t, sizeof(t), "%.6g", v);

	if (!strchr(t, '.') && !strchr(t, 'e') && n + 2 < (int)sizeof(t)) {
		memcpy(t + n, ".0", 3);
		n += 2;
	}
	e = strchr(t, 'e');
	if (e) {
		/* "e+05" -> "e5", "e-05" -> "e-5" */
		char *q = e + 1, *d;

		if (*q == '+')
			memmove(q, q + 1, strlen(q));
		else if (*q == '-')
			q++;
		for (d = q; *d == '0' && d[1]; d++)
			;
		memmove(q, d, strlen(d) + 1);
		n = (int)strlen(t);
	}
	jb_put(b, t, (size_t)n);
}

static void jb_u64(struct jbuf *b, uint64_t v)
{
	if (v > INT64_MAX)
		jb_real(b, (double)v);
	else
		jb_int(b, (int64_t)v);
}

static void jb_guid(struct jbuf *b, uint64_t guid)
{
	char t[24];

	if (!guid) {
		jb_lit(b, "null");
		return;
	}
	snprintf(t, sizeof(t), "\"0x%016" PRIx64 "\"", guid);
	jb_lit(b, t);
}

static void end_json(struct jbuf *b, const struct ibtopo_port *p)
{
	if (!p) {
		jb_lit(b, "null");
		return;
	}
	jb_lit(b, "{");
	jb_key(b, "node");
	jb_str(b, p->node->desc);
	jb_lit(b, ",");
	jb_key(b, "guid");
	jb_guid(b, p->node->guid);
	jb_lit(b, ",");
	jb_key(b, "port");
	jb_int(b, p->num);
	jb_lit(b, "}");
}

/* Names of the counters whose bit is set in `mask`, as a JSON array. */
static void names_json(struct jbuf *b, uint32_t mask)
{
	bool first = true;

	jb_lit(b, "[");
	for (int i = 0; i < IBTOPO_CTR_COUNT_; i++) {
		if (!(mask & (1u << i)))
			continue;
		if (!first)
			jb_lit(b, ",");
		first = false;
		jb_str(b, ibtopo_counter_name(i));
	}
	jb_lit(b, "]");
}

static void port_json(struct jbuf *b, const struct ibtopo_health *h,
		      const struct ibtopo_health_port *x)
{
	bool first;

	jb_lit(b, "{");
	jb_key(b, "node");
	jb_str(b, x->port->node->desc);
	jb_lit(b, ",");
	jb_key(b, "guid");
	jb_guid(b, x->port->node->guid);
	jb_lit(b, ",");
	jb_key(b, "port");
	jb_int(b, x->port->num);
	jb_lit(b, ",");
	jb_key(b, "peer");
	end_json(b, x->port->remote);
	jb_lit(b, ",");
	jb_key(b, "read_at_ms");
	jb_int(b, x->now->read_at_ms);
	jb_lit(b, ",");
	jb_key(b, "counters");
	jb_lit(b, "{");
	for (int i = 0; i < IBTOPO_CTR_COUNT_; i++) {
		if (i)
			jb_lit(b, ",");
		jb_key(b, ibtopo_counter_name(i));
		if (x->now->valid & (1u << i))
			jb_u64(b, x->now->value[i]);
		else
			jb_lit(b, "null");
	}
	jb_lit(b, "},");
	jb_key(b, "saturated");
	names_json(b, x->saturated);
	if (h->since && !x->before) {
		jb_lit(b, ",");
		jb_key(b, "interval_h");
		jb_lit(b, "null");
	}
	if (h->since && x->before) {
		jb_lit(b, ",");
		jb_key(b, "interval_h");
		jb_real(b, x->hours);
		for (int pass = 0; pass < 2; pass++) {
			jb_lit(b, ",");
			jb_key(b, pass ? "rate_per_hour" : "growth");
			jb_lit(b, "{");
			first = true;
			for (int i = 0; i < IBTOPO_CTR_COUNT_; i++) {
				if (!(x->now->valid & x->before->valid &
				      (1u << i)))
					continue;
				if (!first)
					jb_lit(b, ",");
				first = false;
				jb_key(b, ibtopo_counter_name(i));
				if (pass)
					jb_real(b, x->rate[i]);
				else
					jb_u64(b, x->growth[i]);
			}
			jb_lit(b, "}");
		}
		jb_lit(b, ",");
		jb_key(b, "reset");
		names_json(b, x->reset);
	}
	jb_lit(b, "}");
}

static void link_end_json(struct jbuf *b, const struct ibtopo_port *p)
{
	jb_lit(b, "{");
	jb_key(b, "node");
	jb_str(b, p->node->desc);
	jb_lit(b, ",");
	jb_key(b, "guid");
	jb_guid(b, p->node->guid);
	jb_lit(b, ",");
	jb_key(b, "port");
	jb_int(b, p->num);
	jb_lit(b, "}");
}

/* ,"traffic":{"top":N,"links":[the top N],"levels":[...]} */
static void traffic_json(struct jbuf *b, const struct ibtopo_traffic *t)
{
	jb_lit(b, ",\"traffic\":{");
	jb_key(b, "top");
	jb_int(b, (int64_t)t->top);
	jb_lit(b, ",");
	jb_key(b, "links_with_data");
	jb_int(b, (int64_t)t->count);
	jb_lit(b, ",\"links\":[");
	for (size_t i = 0; i < t->count && i < t->top; i++) {
		const struct ibtopo_traffic_link *x = &t->links[i];

		if (i)
			jb_lit(b, ",");
		jb_lit(b, "{\"a\":");
		link_end_json(b, x->link->a);
		jb_lit(b, ",\"b\":");
		link_end_json(b, x->link->b);
		jb_lit(b, ",\"level\":");
		jb_int(b, x->level);
		jb_lit(b, ",\"bytes_ab\":");
		jb_u64(b, x->bytes_ab);
		jb_lit(b, ",\"bytes_ba\":");
		jb_u64(b, x->bytes_ba);
		jb_lit(b, ",\"gbps_ab\":");
		jb_real(b, x->gbps_ab);
		jb_lit(b, ",\"gbps_ba\":");
		jb_real(b, x->gbps_ba);
		jb_lit(b, ",\"capacity_gbps\":");
		jb_real(b, x->capacity_gbps);
		jb_lit(b, ",\"utilisation\":");
		jb_real(b, x->utilisation);
		jb_lit(b, ",\"interval_h\":");
		jb_real(b, x->hours);
		jb_lit(b, x->saturated ? ",\"saturated\":true}" :
			  ",\"saturated\":false}");
	}
	jb_lit(b, "],\"levels\":[");
	for (size_t k = 0; k < t->nlevels; k++) {
		const struct ibtopo_traffic_level *v = &t->levels[k];

		if (k)
			jb_lit(b, ",");
		jb_lit(b, "{\"level\":");
		jb_int(b, v->level);
		jb_lit(b, ",\"links\":");
		jb_int(b, (int64_t)v->links);
		jb_lit(b, ",\"bytes\":");
		jb_u64(b, v->bytes);
		jb_lit(b, ",\"capacity_bytes\":");
		jb_real(b, v->capacity_bytes);
		jb_lit(b, ",\"utilisation\":");
		jb_real(b, v->utilisation);
		jb_lit(b, "}");
	}
	jb_lit(b, "]}");
}

static int write_json(const struct ibtopo_sink *sink,
		      const struct ibtopo_health *h,
		      const struct ibtopo_findings *findings,
		      struct ibtopo_error *err)
{
	struct jbuf b = { NULL, 0, 0, false };
	json *f = NULL;
	int rc = 0;

	jb_lit(&b, "{\"schema_version\":1,\"ports\":[");
	for (size_t i = 0; !rc && i < h->count; i++) {
		if (i)
			jb_lit(&b, ",");
		port_json(&b, h, &h->ports[i]);
		if (b.oom)
			break;
		/* out in pieces of about 64 KiB */
		if (b.len >= 65536 || i + 1 == h->count) {
			rc = ibtopo__out_write(sink, b.p, b.len);
			b.len = 0;
		}
	}
	jb_lit(&b, "],\"findings\":");
	if (b.oom) {
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	if (rc || ibtopo__out_write(sink, b.p, b.len)) {
		rc = ibtopo__error_set(err, IBTOPO_EIO, "cannot write output");
		goto out_free;
	}
	f = ibtopo__findings_json(findings);
	rc = ibtopo__json_write(sink, f, err);
	if (!rc && h->traffic) {
		b.len = 0;
		traffic_json(&b, h->traffic);
		if (b.oom)
			rc = ibtopo__error_set(err, IBTOPO_ENOMEM,
					       "out of memory");
		else if (ibtopo__out_write(sink, b.p, b.len))
			rc = ibtopo__error_set(err, IBTOPO_EIO,
					       "cannot write output");
	}
	if (!rc && ibtopo__out_write(sink, "}\n", 2))
		rc = ibtopo__error_set(err, IBTOPO_EIO, "cannot write output");
out_free:
	ibtopo__json_free(f);
	free(b.p);
	return rc;
}

static int write_csv(const struct ibtopo_sink *sink,
		     const struct ibtopo_health *h, struct ibtopo_error *err)
{
	int rc = ibtopo__out_printf(sink, "node,guid,port,peer_node,peer_guid,"
				    "peer_port,read_at_ms");

	for (int i = 0; !rc && i < IBTOPO_CTR_COUNT_; i++)
		rc = ibtopo__out_printf(sink, ",%s", ibtopo_counter_name(i));
	if (!rc && h->since)
		rc = ibtopo__out_printf(sink, ",interval_h");
	for (int i = 0; !rc && h->since && i <= IBTOPO_CTR_VL15_DROPPED; i++)
		rc = ibtopo__out_printf(sink, ",%s_per_hour",
					ibtopo_counter_name(i));
	if (!rc)
		rc = ibtopo__out_printf(sink, "\n");
	for (size_t k = 0; !rc && k < h->count; k++) {
		const struct ibtopo_health_port *x = &h->ports[k];
		const struct ibtopo_port *peer = x->port->remote;

		rc = ibtopo__out_csv_field(sink, x->port->node->desc);
		if (!rc)
			rc = ibtopo__out_printf(sink, ",0x%016" PRIx64 ",%u,",
						x->port->node->guid,
						x->port->num);
		if (!rc && peer)
			rc = ibtopo__out_csv_field(sink, peer->node->desc) ||
			     ibtopo__out_printf(sink, ",0x%016" PRIx64 ",%u",
						peer->node->guid, peer->num);
		else if (!rc)
			rc = ibtopo__out_printf(sink, ",,");
		if (!rc)
			rc = ibtopo__out_printf(sink, ",%" PRId64,
						x->now->read_at_ms);
		for (int i = 0; !rc && i < IBTOPO_CTR_COUNT_; i++)
			rc = (x->now->valid & (1u << i)) ?
			     ibtopo__out_printf(sink, ",%" PRIu64,
						x->now->value[i]) :
			     ibtopo__out_printf(sink, ",");
		if (!rc && h->since)
			rc = x->before ? ibtopo__out_printf(sink, ",%.6f",
							    x->hours) :
			     ibtopo__out_printf(sink, ",");
		for (int i = 0; !rc && h->since && i <= IBTOPO_CTR_VL15_DROPPED;
		     i++)
			rc = x->before && (x->now->valid & x->before->valid &
					   (1u << i)) ?
			     ibtopo__out_printf(sink, ",%.3f", x->rate[i]) :
			     ibtopo__out_printf(sink, ",");
		if (!rc)
			rc = ibtopo__out_printf(sink, "\n");
	}
	if (rc)
		return ibtopo__error_set(err, IBTOPO_EIO, "cannot write output");
	return 0;
}

/* "1.2 GB": decimal units, as link rates are */
static const char *bytes_text(char *buf, size_t len, double v)
{
	static const char *const unit[] = { "B", "kB", "MB", "GB", "TB",
					    "PB", "EB" };
	unsigned u = 0;

	while (v >= 1000 && u + 1 < sizeof(unit) / sizeof(unit[0])) {
		v /= 1000;
		u++;
	}
	snprintf(buf, len, u ? "%.1f %s" : "%.0f %s", v, unit[u]);
	return buf;
}

static const char *level_text(char *buf, size_t len, unsigned level)
{
	if (!level)
		snprintf(buf, len, "host links");
	else
		snprintf(buf, len, "level %u up", level);
	return buf;
}

/* The busiest links, then the utilisation per level. */
static int traffic_text(const struct ibtopo_sink *sink,
			const struct ibtopo_traffic *t)
{
	char b1[32], b2[32], b3[32];
	int rc;

	if (!t->count)
		return ibtopo__out_printf(sink, "no traffic data (PortXmitData "
					  "in both snapshots)\n\n");
	rc = ibtopo__out_printf(sink, "busiest links (%zu of %zu; bytes a->b, "
				"b->a; busier direction against the link):\n",
				t->count < t->top ? t->count : t->top,
				t->count);
	for (size_t i = 0; !rc && i < t->count && i < t->top; i++) {
		const struct ibtopo_traffic_link *x = &t->links[i];

		rc = ibtopo__out_printf(sink,
			"  %s port %u <-> %s port %u  %s, %s%s  %.1f%% of "
			"%.0f Gb/s (%s)\n",
			x->link->a->node->desc, x->link->a->num,
			x->link->b->node->desc, x->link->b->num,
			bytes_text(b1, sizeof(b1), (double)x->bytes_ab),
			bytes_text(b2, sizeof(b2), (double)x->bytes_ba),
			x->saturated ? " or more (saturated)" : "",
			x->utilisation * 100, x->capacity_gbps,
			level_text(b3, sizeof(b3), x->level));
	}
	if (!rc)
		rc = ibtopo__out_printf(sink, "\nutilisation per level "
					"(carried / capacity over the "
					"interval):\n");
	for (size_t k = 0; !rc && k < t->nlevels; k++) {
		const struct ibtopo_traffic_level *v = &t->levels[k];

		if (!v->links)
			continue;
		rc = ibtopo__out_printf(sink, "  %-12s %6zu links  %s  %.2f%%\n",
			level_text(b3, sizeof(b3), v->level), v->links,
			bytes_text(b1, sizeof(b1), (double)v->bytes),
			v->utilisation * 100);
	}
	if (!rc)
		rc = ibtopo__out_printf(sink, "\n");
	return rc;
}

/* Ports with errors (or growth), worst first; then the findings. */
static int write_text(const struct ibtopo_sink *sink,
		      const struct ibtopo_health *h,
		      const struct ibtopo_findings *findings,
		      struct ibtopo_error *err)
{
	size_t shown = 0;
	int rc = 0;

	for (size_t k = 0; !rc && k < h->count; k++) {
		const struct ibtopo_health_port *x = &h->ports[k];
		const struct ibtopo_port *peer = x->port->remote;

		if (!x->errors && x->error_rate <= 0)
			continue;
		if (!shown++)
			rc = ibtopo__out_printf(sink, "ports with errors%s:\n",
				h->since ? " (count, and growth per hour)" : "");
		if (!rc)
			rc = ibtopo__out_printf(sink, "  %s port %u", 
						x->port->node->desc,
						x->port->num);
		if (!rc && peer)
			rc = ibtopo__out_printf(sink, " <-> %s port %u",
						peer->node->desc, peer->num);
		for (int i = 0; !rc && i <= IBTOPO_CTR_VL15_DROPPED; i++) {
			if (!(x->now->valid & (1u << i)) ||
			    (!x->now->value[i] && !x->growth[i]))
				continue;
			rc = ibtopo__out_printf(sink, "  %s=%" PRIu64 "%s",
				ibtopo_counter_name(i), x->now->value[i],
				(x->saturated & (1u << i)) ? "(saturated)" : "");
			if (!rc && x->before && x->hours > 0)
				rc = ibtopo__out_printf(sink, " (+%" PRIu64
					" %.1f/h%s)", x->growth[i], x->rate[i],
					(x->reset & (1u << i)) ? ", reset" : "");
		}
		if (!rc)
			rc = ibtopo__out_printf(sink, "\n");
	}
	if (!rc && !shown)
		rc = ibtopo__out_printf(sink, "no port errors on %zu ports with "
					"counters\n", h->count);
	if (!rc)
		rc = ibtopo__out_printf(sink, "\n");
	if (!rc && h->traffic)
		rc = traffic_text(sink, h->traffic);
	if (rc)
		return ibtopo__error_set(err, IBTOPO_EIO, "cannot write output");
	return ibtopo__findings_text(sink, NULL, 0, findings, err);
}

int ibtopo_report_health(const struct ibtopo_sink *sink,
			 const struct ibtopo_health *health,
			 const struct ibtopo_findings *findings,
			 struct ibtopo_error *err)
{
	if (!sink || !sink->write || !health)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no sink or health");
	switch (sink->format) {
	case IBTOPO_FORMAT_JSON:
		return write_json(sink, health, findings, err);
	case IBTOPO_FORMAT_CSV:
		return write_csv(sink, health, err);
	default:
		return write_text(sink, health, findings, err);
	}
}
