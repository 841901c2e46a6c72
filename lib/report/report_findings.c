/*
 * report_findings.c - the table / JSON / CSV every report command
 * (analyze, validate, diff) writes. What each kind says, and which keys
 * its values go to, comes from the table of kinds (lib/findings/).
 */
#include "report/report-int.h"
#include "findings/findings-int.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* -------------------------------------------------------------- columns */

struct ctx {
	char scratch[1024];
	/* text: descriptions that name more than one node */
	struct ibtopo__shared_names names;
	/* text: the rows that stand for several findings (summarize_rows) */
	struct ibtopo_finding *sums;
	size_t *nsame;		/* the findings each of sums[] stands for */
	size_t nsums;
};

#define FND(r) ((const struct ibtopo_finding *)(r))
#define CTX(x) ((struct ctx *)(x))

static bool end_is_set(const struct ibtopo_end *e)
{
	return e->node || e->guid;
}

static void g_kind(const void *r, void *x, struct ibtopo__cell *c)
{
	ibtopo__cell_str(c, ibtopo_finding_kind_name(FND(r)->kind));
}

static void g_severity(const void *r, void *x, struct ibtopo__cell *c)
{
	ibtopo__cell_str(c, ibtopo_severity_name(FND(r)->severity));
}

#define END_GETTERS(E)							\
static void g_##E##_node(const void *r, void *x, struct ibtopo__cell *c) \
{									\
	if (FND(r)->E.node)						\
		ibtopo__cell_str(c, FND(r)->E.node);				\
}									\
static void g_##E##_guid(const void *r, void *x, struct ibtopo__cell *c) \
{									\
	if (FND(r)->E.guid) {						\
		c->type = IBTOPO__GUID;					\
		c->g = FND(r)->E.guid;					\
	}								\
}									\
static void g_##E##_port(const void *r, void *x, struct ibtopo__cell *c) \
{									\
	if (FND(r)->E.port >= 0 && end_is_set(&FND(r)->E))		\
		ibtopo__cell_int(c, FND(r)->E.port);				\
}

END_GETTERS(a)
END_GETTERS(b)
END_GETTERS(c)
END_GETTERS(d)

static void g_message(const void *r, void *x, struct ibtopo__cell *c)
{
	ibtopo__finding_sentence(CTX(x)->scratch, sizeof(CTX(x)->scratch),
				 FND(r), &CTX(x)->names);
	ibtopo__cell_str(c, CTX(x)->scratch);
}

/* A value of a finding in `unit`, as its kind's descriptor says. */
static void set_value(struct ibtopo__cell *c, const struct ibtopo_finding *f,
		      enum ibtopo__unit unit, unsigned v)
{
	switch (unit) {
	case IBTOPO__UNIT_SPEED:
		if (v)
			ibtopo__cell_str(c, ibtopo_speed_name(v));
		break;
	case IBTOPO__UNIT_WIDTH:
		if (v)
			ibtopo__cell_str(c, ibtopo_width_name(v));
		break;
	case IBTOPO__UNIT_COUNT:
		ibtopo__cell_int(c, v);
		break;
	case IBTOPO__UNIT_PORT_STATE:
		ibtopo__cell_str(c, f->subkind == IBTOPO_STATE_PHYSICAL ?
			   ibtopo_phys_state_name(v) : ibtopo_port_state_name(v));
		break;
	default:
		break;
	}
}

