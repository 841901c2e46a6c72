/*
 * report_job.c - a job's placement (ibtopo_report_job()): text with a
 * verdict line, JSON, and the links its routes cross as CSV.
 */
#include "report/report-int.h"

#include <stdlib.h>
#include <string.h>

#define JOB_TEXT_LINKS 10 /* the busiest links text lists */

static int nomem(struct ibtopo_error *err)
{
	return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
}

static const char *name(char *buf, size_t len, const struct ibtopo_node *n)
{
	return ibtopo_node_name(buf, len, n);
}

/* "leaf03 port 21 -> spine01" */
static void link_text(char *buf, size_t len, const struct ibtopo_job_link *l)
{
	char a[IBTOPO_NODE_NAME_MAX], b[IBTOPO_NODE_NAME_MAX];

	snprintf(buf, len, "%s port %u -> %s",
		 name(a, sizeof(a), l->port->node), l->port->num,
		 l->port->remote ? name(b, sizeof(b), l->port->remote->node) :
				   "?");
}

static void nodes_text(struct ibtopo__wr *w, const char *what,
		       const struct ibtopo_node *const *v, size_t n)
{
	char buf[IBTOPO_NODE_NAME_MAX];

	ibtopo__wr_printf(w, "%s (%zu):", what, n);
	for (size_t i = 0; i < n && i < 20; i++)
		ibtopo__wr_printf(w, " %s", name(buf, sizeof(buf), v[i]));
	if (n > 20)
		ibtopo__wr_printf(w, " ... and %zu more", n - 20);
	ibtopo__wr_puts(w, "\n");
}

static void verdict(struct ibtopo__wr *w, const struct ibtopo_job *j)
{
	char l[3 * IBTOPO_NODE_NAME_MAX];

	ibtopo__wr_printf(w, "Verdict: spans %zu lea%s", j->nleaves,
			  j->nleaves == 1 ? "f" : "ves");
	if (j->routes)
		ibtopo__wr_printf(w, " and %zu spine%s", j->nspines,
				  j->nspines == 1 ? "" : "s");
	if (j->routes && j->nlinks) {
		link_text(l, sizeof(l), &j->links[0]);
		ibtopo__wr_printf(w,
				  "; %s carries %zu of the job's %zu routes "
				  "(ideal %zu)",
				  l, j->links[0].routes, j->pairs,
				  j->links[0].ideal);
	}
	if (j->health.count)
		ibtopo__wr_printf(
			w, "; %s port %d: %s", j->health.items[0].a.node,
			j->health.items[0].a.port,
			ibtopo_finding_kind_name(j->health.items[0].kind));
	if (j->nmissing)
		ibtopo__wr_printf(w, "; %zu host%s not in the fabric",
				  j->nmissing, j->nmissing == 1 ? "" : "s");
	ibtopo__wr_puts(w, "\n");
}

/* The health findings on the job's links, one line each. */
static void health_text(struct ibtopo__wr *w, const struct ibtopo_job *j)
{
	if (!j->counters) {
		ibtopo__wr_puts(w, "Health: no port counters, so the health "
				   "of its links could not be judged (discover "
				   "--counters)\n");
		return;
	}
	ibtopo__wr_printf(w, "Health of its links: %zu finding%s\n",
			  j->health.count, j->health.count == 1 ? "" : "s");
	for (size_t i = 0; i < j->health.count; i++) {
		const struct ibtopo_finding *f = &j->health.items[i];

		ibtopo__wr_printf(w, "  %s port %d: %s\n",
				  f->a.node ? f->a.node : "?", f->a.port,
				  ibtopo_finding_kind_name(f->kind));
	}
}

