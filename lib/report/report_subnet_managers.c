/*
 * report_subnet_managers.c - the subnet managers in the analysis report:
 * "subnet_managers" in JSON, a block of one line per SM in text. Nothing
 * when the fabric does not say (a file).
 */
#include "report/report-int.h"
#include "analysis/analysis-int.h"

#include <inttypes.h>

static const char *state_word(const struct ibtopo_sm *sm)
{
	static const char *const words[] = {
		[IBTOPO_SM_NOT_ACTIVE] = "not-active",
		[IBTOPO_SM_DISCOVERING] = "discovering",
		[IBTOPO_SM_STANDBY] = "standby",
		[IBTOPO_SM_MASTER] = "master",
	};

	if (!sm->answered)
		return "silent";
	return sm->state <= IBTOPO_SM_MASTER ? words[sm->state] : "unknown";
}

static struct ibtopo__json *sm_json(const struct ibtopo_sm_entry *e)
{
	char name[IBTOPO_NODE_NAME_MAX];
	struct ibtopo__json *o = ibtopo__json_object();
	const struct ibtopo_sm *sm = e->sm;
	int rc = !o;

	rc = rc ||
	     ibtopo__json_set(o, "node",
			      ibtopo__json_string(
				      e->node ? ibtopo_node_name(name,
								 sizeof(name),
								 e->node) :
						NULL));
	rc = rc ||
	     ibtopo__json_set(o, "guid", ibtopo__json_guid(sm->node_guid));
	rc = rc || ibtopo__json_set(o, "port", ibtopo__json_int(sm->port));
	rc = rc || ibtopo__json_set(o, "lid",
				    e->lid ? ibtopo__json_int(e->lid) :
					     ibtopo__json_null());
	rc = rc || ibtopo__json_set(o, "sm_state",
				    ibtopo__json_string(state_word(sm)));
	rc = rc || ibtopo__json_set(o, "sm_guid",
				    sm->answered ? ibtopo__json_guid(sm->guid) :
						   ibtopo__json_null());
	rc = rc ||
	     ibtopo__json_set(o, "priority",
			      sm->answered ? ibtopo__json_int(sm->priority) :
					     ibtopo__json_null());
	rc = rc ||
	     ibtopo__json_set(o, "act_count",
			      sm->answered ? ibtopo__json_int(sm->act_count) :
					     ibtopo__json_null());
	rc = rc ||
	     ibtopo__json_set(o, "act_count_again",
			      sm->reread ? ibtopo__json_int(sm->act_count2) :
					   ibtopo__json_null());
	return ibtopo__json_kept(o, rc);
}

static int section_json(struct ibtopo__json *root,
			const struct ibtopo_analysis *an)
{
	const struct ibtopo_subnet_managers *r = an->subnet_managers;
	struct ibtopo__json *arr;

	if (!r)
		return 0;
	arr = ibtopo__json_array();
	for (size_t i = 0; arr && i < r->count; i++)
		if (ibtopo__json_append(arr, sm_json(&r->items[i]))) {
			ibtopo__json_free(arr);
			arr = NULL;
		}
	return arr ? ibtopo__json_set(root, "subnet_managers", arr) :
		     IBTOPO_ENOMEM;
}

static int section_text(const struct ibtopo_sink *sink,
			const struct ibtopo_analysis *an)
{
	const struct ibtopo_subnet_managers *r = an->subnet_managers;
	struct ibtopo__wr w = { sink, 0 };
	char name[IBTOPO_NODE_NAME_MAX];

	if (!r)
		return 0;
	ibtopo__wr_printf(&w, "subnet managers: %zu (%zu master, %zu standby",
			  r->count, r->masters, r->standbys);
	if (r->silent)
		ibtopo__wr_printf(&w, ", %zu silent", r->silent);
	ibtopo__wr_printf(&w, ")\n");
	for (size_t i = 0; i < r->count; i++) {
		const struct ibtopo_sm_entry *e = &r->items[i];

		ibtopo__wr_printf(&w, "  %-11s %s port %u", state_word(e->sm),
				  e->node ? ibtopo_node_name(name, sizeof(name),
							     e->node) :
					    "(not swept)",
				  e->sm->port);
		if (e->lid)
			ibtopo__wr_printf(&w, ", LID %u", e->lid);
		if (e->sm->answered)
			ibtopo__wr_printf(&w,
					  ", priority %u, ActCount %" PRIu32
					  ", GUID 0x%016" PRIx64,
					  e->sm->priority, e->sm->act_count,
					  e->sm->guid);
		if (e->sm->reread)
			ibtopo__wr_printf(&w,
					  ", ActCount %" PRIu32 " 0.1 s later",
					  e->sm->act_count2);
		ibtopo__wr_printf(&w, "\n");
	}
	ibtopo__wr_printf(&w, "\n");
	return w.rc;
}

/* ibtopo_report_analysis(): "subnet_managers" beside "topology" */
const struct ibtopo__report_section ibtopo__report_section_subnet_managers = {
	"subnet_managers",
	section_json,
	section_text,
};