/* A field of a finding's family in its unit (families.c). */
static void set_detail(struct ibtopo__cell *c, const struct ibtopo_finding *f,
		       const struct ibtopo__finding_kind *k,
		       const struct ibtopo__detail *d)
{
	const char *at = (const char *)f + d->offset;
	enum ibtopo__unit unit = d->unit == IBTOPO__UNIT_KIND ? k->unit : d->unit;
	unsigned u = 0;
	double v = 0;

	if (d->type == IBTOPO__DT_UNSIGNED) {
		memcpy(&u, at, sizeof(u));
		v = u;
	} else if (d->type == IBTOPO__DT_DOUBLE) {
		memcpy(&v, at, sizeof(v));
	}
	switch (unit) {
	case IBTOPO__UNIT_COUNT:
		if (d->type == IBTOPO__DT_DOUBLE)
			ibtopo__cell_int(c, (int64_t)v);
		else
			ibtopo__cell_int(c, u);
		break;
	case IBTOPO__UNIT_REAL:
		ibtopo__cell_real(c, v);
		break;
	case IBTOPO__UNIT_MS_AS_S:
		ibtopo__cell_real(c, u / 1000.0);
		break;
	case IBTOPO__UNIT_COUNTER:
		ibtopo__cell_str(c, ibtopo_counter_name(f->subkind));
		break;
	case IBTOPO__UNIT_MEDIA:
		if (f->subkind)
			ibtopo__cell_str(c, ibtopo_media_name(
						    (enum ibtopo_media)f->subkind));
		break;
	default:
		set_value(c, f, unit, u);
		break;
	}
}

/* The column `key`: the field of that key of the finding's family, if
 * its family has one (families.c). */
static void detail_column(const void *r, const char *key,
			  struct ibtopo__cell *c)
{
	const struct ibtopo_finding *f = FND(r);
	const struct ibtopo__finding_kind *k = ibtopo__finding_kind(f->kind);
	const struct ibtopo__detail *d;
	size_t n;

	if (!k)
		return;
	d = ibtopo__family_details(k->family, &n);
	for (size_t i = 0; i < n; i++)
		if (strcmp(d[i].key, key) == 0) {
			set_detail(c, f, k, &d[i]);
			return;
		}
}

#define DETAIL_GETTER(fn, key)						\
static void fn(const void *r, void *x, struct ibtopo__cell *c)		\
{									\
	(void)x;							\
	detail_column(r, key, c);					\
}

DETAIL_GETTER(g_active, "active")
DETAIL_GETTER(g_old, "old")
DETAIL_GETTER(g_new, "new")
DETAIL_GETTER(g_links, "links")
DETAIL_GETTER(g_paths, "paths")
DETAIL_GETTER(g_min_paths, "min_paths")
DETAIL_GETTER(g_counter, "counter")
DETAIL_GETTER(g_count, "count")
DETAIL_GETTER(g_threshold, "threshold")
DETAIL_GETTER(g_growth, "growth")
DETAIL_GETTER(g_rate, "rate_per_hour")
DETAIL_GETTER(g_interval, "interval_h")
DETAIL_GETTER(g_lid, "lid")
DETAIL_GETTER(g_routes, "routes")
DETAIL_GETTER(g_hops, "hops")
DETAIL_GETTER(g_min_hops, "min_hops")
DETAIL_GETTER(g_measure, "measure")
DETAIL_GETTER(g_interval_s, "interval_s")

/* failing-cable: the cable's rated speed and its ports' (f->cable) */
static void g_expected(const void *r, void *x, struct ibtopo__cell *c)
{
	(void)x;
	if (!FND(r)->cable)
		detail_column(r, "expected", c);
	else if (FND(r)->cable->ports_speed)
		ibtopo__cell_str(c, ibtopo_speed_name(FND(r)->cable->ports_speed));
}

static void g_rated(const void *r, void *x, struct ibtopo__cell *c)
{
	(void)x;
	if (!FND(r)->cable)
		detail_column(r, "rated_speed", c);
	else if (FND(r)->cable->rated_speed)
		ibtopo__cell_str(c, ibtopo_speed_name(FND(r)->cable->rated_speed));
}

static void g_evidence(const void *r, void *x, struct ibtopo__cell *c)
{
	switch (FND(r)->evidence) {
	case IBTOPO_EVIDENCE_PORT_INFO:
		ibtopo__cell_str(c, "port-info");
		break;
	case IBTOPO_EVIDENCE_PEERS:
		ibtopo__cell_str(c, "peers");
		break;
	case IBTOPO_EVIDENCE_PLAN:
		ibtopo__cell_str(c, "plan");
		break;
	default:
		break;
	}
}

