/*
 * report-health.h - private to lib/report: the BER and congestion parts
 * of `ibtopo health` (report_health_ber.c) that report_health.c writes,
 * and the counter-name list the port history (report_health_history.c)
 * shares with it.
 */
#ifndef IBTOPO_REPORT_HEALTH_H
#define IBTOPO_REPORT_HEALTH_H

#include "report/report-int.h"

/** Names of the counters whose bit is set in `mask`, as a JSON array;
 * NULL: out of memory. */
struct ibtopo__json *ibtopo__health_names_json(uint32_t mask);
/** {"node","guid","port"} of a port; NULL is null. */
struct ibtopo__json *ibtopo__health_end_json(const struct ibtopo_port *p);
/** A port's BER, lanes and waiting into its JSON object; nonzero: ENOMEM. */
int ibtopo__health_port_ber_json(struct ibtopo__json *o,
				 const struct ibtopo_health_port *x);
/** [every link's BER], worst first; NULL: out of memory. */
struct ibtopo__json *ibtopo__health_links_json(const struct ibtopo_health *h);
/** {"threshold","top","ports_waiting","ports":[the top most waiting]}. */
struct ibtopo__json *
ibtopo__health_congestion_json(const struct ibtopo_health *h, size_t top);
/** CSV: the BER and XmitWait columns' names, and one port's cells. */
int ibtopo__health_csv_header(const struct ibtopo_sink *sink);
int ibtopo__health_csv_cells(const struct ibtopo_sink *sink,
			     const struct ibtopo_health_port *x);
/** Text: the links with symbol errors; the most waiting ports. */
int ibtopo__health_ber_text(const struct ibtopo_sink *sink,
			    const struct ibtopo_health *h);
int ibtopo__health_congestion_text(const struct ibtopo_sink *sink,
				   const struct ibtopo_health *h, size_t top);

#endif /* IBTOPO_REPORT_HEALTH_H */
