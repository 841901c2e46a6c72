/*
 * health_history.c - one port across the stored snapshots of its fabric:
 * each reading against the one before it that has counters (growth, rate,
 * resets, BER), as health compares two snapshots.
 */
#include "read/read-int.h"
#include "analysis/analysis-int.h"

#include <stdlib.h>
#include <string.h>

int ibtopo_health_history(struct ibtopo_port_history **out, const char *node,
			  uint64_t guid, unsigned port,
			  const struct ibtopo_port_reading *readings,
			  size_t count, struct ibtopo_error *err)
{
	const struct ibtopo_counters *last = NULL;
	struct ibtopo_port_history *h;

	if (!out || (count && !readings))
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no readings");
	*out = NULL;
	h = calloc(1, sizeof(*h));
	if (h)
		h->rows = calloc(count ? count : 1, sizeof(*h->rows));
	if (!h || !h->rows) {
		ibtopo_port_history_free(h);
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	}
	h->node = node;
	h->guid = guid;
	h->port = port;
	h->count = count;
	for (size_t i = 0; i < count; i++) {
		const struct ibtopo_port_reading *r = &readings[i];
		struct ibtopo_health_port *x = &h->rows[i].change;

		h->rows[i].reading = r;
		x->level = -1;
		if (!r->has_counters)
			continue;
		x->now = &r->counters;
		x->before = last;
		ibtopo__health_compare(x);
		ibtopo__health_rates_at(x, r->speed_active, r->width_active);
		last = &r->counters;
	}
	*out = h;
	return 0;
}

void ibtopo_port_history_free(struct ibtopo_port_history *history)
{
	if (!history)
		return;
	free(history->rows);
	free(history);
}