static void g_cause(const void *r, void *x, struct ibtopo__cell *c)
{
	switch (FND(r)->cause) {
	case IBTOPO_CAUSE_CABLE:
		ibtopo__cell_str(c, "cable");
		break;
	case IBTOPO_CAUSE_PORT_CONFIG:
		ibtopo__cell_str(c, "port-config");
		break;
	case IBTOPO_CAUSE_UNKNOWN:
		ibtopo__cell_str(c, "unknown");
		break;
	case IBTOPO_CAUSE_DEVICE_LIMIT:
		ibtopo__cell_str(c, "device-limit");
		break;
	default:
		break;
	}
}

/* a failing cable's evidence, or the family's own (cable-over-length) */
static void g_media(const void *r, void *x, struct ibtopo__cell *c)
{
	const struct ibtopo_cable_evidence *ev = FND(r)->cable;

	if (ev && ev->media != IBTOPO_MEDIA_UNKNOWN)
		ibtopo__cell_str(c, ibtopo_media_name(ev->media));
	else
		detail_column(r, "media", c);
}

static void g_length(const void *r, void *x, struct ibtopo__cell *c)
{
	const struct ibtopo_cable_evidence *ev = FND(r)->cable;

	if (ev && ev->length_m > 0)
		ibtopo__cell_real(c, ev->length_m);
	else
		detail_column(r, "length_m", c);
}

static void g_reach(const void *r, void *x, struct ibtopo__cell *c)
{
	const struct ibtopo_cable_evidence *ev = FND(r)->cable;

	if (ev && ev->reach_m > 0)
		ibtopo__cell_real(c, ev->reach_m);
	else
		detail_column(r, "reach_m", c);
}

/* route-black-hole, route-loop: the destination (end c) by name */
static void g_destination(const void *r, void *x, struct ibtopo__cell *c)
{
	const struct ibtopo_finding *f = FND(r);

	(void)x;
	if ((f->kind == IBTOPO_FIND_ROUTE_BLACK_HOLE ||
	     f->kind == IBTOPO_FIND_ROUTE_LOOP) && f->c.node)
		ibtopo__cell_str(c, f->c.node);
}

static void g_detail(const void *r, void *x, struct ibtopo__cell *c)
{
	const struct ibtopo_finding *f = FND(r);
	const char *name = f->note ? f->note : ibtopo__finding_subkind_name(f);

	if (name)
		ibtopo__cell_str(c, name);
}

/* The machine formats: every key, in this order. */
static const struct ibtopo__column cols[] = {
	{ "kind", "KIND", g_kind },
	{ "severity", "SEVERITY", g_severity },
	{ "a.node", "A NODE", g_a_node },
	{ "a.guid", "A GUID", g_a_guid },
	{ "a.port", "A PORT", g_a_port },
	{ "b.node", "B NODE", g_b_node },
	{ "b.guid", "B GUID", g_b_guid },
	{ "b.port", "B PORT", g_b_port },
	{ "c.node", "C NODE", g_c_node },
	{ "c.guid", "C GUID", g_c_guid },
	{ "c.port", "C PORT", g_c_port },
	{ "d.node", "D NODE", g_d_node },
	{ "d.guid", "D GUID", g_d_guid },
	{ "d.port", "D PORT", g_d_port },
	{ "message", "MESSAGE", g_message },
	{ "active", "ACTIVE", g_active },
	{ "expected", "EXPECTED", g_expected },
	{ "rated_speed", "RATED", g_rated },
	{ "old", "OLD", g_old },
	{ "new", "NEW", g_new },
	{ "links", "LINKS", g_links },
	{ "paths", "PATHS", g_paths },
	{ "min_paths", "MIN PATHS", g_min_paths },
	{ "evidence", "EVIDENCE", g_evidence },
	{ "cause", "CAUSE", g_cause },
	{ "media", "MEDIA", g_media },
	{ "length_m", "LENGTH M", g_length },
	{ "reach_m", "REACH M", g_reach },
	{ "detail", "DETAIL", g_detail },
};

/* JSON only, set for the port health and routing kinds (CSV keeps its
 * columns) */
