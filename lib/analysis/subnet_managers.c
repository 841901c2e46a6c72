/*
 * subnet_managers.c - the subnet managers section: every SM a live sweep
 * found (a port whose CapabilityMask says IsSM, and its SMInfo), the
 * master first, then by priority, with its node's name and LID. No
 * findings of its own: check_subnet.c judges their states (sm-state).
 * A fabric read from a file says nothing of its SMs: no result then.
 */
#include "analysis/analysis-int.h"

#include <stdio.h>
#include <stdlib.h>

/* Master first, then standby, discovering, not active, silent; within
 * one state the higher priority, then the lower GUID. */
static int state_rank(const struct ibtopo_sm *sm)
{
	static const int rank[] = {
		[IBTOPO_SM_MASTER] = 0,
		[IBTOPO_SM_STANDBY] = 1,
		[IBTOPO_SM_DISCOVERING] = 2,
		[IBTOPO_SM_NOT_ACTIVE] = 3,
	};

	return sm->answered && sm->state <= IBTOPO_SM_MASTER ? rank[sm->state] :
							       4;
}

static int cmp_sm(const void *pa, const void *pb)
{
	const struct ibtopo_sm *a = ((const struct ibtopo_sm_entry *)pa)->sm;
	const struct ibtopo_sm *b = ((const struct ibtopo_sm_entry *)pb)->sm;

	if (state_rank(a) != state_rank(b))
		return state_rank(a) - state_rank(b);
	if (a->priority != b->priority)
		return (int)b->priority - (int)a->priority;
	return a->node_guid < b->node_guid ? -1 : a->node_guid > b->node_guid;
}

/* The entry of one SM: its node and the LID of its port (a switch's is
 * its port 0's). */
static void entry_of(struct ibtopo_sm_entry *e, const struct ibtopo_fabric *f,
		     const struct ibtopo_sm *sm)
{
	const struct ibtopo_port *p;

	e->sm = sm;
	e->node = ibtopo_fabric_find_node(f, sm->node_guid);
	p = e->node ? ibtopo_node_port(e->node, sm->port) : NULL;
	e->lid = p ? p->lid : 0;
}

static int run_sms(struct ibtopo_analysis *an, struct ibtopo_findings *found,
		   struct ibtopo_error *err)
{
	const struct ibtopo_fabric *f = an->fabric;
	size_t n = ibtopo_fabric_sm_count(f);
	struct ibtopo_subnet_managers *r;

	(void)found;
	if (!ibtopo_fabric_sms_read(f))
		return 0;
	r = calloc(1, sizeof(*r));
	if (!r || (n && !(r->items = calloc(n, sizeof(*r->items))))) {
		free(r);
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < n; i++) {
		entry_of(&r->items[i], f, ibtopo_fabric_sm(f, i));
		switch (state_rank(r->items[i].sm)) {
		case 0:
			r->masters++;
			break;
		case 1:
			r->standbys++;
			break;
		case 4:
			r->silent++;
			break;
		default:
			break;
		}
	}
	r->count = n;
	if (n > 1)
		qsort(r->items, n, sizeof(*r->items), cmp_sm);
	an->subnet_managers = r;
	return 0;
}

static void sms_summary(char *buf, size_t len, const struct ibtopo_analysis *an)
{
	const struct ibtopo_subnet_managers *r = an->subnet_managers;

	if (!r)
		snprintf(buf, len, "not read (no live sweep)");
	else
		snprintf(buf, len, "%zu, %zu master, %zu standby", r->count,
			 r->masters, r->standbys);
}

static void release_sms(struct ibtopo_analysis *an)
{
	if (an->subnet_managers)
		free(an->subnet_managers->items);
	free(an->subnet_managers);
	an->subnet_managers = NULL;
}

const struct ibtopo__analysis ibtopo__analysis_subnet_managers = {
	.name = "subnet managers",
	.run = run_sms,
	.summary = sms_summary,
	.release = release_sms,
};

IBTOPO__ACCESSOR(ibtopo_analysis_subnet_managers, SUBNET_MANAGERS,
		 const struct ibtopo_subnet_managers, an->subnet_managers)