static void job_text(struct ibtopo__wr *w, const struct ibtopo_job *j)
{
	char buf[3 * IBTOPO_NODE_NAME_MAX];

	ibtopo__wr_printf(w, "Hosts: %zu asked, %zu found, %zu missing",
			  j->nhosts, j->nfound, j->nmissing);
	for (size_t i = 0; i < j->nmissing && i < 20; i++)
		ibtopo__wr_printf(w, "%s%s", i ? " " : ": ", j->missing[i]);
	ibtopo__wr_printf(w, "%s\nCA ports: %zu\n",
			  j->nmissing > 20 ? " ..." : "", j->nports);
	nodes_text(w, "Leaves", j->leaves, j->nleaves);
	if (j->common)
		ibtopo__wr_printf(w, "Lowest common switch: level %u (%s)\n",
				  j->common_level,
				  name(buf, sizeof(buf), j->common));
	else
		ibtopo__wr_puts(w, "Lowest common switch: none (no switch is "
				   "above every leaf of the job)\n");
	if (!j->routes) {
		ibtopo__wr_puts(w,
				"Routes: no forwarding tables, so the links "
				"the job's traffic crosses and its contention "
				"could not be judged (discover --routes, or "
				"--routes DUMP)\n");
		health_text(w, j);
		verdict(w, j);
		return;
	}
	nodes_text(w, "Spines its routes cross", j->spines, j->nspines);
	ibtopo__wr_printf(w,
			  "Routes: %zu pairs of CA ports, %zu unrouted; "
			  "hops min %u, mean %.2f, max %u; %zu switch "
			  "ports crossed\n",
			  j->pairs, j->unrouted, j->hops_min, j->hops_mean,
			  j->hops_max, j->nlinks);
	ibtopo__wr_printf(w, "\n  %-50s %8s %8s\n", "LINK", "ROUTES", "IDEAL");
	for (size_t i = 0; i < j->nlinks && i < JOB_TEXT_LINKS; i++) {
		link_text(buf, sizeof(buf), &j->links[i]);
		ibtopo__wr_printf(w, "  %-50s %8zu %8zu\n", buf,
				  j->links[i].routes, j->links[i].ideal);
	}
	ibtopo__wr_puts(w, "\n");
	health_text(w, j);
	verdict(w, j);
}

static void job_csv(struct ibtopo__wr *w, const struct ibtopo_job *j)
{
	ibtopo__wr_puts(w, "node,guid,port,peer.node,routes,ideal,up\n");
	for (size_t i = 0; i < j->nlinks; i++) {
		const struct ibtopo_job_link *l = &j->links[i];

		ibtopo__out_csv_field(w->o, l->port->node->desc);
		ibtopo__wr_printf(w, ",0x%016" PRIx64 ",%u,",
				  l->port->node->guid, l->port->num);
		ibtopo__out_csv_field(
			w->o,
			l->port->remote ? l->port->remote->node->desc : "");
		ibtopo__wr_printf(w, ",%zu,%zu,%s\n", l->routes, l->ideal,
				  l->up ? "true" : "false");
	}
}

/* ---- JSON ---- */

static struct ibtopo__json *node_ref(const struct ibtopo_node *n)
{
	struct ibtopo__json *o = ibtopo__json_object();

	if (o && (ibtopo__json_set(o, "node", ibtopo__json_string(n->desc)) ||
		  ibtopo__json_set(o, "guid", ibtopo__json_guid(n->guid)))) {
		ibtopo__json_free(o);
		return NULL;
	}
	return o;
}

static struct ibtopo__json *nodes_json(const struct ibtopo_node *const *v,
				       size_t n)
{
	struct ibtopo__json *a = ibtopo__json_array();

	for (size_t i = 0; a && i < n; i++)
		if (ibtopo__json_append(a, node_ref(v[i]))) {
			ibtopo__json_free(a);
			return NULL;
		}
	return a;
}

/* {"node","guid","port"}: a port, as every report names one */
static struct ibtopo__json *port_ref(const struct ibtopo_port *p)
{
	struct ibtopo__json *o = node_ref(p->node);

	if (o && ibtopo__json_set(o, "port", ibtopo__json_int(p->num))) {
		ibtopo__json_free(o);
		return NULL;
	}
	return o;
}

static struct ibtopo__json *link_json(const struct ibtopo_job_link *l)
{
	struct ibtopo__json *o = port_ref(l->port);