static const struct ibtopo__column health_cols[] = {
	{ "counter", "COUNTER", g_counter },
	{ "count", "COUNT", g_count },
	{ "threshold", "THRESHOLD", g_threshold },
	{ "growth", "GROWTH", g_growth },
	{ "rate_per_hour", "RATE/H", g_rate },
	{ "interval_h", "INTERVAL H", g_interval },
	{ "lid", "LID", g_lid },
	{ "destination", "DESTINATION", g_destination },
	{ "routes", "ROUTES", g_routes },
	{ "hops", "HOPS", g_hops },
	{ "min_hops", "MIN HOPS", g_min_hops },
	{ "measure", "MEASURE", g_measure },
	{ "interval_s", "INTERVAL S", g_interval_s },
};

/* ----------------------------------------------------------------- JSON */

/*
 * JSON only: a failing cable's "check" (the cable finding it was) and
 * "counters", every error counter above its threshold on either port:
 * [{"end":"a","counter":...,"count":N,"threshold":N,"saturated":false}].
 */
static int cable_json(struct ibtopo__json *obj,
		      const struct ibtopo_cable_evidence *ev)
{
	struct ibtopo__json *arr;

	if (ibtopo__json_set(obj, "check", ibtopo__json_string(
				     ibtopo_finding_kind_name(ev->check))))
		return IBTOPO_ENOMEM;
	arr = ibtopo__json_array();
	if (!arr || ibtopo__json_set(obj, "counters", arr))
		return IBTOPO_ENOMEM;
	for (size_t i = 0; i < ev->ncounters; i++) {
		const struct ibtopo_evidence_counter *k = &ev->counters[i];
		struct ibtopo__json *o = ibtopo__json_object();

		if (!o || ibtopo__json_append(arr, o) ||
		    ibtopo__json_set(o, "end", ibtopo__json_string(
					     k->end ? "b" : "a")) ||
		    ibtopo__json_set(o, "counter", ibtopo__json_string(
					     ibtopo_counter_name(k->counter))) ||
		    ibtopo__json_set(o, "count",
				     ibtopo__json_int(k->count > INT64_MAX ?
						      INT64_MAX :
						      (int64_t)k->count)) ||
		    ibtopo__json_set(o, "threshold",
				     ibtopo__json_int(k->threshold > INT64_MAX ?
						      INT64_MAX :
						      (int64_t)k->threshold)) ||
		    ibtopo__json_set(o, "saturated",
				     ibtopo__json_bool(k->saturated)))
			return IBTOPO_ENOMEM;
	}
	return 0;
}

/* Keys present even when null: the kind, the severity, ends a and b, the
 * message, and every key of an end c or d that is set. */
static bool always_key(const char *name, const struct ibtopo_finding *f)
{
	if (strncmp(name, "c.", 2) == 0)
		return end_is_set(&f->c);
	if (strncmp(name, "d.", 2) == 0)
		return end_is_set(&f->d);
	return strncmp(name, "a.", 2) == 0 || strncmp(name, "b.", 2) == 0 ||
	       strcmp(name, "kind") == 0 || strcmp(name, "severity") == 0 ||
	       strcmp(name, "message") == 0;
}

struct ibtopo__json *ibtopo__findings_json(const struct ibtopo_findings *list)
{
	struct ibtopo__json *arr = ibtopo__json_array();
	struct ctx *x = calloc(1, sizeof(*x));

