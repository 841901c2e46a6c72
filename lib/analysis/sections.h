/*
 * sections.h - the sections of an analysis, one line each, in the order
 * they run, their findings come and their reports print. No include
 * guard: each includer defines IBTOPO__SECTION(name, NAME, result, report)
 * and takes what it needs of the list:
 *   name    ibtopo__analysis_<name>, defined in the section's file under
 *           lib/analysis/, computes it into an->name (analysis-int.h);
 *           IBTOPO__SECTION_<NAME> names it (enum ibtopo__section_id)
 *   result  the type an->name points to
 *   report  1: ibtopo__report_section_<name>, defined in
 *           lib/report/report_<name>.c, prints it in the analysis report
 *           (report_analysis.c), in this order; 0: it has none there
 * A new section is its file, its report file and one line here
 * (HACKING.md, "An analysis section").
 */
/* check_speed.c: per link the speed and width bits it could run at */
IBTOPO__SECTION(links, LINKS, unsigned, 0)
/* topology.c; report_topology.c */
IBTOPO__SECTION(topology, TOPOLOGY, struct ibtopo_topology, 1)
/* health.c (its report is ibtopo_report_health()) */
IBTOPO__SECTION(health, HEALTH, struct ibtopo_health, 0)
/* routes_trace.c; report_routes.c */
IBTOPO__SECTION(routes, ROUTES, struct ibtopo_routes, 1)
/* routes_mcast.c; report_mcast.c */
IBTOPO__SECTION(mcast, MCAST, struct ibtopo_mcast, 1)
/* subnet_managers.c; report_subnet_managers.c */
IBTOPO__SECTION(subnet_managers, SUBNET_MANAGERS, struct ibtopo_subnet_managers,
		1)
