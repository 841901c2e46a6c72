/*
 * ibtopo/export.h - writing fabric files (export). Part of the public interface;
 * programs include <ibtopo.h>, which includes every part.
 */
#ifndef IBTOPO_EXPORT_H
#define IBTOPO_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <ibtopo/error.h>
#include <ibtopo/fabric.h>
#include <ibtopo/sink.h>

#ifdef __cplusplus
extern "C" {
#endif

enum ibtopo_export_format {
	IBTOPO_EXPORT_IBNETDISCOVER = 0,	/* ibnetdiscover text */
	IBTOPO_EXPORT_IBSIM,		/* ibsim net file */
	IBTOPO_EXPORT_SLURM,		/* Slurm topology.conf (tree plugin) */
	IBTOPO_EXPORT_CSV,		/* the links, as `show links` CSV */
	IBTOPO_EXPORT_JSON,		/* nodes, ports and links */
	IBTOPO_EXPORT_LFTS,		/* forwarding tables, opensm-lfts.dump */
};

/** "ibnetdiscover", "ibsim", "slurm", "csv", "json", "lfts" -> format; -1 if unknown. */
int ibtopo_export_format_parse(const char *name);
/** Inverse of ibtopo_export_format_parse(); "?" if unknown. */
const char *ibtopo_export_format_name(enum ibtopo_export_format format);

/**
 * Write a fabric in an export format through opts' sink (opts->format is
 * ignored). ibnetdiscover: as `ibnetdiscover` prints it, readable by
 * ibsim and by ibtopo_fabric_read_buffer() into the same fabric.
 * ibsim: a net file whose ports' enabled masks (w= s= e=) make ibsim
 * train every link at its active speed and width; GUIDs kept through
 * switchguid=/caguid= lines; NDR and faster are written as HDR (see
 * ibtopo_export_losses()).
 * slurm: a topology.conf for Slurm's topology/tree plugin, one
 * `SwitchName=` line per switch, lowest level first (levels of
 * ibtopo_topology_analyze()): a leaf lists its hosts (Nodes=, hostlist
 * expressions), a switch above the leaves its neighbours on lower levels
 * (Switches=), so no switch is listed below its own descendant. Each host
 * is under one switch: the lowest-level one it is cabled to, then the one
 * with most of its cables, then the first by name (a rail-optimized
 * server goes under its first rail's leaf). Hosts on a switch that also
 * has switches below it get a leaf of their own, "<switch>-hosts"; when
 * no switch reaches every host, a logical switch "top" lists those that
 * no switch lists. A host is the first word of its CA's description, or
 * "H-<guid>" for firmware-default descriptions ("MT4129 ConnectX7
 * Mellanox Technologies"); SHARP aggregation nodes are left out.
 * lfts: the switches' forwarding tables as OpenSM's opensm-lfts.dump,
 * which `opensm -R file -U FILE` loads; IBTOPO_EINVAL when no switch has
 * one.
 * IBTOPO_EIO if the sink fails.
 */
int ibtopo_fabric_write(const struct ibtopo_sink *opts,
			const struct ibtopo_fabric *fabric,
			enum ibtopo_export_format format,
			struct ibtopo_error *err);

/**
 * What writing `fabric` in `format` cannot keep, as one line for a
 * warning into buf (len bytes; "" when nothing is lost). Returns the
 * number of links it concerns, 0 when nothing is lost or an argument is
 * NULL. ibsim: links faster than HDR (NDR, XDR) are written as HDR, the
 * fastest extended speed Debian 12's ibsim 0.10 accepts.
 */
size_t ibtopo_export_losses(char *buf, size_t len,
			    const struct ibtopo_fabric *fabric,
			    enum ibtopo_export_format format);

#ifdef __cplusplus
}
#endif

#endif /* IBTOPO_EXPORT_H */