	if (o && (ibtopo__json_set(o, "peer",
				   l->port->remote ? port_ref(l->port->remote) :
						     ibtopo__json_null()) ||
		  ibtopo__json_set(o, "routes",
				   ibtopo__json_int((int64_t)l->routes)) ||
		  ibtopo__json_set(o, "ideal",
				   ibtopo__json_int((int64_t)l->ideal)) ||
		  ibtopo__json_set(o, "up", ibtopo__json_bool(l->up)))) {
		ibtopo__json_free(o);
		return NULL;
	}
	return o;
}

static struct ibtopo__json *routes_json(const struct ibtopo_job *j)
{
	struct ibtopo__json *o, *links;
	int rc;

	if (!j->routes)
		return ibtopo__json_null();
	o = ibtopo__json_object();
	links = ibtopo__json_array();
	rc = !o || !links;
	for (size_t i = 0; !rc && i < j->nlinks; i++)
		rc = ibtopo__json_append(links, link_json(&j->links[i]));
	rc = rc ||
	     ibtopo__json_set(o, "ca_pairs",
			      ibtopo__json_int((int64_t)j->pairs)) ||
	     ibtopo__json_set(o, "unreachable_pairs",
			      ibtopo__json_int((int64_t)j->unrouted)) ||
	     ibtopo__json_set(o, "spines", nodes_json(j->spines, j->nspines)) ||
	     ibtopo__json_set(o, "hops_min", ibtopo__json_int(j->hops_min)) ||
	     ibtopo__json_set(o, "hops_mean",
			      ibtopo__json_real(j->hops_mean)) ||
	     ibtopo__json_set(o, "hops_max", ibtopo__json_int(j->hops_max));
	if (rc) {
		ibtopo__json_free(o);
		ibtopo__json_free(links);
		return NULL;
	}
	if (ibtopo__json_set(o, "links", links)) {
		ibtopo__json_free(o);
		return NULL;
	}
	return o;
}

static struct ibtopo__json *job_json(const struct ibtopo_job *j)
{
	struct ibtopo__json *o = ibtopo__json_object();
	struct ibtopo__json *m = ibtopo__json_array();
	int rc = !o || !m;

	for (size_t i = 0; !rc && i < j->nmissing; i++)
		rc = ibtopo__json_append(m, ibtopo__json_string(j->missing[i]));
	rc = rc ||
	     ibtopo__json_set(o, "hosts",
			      ibtopo__json_int((int64_t)j->nhosts)) ||
	     ibtopo__json_set(o, "found",
			      ibtopo__json_int((int64_t)j->nfound)) ||
	     ibtopo__json_set(o, "missing", m) ||
	     ibtopo__json_set(o, "ca_ports",
			      ibtopo__json_int((int64_t)j->nports)) ||
	     ibtopo__json_set(o, "leaves", nodes_json(j->leaves, j->nleaves)) ||
	     ibtopo__json_set(o, "common_level",
			      j->common ? ibtopo__json_int(j->common_level) :
					  ibtopo__json_null()) ||
	     ibtopo__json_set(o, "common_switch",
			      j->common ? node_ref(j->common) :
					  ibtopo__json_null()) ||
	     ibtopo__json_set(o, "routes", routes_json(j)) ||
	     ibtopo__json_set(o, "findings",
			      j->counters ? ibtopo__findings_json(&j->health) :
					    ibtopo__json_null());
	return ibtopo__json_kept(o, rc);
}

int ibtopo_report_job(const struct ibtopo_sink *sink,
		      const struct ibtopo_job *job, struct ibtopo_error *err)
{
	struct ibtopo__json *root;
	struct ibtopo__wr w = { sink, 0 };

	if (!job)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no job");
	if (ibtopo__report_check_sink(sink, err))
		return err ? err->code : IBTOPO_EINVAL;
	if (sink->format != IBTOPO_FORMAT_JSON) {
		if (sink->format == IBTOPO_FORMAT_CSV)
			job_csv(&w, job);
		else
			job_text(&w, job);
		return w.rc ? ibtopo__error_set(err, IBTOPO_EIO,
						"cannot write output") :
			      0;
	}
	root = ibtopo__json_report(job->fabric);
	if (!root || ibtopo__json_set(root, "job", job_json(job))) {
		ibtopo__json_free(root);
		return nomem(err);
	}
	return ibtopo__report_json_doc(sink, root, err);
}