	if (!arr || !x)
		goto out_fail;
	for (size_t i = 0; list && i < list->count; i++) {
		const struct ibtopo_finding *f = &list->items[i];
		struct ibtopo__json *obj = ibtopo__json_object();

		if (!obj || ibtopo__json_append(arr, obj))
			goto out_fail;
		for (size_t k = 0; k < IBTOPO__ARRAY_SIZE(cols); k++) {
			struct ibtopo__cell cell;

			memset(&cell, 0, sizeof(cell));
			cell.type = IBTOPO__NULL;
			cols[k].get(f, x, &cell);
			if (cell.type == IBTOPO__NULL && !always_key(cols[k].name, f))
				continue;
			if (ibtopo__json_set_path(obj, cols[k].name, ibtopo__cell_json(&cell)))
				goto out_fail;
		}
		for (size_t k = 0; k < IBTOPO__ARRAY_SIZE(health_cols); k++) {
			struct ibtopo__cell cell;

			memset(&cell, 0, sizeof(cell));
			cell.type = IBTOPO__NULL;
			health_cols[k].get(f, x, &cell);
			if (cell.type != IBTOPO__NULL &&
			    ibtopo__json_set_path(obj, health_cols[k].name,
						  ibtopo__cell_json(&cell)))
				goto out_fail;
		}
		if (f->cable && cable_json(obj, f->cable))
			goto out_fail;
	}
	free(x);
	return arr;

out_fail:
	free(x);
	ibtopo__json_free(arr);
	return NULL;
}

/* ----------------------------------------------------------------- text */

/*
 * The text table names an end by its description; where many nodes share
 * one ("MT25408 ConnectX Mellanox Technologies" on 89 CAs) it adds the
 * GUID. A description is shared when two nodes of the fabrics, or two
 * ends in the list, carry it with different GUIDs.
 */
static void t_end(const struct ctx *x, const struct ibtopo_end *e, char *buf,
		  size_t len)
{
	if ((e->node && *e->node) || e->guid)
		ibtopo__name_node(&x->names, e->node, e->guid, buf, len);
	else
		snprintf(buf, len, "-");
	if (e->port >= 0 && end_is_set(e)) {
		size_t n = strlen(buf);

		snprintf(buf + n, len - n, " [%d]", e->port);
	}
}

static void t_a(const void *r, void *x, struct ibtopo__cell *c)
{
	t_end(CTX(x), &FND(r)->a, CTX(x)->scratch, sizeof(CTX(x)->scratch));
	ibtopo__cell_str(c, CTX(x)->scratch);
}

static void t_b(const void *r, void *x, struct ibtopo__cell *c)
{
	if (!end_is_set(&FND(r)->b))
		return;
	t_end(CTX(x), &FND(r)->b, CTX(x)->scratch, sizeof(CTX(x)->scratch));
	ibtopo__cell_str(c, CTX(x)->scratch);
}

/* A row summarize_rows() made: x->nsame[] findings, no end of its own. */
static bool is_summary(const struct ctx *x, const void *r)
{
	return x->nsums && FND(r) >= x->sums && FND(r) < x->sums + x->nsums;
}

static void t_a_or_count(const void *r, void *x, struct ibtopo__cell *c)
{
	if (!is_summary(CTX(x), r)) {
		t_a(r, x, c);
		return;
	}
	snprintf(CTX(x)->scratch, sizeof(CTX(x)->scratch), "%zu ports",
		 CTX(x)->nsame[FND(r) - CTX(x)->sums]);
	ibtopo__cell_str(c, CTX(x)->scratch);
}

static void t_message(const void *r, void *x, struct ibtopo__cell *c)
{
	size_t n;

	g_message(r, x, c);
	if (!is_summary(CTX(x), r))
		return;
	/* the cause goes with the description, before what to do */
	{
		char *s = CTX(x)->scratch, *action = strstr(s, ": ");
		char rest[sizeof(CTX(x)->scratch)];
		const char *cause = FND(r)->subkind == IBTOPO_STATE_LOGICAL ?
					    " (a subnet manager brought them up)" :
					    " (--format json lists each)";

		n = action ? (size_t)(action - s) : strlen(s);
		snprintf(rest, sizeof(rest), "%s", s + n);
		snprintf(s + n, sizeof(CTX(x)->scratch) - n, "%s%s", cause,
			 rest);
	}
	ibtopo__cell_str(c, CTX(x)->scratch);
}

static const struct ibtopo__column text_cols[] = {
	{ "kind", "KIND", g_kind },
	{ "a", "END A", t_a_or_count },
	{ "b", "END B", t_b },
	{ "message", "WHAT TO DO", t_message },
};

