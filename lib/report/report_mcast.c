/*
 * report_mcast.c - the multicast forwarding (analysis/routes_mcast.c) as
 * JSON ("mcast" beside "routes"), text and CSV: the section of analyze,
 * and the block report_routes.c adds to `routes`.
 */
#include "report/report-int.h"
#include "analysis/analysis-int.h"

#include <inttypes.h>

typedef struct ibtopo__json json;

static json *mlid_json(const struct ibtopo_mcast_mlid *m)
{
	json *o = ibtopo__json_object();
	char mlid[8];

	snprintf(mlid, sizeof(mlid), "0x%04x", m->mlid);
	if (!o || ibtopo__json_set(o, "mlid", ibtopo__json_string(mlid)) ||
	    ibtopo__json_set(o, "mgid", ibtopo__json_string(m->mgid)) ||
	    ibtopo__json_set(o, "switches",
			     ibtopo__json_int((int64_t)m->switches)) ||
	    ibtopo__json_set(o, "members",
			     ibtopo__json_int((int64_t)m->members)) ||
	    ibtopo__json_set(o, "reached",
			     ibtopo__json_int((int64_t)m->reached)) ||
	    ibtopo__json_set(o, "loops", ibtopo__json_int((int64_t)m->loops)) ||
	    ibtopo__json_set(o, "dead_ends",
			     ibtopo__json_int((int64_t)m->dead_ends)) ||
	    ibtopo__json_set(o, "disconnected",
			     ibtopo__json_int((int64_t)m->disconnected))) {
		ibtopo__json_free(o);
		return NULL;
	}
	return o;
}

int ibtopo__mcast_json(struct ibtopo__json *root, const struct ibtopo_mcast *mc)
{
	json *o = ibtopo__json_object(), *a = ibtopo__json_array();

	if (!o || !a ||
	    ibtopo__json_set(o, "groups_read",
			     ibtopo__json_bool(mc->groups_read)) ||
	    ibtopo__json_set(o, "groups",
			     ibtopo__json_int((int64_t)mc->groups)) ||
	    ibtopo__json_set(
		    o, "switches_with_tables",
		    ibtopo__json_int((int64_t)mc->switches_with_tables)))
		goto out_nomem;
	for (size_t i = 0; i < mc->nmlids; i++)
		if (ibtopo__json_append(a, mlid_json(&mc->mlids[i])))
			goto out_nomem;
	if (ibtopo__json_set(o, "mlids", a))
		goto out_nomem_o;
	return ibtopo__json_set(root, "mcast", o);

out_nomem:
	ibtopo__json_free(a);
out_nomem_o:
	ibtopo__json_free(o);
	return IBTOPO_ENOMEM;
}

int ibtopo__mcast_text(const struct ibtopo_sink *sink,
		       const struct ibtopo_mcast *mc)
{
	struct ibtopo__wr w = { sink, 0 };

	ibtopo__wr_printf(&w,
			  "multicast: %zu MLID%s on %zu switches with "
			  "tables; members %s; %zu unreached, %zu loop%s, "
			  "%zu dead end%s, %zu stale\n",
			  mc->nmlids, mc->nmlids == 1 ? "" : "s",
			  mc->switches_with_tables,
			  mc->groups_read ?
				  "from the SA" :
				  "from the tables (no SA groups read)",
			  mc->unreached, mc->loops, mc->loops == 1 ? "" : "s",
			  mc->dead_ends, mc->dead_ends == 1 ? "" : "s",
			  mc->disconnected);
	for (size_t i = 0; i < mc->nmlids; i++) {
		const struct ibtopo_mcast_mlid *m = &mc->mlids[i];

		ibtopo__wr_printf(&w,
				  "  0x%04x%s%s: %zu switch%s, %zu of %zu "
				  "member%s reached\n",
				  m->mlid, m->mgid ? " " : "",
				  m->mgid ? m->mgid : "", m->switches,
				  m->switches == 1 ? "" : "es", m->reached,
				  m->members, m->members == 1 ? "" : "s");
	}
	return w.rc;
}

int ibtopo__mcast_csv(const struct ibtopo_sink *sink,
		      const struct ibtopo_mcast *mc)
{
	int rc = ibtopo_sink_printf(sink, "mlid,mgid,switches,members,reached,"
					  "loops,dead_ends,disconnected\n");

	for (size_t i = 0; !rc && i < mc->nmlids; i++) {
		const struct ibtopo_mcast_mlid *m = &mc->mlids[i];

		rc = ibtopo_sink_printf(sink,
					"0x%04x,%s,%zu,%zu,%zu,%zu,%zu,"
					"%zu\n",
					m->mlid, m->mgid ? m->mgid : "",
					m->switches, m->members, m->reached,
					m->loops, m->dead_ends,
					m->disconnected);
	}
	return rc;
}

static int section_json(struct ibtopo__json *root,
			const struct ibtopo_analysis *an)
{
	return an->mcast ? ibtopo__mcast_json(root, an->mcast) : 0;
}

static int section_text(const struct ibtopo_sink *sink,
			const struct ibtopo_analysis *an)
{
	int rc;

	if (!an->mcast)
		return 0;
	rc = ibtopo__mcast_text(sink, an->mcast);
	return rc ? rc : ibtopo_sink_printf(sink, "\n");
}

/* ibtopo_report_analysis(): "mcast" after "routes" */
const struct ibtopo__report_section ibtopo__report_section_mcast = {
	"mcast",
	section_json,
	section_text,
};
