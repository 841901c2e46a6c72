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
#include <ibtopo/analyze.h>

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
	IBTOPO_EXPORT_SLURM_BLOCK,	/* Slurm topology.conf (block plugin) */
	IBTOPO_EXPORT_SLURM_YAML,	/* Slurm 25.05 topology.yaml */
	IBTOPO_EXPORT_K8S,		/* Kubernetes Node labels, Kueue Topology */
};

enum ibtopo_export_flags {
	/* scheduler formats: name a host without a name "H-<guid>" rather
	 * than leave it out */
	IBTOPO_EXPORT_HOST_GUIDS = 1u << 0,
};

/* the Kueue API version of k8s' Topology object */
enum ibtopo_kueue_api {
	IBTOPO_KUEUE_V1BETA2 = 0, /* Kueue 0.15 and later (the default) */
	IBTOPO_KUEUE_V1BETA1,	  /* Kueue 0.14 and later */
};

/** What the scheduler formats (slurm, slurm-block, slurm-yaml, k8s) take. */
struct ibtopo_export_opts {
	unsigned version;	/* IBTOPO_EXPORT_OPTS_VERSION (1, 2 or 3) */
	unsigned flags;		/* enum ibtopo_export_flags */
	/* one line per warning (hosts left out, names changed); may be NULL */
	void (*warn)(void *arg, const char *message);
	void *warn_arg;
	/* version 2: k8s */
	enum ibtopo_kueue_api kueue_api;
	/* label keys "<prefix><tier>": NULL for "topology.ibtopo.io/" with
	 * tiers leaf|su|group, spine|top, core, tier<N>; "topograph" for
	 * NVIDIA topograph's network.topology.nvidia.com/ with leaf, spine,
	 * core, tier<N>; else a DNS subdomain and "/" (IBTOPO_EINVAL if not) */
	const char *label_prefix;
	/* the cluster's members (Kubernetes Node names, any case; "node/"
	 * before a name is dropped): NULL for every host; a host not listed
	 * is left out, and a member the fabric lacks is warned about */
	const char *const *hosts;
	size_t nhosts;
	/* version 3: the Slurm release the files are for, as YYMM (2411
	 * for 24.11); 0 for the newest ibtopo was tried with (26.05).
	 * slurm-block before 2605: the base block is the smallest, as
	 * slurmctld 24.11 refuses a block of fewer nodes than the base */
	unsigned slurm_release;
};
#define IBTOPO_EXPORT_OPTS_VERSION 3
#define IBTOPO_EXPORT_OPTS_INIT \
	{ IBTOPO_EXPORT_OPTS_VERSION, 0, NULL, NULL, IBTOPO_KUEUE_V1BETA2, NULL, NULL, 0, 0 }

/** "ibnetdiscover", "ibsim", "slurm", "csv", "json", "lfts", "slurm-block",
 * "slurm-yaml", "k8s" -> format; -1 if unknown. */
int ibtopo_export_format_parse(const char *name);
/** Inverse of ibtopo_export_format_parse(); "?" if unknown. */
const char *ibtopo_export_format_name(enum ibtopo_export_format format);

/**
 * Write the analysed fabric in an export format through opts' sink
 * (opts->format is ignored), with export options (NULL = the defaults;
 * IBTOPO_EINVAL for a version it does not know; version 1 takes the
 * defaults of version 2's fields). The scheduler formats
 * read the analysis' levels (ibtopo_analysis_topology()), so they rank
 * switches as analyze does with the same options. ibnetdiscover: as `ibnetdiscover` prints it, readable by
 * ibsim and by ibtopo_fabric_read_buffer() into the same fabric.
 * ibsim: a net file whose ports' enabled masks (w= s= e=) make ibsim
 * train every link at its active speed and width; GUIDs kept through
 * switchguid=/caguid= lines; NDR and faster are written as HDR (see
 * ibtopo_export_losses()).
 * slurm, slurm-block, slurm-yaml, k8s: the scheduler formats, all from
 * one tree of logical switches built on the analysis' topology:
 * a leaf lists servers, a switch above lists switches of lower levels;
 * the chips of a director are one switch, the leaves of a scalable unit
 * of a rail-optimized fabric one leaf named after the unit, a Dragonfly+
 * group one leaf; a switch with nothing below is left out; a logical
 * "top" joins the roots when no one switch reaches every server. A
 * server is under one leaf (lowest level, most cables, first by name).
 * A server is named by the first word of its CA's description (after a
 * node-name map); one with a firmware-default description ("MT4129
 * ConnectX7 Mellanox Technologies") is left out with a warning, unless
 * IBTOPO_EXPORT_HOST_GUIDS names it "H-<guid>"; SHARP aggregation nodes
 * are left out. Names are at most 64 characters of [A-Za-z0-9._-],
 * others mapped deterministically, with one warning.
 * slurm: topology.conf for topology/tree (SwitchName= Nodes=|Switches=).
 * slurm-block: topology.conf for topology/block (Slurm 23.11+): a block
 * per leaf and one BlockSizes= line.
 * slurm-yaml: Slurm 25.05's topology.yaml, one tree topology.
 * k8s: a YAML stream of a Kueue Topology (kueue.x-k8s.io/v1beta2, or
 * v1beta1) whose levels are the label keys, top first, then
 * kubernetes.io/hostname, and one Node object per host (metadata.name
 * and labels only) that carries every level's label: a tier its path
 * skips takes the value of the switch above it on that path, so the
 * levels nest as Kueue requires (see xopts->label_prefix, ->hosts).
 * IBTOPO_EINVAL for a fabric without a server to list, or names that
 * clash once mapped (the message lists them).
 * lfts: the switches' forwarding tables as OpenSM's opensm-lfts.dump,
 * which `opensm -R file -U FILE` loads; IBTOPO_EINVAL when no switch has
 * one.
 * IBTOPO_EIO if the sink fails.
 */
int ibtopo_analysis_write(const struct ibtopo_sink *sink,
			  struct ibtopo_analysis *analysis,
			  enum ibtopo_export_format format,
			  const struct ibtopo_export_opts *xopts,
			  struct ibtopo_error *err);
/**
 * ibtopo_analysis_write() of an analysis of its own with the default
 * options (the levels alone) and the default export options; a program
 * that reports the fabric too shares one analysis instead.
 */
int ibtopo_fabric_write(const struct ibtopo_sink *sink,
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