/*
 * Ports that came up say one thing together: a subnet manager brought
 * the fabric (or a part of it) up, Init or Armed to Active, or links
 * trained, to LinkUp. SUMMARY_PORTS or more port-state-changed findings
 * of one such change are one row in the text, "N ports", in place of the
 * first. Ports that went down stay listed: each is a fault to look at.
 * JSON and CSV keep every finding.
 */
#define SUMMARY_PORTS 4
#define PHYS_LINKUP 5

static bool came_up(const struct ibtopo_finding *f)
{
	return f->kind == IBTOPO_FIND_PORT_STATE_CHANGED &&
	       f->num.change.after == (f->subkind == IBTOPO_STATE_PHYSICAL ?
				     PHYS_LINKUP :
				     IBTOPO_PORT_STATE_ACTIVE);
}

static bool same_change(const struct ibtopo_finding *a,
			const struct ibtopo_finding *b)
{
	return a->subkind == b->subkind &&
	       a->num.change.before == b->num.change.before &&
	       a->num.change.after == b->num.change.after;
}

/* Rows rows[0..k) with the summaries in place; `x->sums` holds k. */
static size_t summarize_rows(const void **rows, size_t k, struct ctx *x)
{
	size_t kept = 0;

	for (size_t i = 0; i < k; i++) {
		const struct ibtopo_finding *f = rows[i];
		size_t same = 0;

		if (!f || !came_up(f))
			continue;
		for (size_t j = i; j < k; j++)
			if (rows[j] && came_up(rows[j]) &&
			    same_change(f, rows[j]))
				same++;
		if (same < SUMMARY_PORTS)
			continue;
		for (size_t j = i + 1; j < k; j++)
			if (rows[j] && came_up(rows[j]) &&
			    same_change(f, rows[j]))
				rows[j] = NULL;
		x->sums[x->nsums] = *f;
		x->sums[x->nsums].a = (struct ibtopo_end){ .port = -1 };
		x->sums[x->nsums].b = (struct ibtopo_end){ .port = -1 };
		x->nsame[x->nsums] = same;
		rows[i] = &x->sums[x->nsums++];
	}
	for (size_t i = 0; i < k; i++)
		if (rows[i])
			rows[kept++] = rows[i];
	return kept;
}

/*
 * The text table shows at most FOLD_SHOW findings of one kind, subkind
 * and severity when there are more than FOLD_OVER; a line counts the
 * rest. JSON and CSV keep every finding.
 */
#define FOLD_OVER 10
#define FOLD_SHOW 5

struct fold {
	size_t row;	/* position in the severity group */
	const struct ibtopo_finding *f;
};

struct folded {
	size_t first;	/* row of the group's first finding */
	size_t hidden;	/* findings left out of the table */
	const struct ibtopo_finding *f;
};

static bool same_group(const struct ibtopo_finding *a, const struct ibtopo_finding *b)
{
	return a->kind == b->kind && a->subkind == b->subkind;
}

static int cmp_fold(const void *x, const void *y)
{
	const struct fold *a = x, *b = y;

	if (a->f->kind != b->f->kind)
		return a->f->kind < b->f->kind ? -1 : 1;
	if (a->f->subkind != b->f->subkind)
		return a->f->subkind < b->f->subkind ? -1 : 1;
	return a->row < b->row ? -1 : a->row > b->row;
}

static int cmp_folded(const void *x, const void *y)
{
	const struct folded *a = x, *b = y;

	return a->first < b->first ? -1 : a->first > b->first;
}

/*
 * Keep in rows[0..k) the first FOLD_SHOW findings of each group larger
 * than FOLD_OVER, in their order; `out` gets one entry per folded group,
 * by first row. Returns the rows kept. `tmp` and `out` hold k entries.
 */
static size_t fold_rows(const void **rows, size_t k, struct fold *tmp,
			struct folded *out, size_t *nout)
{
	size_t kept = 0;

	*nout = 0;
	for (size_t i = 0; i < k; i++) {
		tmp[i].row = i;
		tmp[i].f = rows[i];
	}
	qsort(tmp, k, sizeof(*tmp), cmp_fold);
	for (size_t g = 0; g < k;) {
		size_t e = g + 1;

		while (e < k && same_group(tmp[e].f, tmp[g].f))
			e++;
		if (e - g > FOLD_OVER) {
			out[*nout].first = tmp[g].row;
			out[*nout].hidden = e - g - FOLD_SHOW;
			out[*nout].f = tmp[g].f;
			(*nout)++;
			for (size_t i = g + FOLD_SHOW; i < e; i++)
				rows[tmp[i].row] = NULL;
		}
		g = e;
	}
	qsort(out, *nout, sizeof(*out), cmp_folded);
	for (size_t i = 0; i < k; i++)
		if (rows[i])
			rows[kept++] = rows[i];
	return kept;
}

static int findings_text(const struct ibtopo_sink *sink,
			 const struct ibtopo_fabric *const *fabrics,
			 size_t nfabrics, const struct ibtopo_findings *list,
			 const char *none, struct ibtopo_error *err)
{
	static const struct {
		enum ibtopo_severity sev;
		const char *title;
	} groups[] = {
		{ IBTOPO_SEV_ERROR, "errors" },
		{ IBTOPO_SEV_WARNING, "warnings" },
		{ IBTOPO_SEV_INFO, "info" },
	};
	size_t n = list ? list->count : 0, shown = 0;
	struct folded *folded = NULL;
	struct fold *tmp = NULL;
	const void **rows;
	struct ctx *x;
	int rc = 0;

	if (!n)
		return ibtopo_sink_printf(sink, "%s\n", none) ?
			ibtopo__error_set(err, IBTOPO_EIO, "cannot write output") : 0;
	rows = calloc(n, sizeof(*rows));
	x = calloc(1, sizeof(*x));
	if (!rows || !x) {
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	tmp = calloc(n, sizeof(*tmp));
	folded = calloc(n, sizeof(*folded));
	x->sums = calloc(n, sizeof(*x->sums));
	x->nsame = calloc(n, sizeof(*x->nsame));
	if (!tmp || !folded || !x->sums || !x->nsame ||
	    ibtopo__shared_names_init(&x->names, fabrics, nfabrics, list, NULL,
				      NULL)) {
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	for (size_t g = 0; rc == 0 && g < IBTOPO__ARRAY_SIZE(groups); g++) {
		size_t k = 0, total, nfolded;

		for (size_t i = 0; i < n; i++)
			if (list->items[i].severity == groups[g].sev)
				rows[k++] = &list->items[i];
		if (!k)
			continue;
		rc = ibtopo_sink_printf(sink, "%s%s (%zu)\n", shown ? "\n" : "",
					groups[g].title, k);
		if (rc) {
			rc = ibtopo__error_set(err, rc, "cannot write output");
			break;
		}
		total = k;
		k = summarize_rows(rows, k, x);
		k = fold_rows(rows, k, tmp, folded, &nfolded);
		rc = ibtopo__table_write(sink, NULL, text_cols,
					 IBTOPO__ARRAY_SIZE(text_cols),
					 (const void *const *)rows, k, x, err);
		for (size_t i = 0; rc == 0 && i < nfolded; i++) {
			const char *sub = ibtopo__finding_subkind_name(folded[i].f);

			rc = ibtopo_sink_printf(sink,
				"... and %zu more %s findings (%s%ssee --format json)\n",
				folded[i].hidden,
				ibtopo_finding_kind_name(folded[i].f->kind),
				sub ? sub : "", sub ? "; " : "");
			if (rc)
				rc = ibtopo__error_set(err, rc, "cannot write output");
		}
		shown += total;
	}
out_free:
	free(folded);
	free(tmp);
	if (x) {
		ibtopo__shared_names_release(&x->names);
		free(x->sums);
		free(x->nsame);
	}
	free(x);
	free(rows);
	return rc;
}

int ibtopo__findings_text(const struct ibtopo_sink *sink,
			  const struct ibtopo_fabric *const *fabrics,
			  size_t nfabrics, const struct ibtopo_findings *list,
			  struct ibtopo_error *err)
{
	return findings_text(sink, fabrics, nfabrics, list, "no findings", err);
}

/* -------------------------------------------------------------- reports */

int ibtopo__report_json_doc(const struct ibtopo_sink *sink,
			    struct ibtopo__json *root, struct ibtopo_error *err)
{
	int rc;

	if (!root)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	rc = ibtopo__json_dump(sink, root, err);
	ibtopo__json_free(root);
	return rc;
}

static int write_csv(const struct ibtopo_sink *sink,
		     const struct ibtopo_findings *list, struct ibtopo_error *err)
{
	size_t n = list ? list->count : 0;
	const void **rows = calloc(n ? n : 1, sizeof(*rows));
	struct ctx *x = calloc(1, sizeof(*x));
	int rc;

	if (!rows || !x) {
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free;
	}
	for (size_t i = 0; i < n; i++)
		rows[i] = &list->items[i];
	rc = ibtopo__table_write(sink, "findings", cols, IBTOPO__ARRAY_SIZE(cols),
				 (const void *const *)rows, n, x, err);
out_free:
	free(x);
	free(rows);
	return rc;
}

int ibtopo__report_check_sink(const struct ibtopo_sink *sink,
			      struct ibtopo_error *err)
{
	if (!sink || !sink->write)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no output sink");
	if (sink->format != IBTOPO_FORMAT_TEXT && sink->format != IBTOPO_FORMAT_JSON &&
	    sink->format != IBTOPO_FORMAT_CSV)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "unknown format %d",
					 (int)sink->format);
	return 0;
}

int ibtopo_report_findings(const struct ibtopo_sink *sink,
			   const char *list_name,
			   const struct ibtopo_findings *list,
			   struct ibtopo_error *err)
{
	return ibtopo_report_findings_of(sink, list_name, list, NULL, NULL, err);
}

/* Two fabrics, each with nodes, and no node GUID in both. */
static bool share_no_node(const struct ibtopo_fabric *a,
			  const struct ibtopo_fabric *b)
{
	size_t n = a && b ? ibtopo_fabric_node_count(a) : 0;

	if (!n || !ibtopo_fabric_node_count(b))
		return false;
	for (size_t i = 0; i < n; i++)
		if (ibtopo_fabric_find_node(b, ibtopo_fabric_node(a, i)->guid))
			return false;
	return true;
}

int ibtopo_report_findings_of(const struct ibtopo_sink *sink,
			      const char *list_name,
			      const struct ibtopo_findings *list,
			      const struct ibtopo_fabric *a,
			      const struct ibtopo_fabric *b,
			      struct ibtopo_error *err)
{
	const struct ibtopo_fabric *fabrics[] = { a, b };
	struct ibtopo__json *root;
	int rc = ibtopo__report_check_sink(sink, err);
	bool diff;

	if (rc)
		return rc;
	switch (sink->format) {
	case IBTOPO_FORMAT_JSON:
		/* the fabric of NEW (diff) or of the fabric validated */
		root = ibtopo__json_report(b && ibtopo_fabric_meta(b)->fabric ? b : a);
		if (root && ibtopo__json_set(root, "findings",
					     ibtopo__findings_json(list))) {
			ibtopo__json_free(root);
			root = NULL;
		}
		return ibtopo__report_json_doc(sink, root, err);
	case IBTOPO_FORMAT_CSV:
		return write_csv(sink, list, err);
	default:
		break;
	}
	/* a diff's list is its changes: none is "no differences"; of two
	 * fabrics that share nothing, every node changed, which says less
	 * than that they are not the same fabric: said first */
	diff = list_name && strcmp(list_name, "changes") == 0;
	if (diff && share_no_node(a, b) &&
	    ibtopo_sink_printf(sink, "OLD and NEW share no node (no node GUID "
			       "in common): they are different fabrics; "
			       "every node of OLD shows as removed and every "
			       "node of NEW as added\n\n"))
		return ibtopo__error_set(err, IBTOPO_EIO, "cannot write output");
	return findings_text(sink, fabrics, 2, list,
			     diff ? "no differences" : "no findings", err);
}
