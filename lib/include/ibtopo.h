/*
 * ibtopo.h - InfiniBand fabric topology analyzer, public interface.
 *
 * The header a program using libibtopo includes: it includes the parts
 * in <ibtopo/...h>, one per module, each self-contained C11.
 *
 * Conventions, the same for every function of the library:
 * - Names are ibtopo_<noun>_<verb>(); macros and enumerators IBTOPO_.
 * - Functions that can fail return 0 or a negative enum ibtopo_status and
 *   take an optional struct ibtopo_error * as their last argument, which
 *   receives a one-line message (the library never prints or exits).
 * - `**out` results come first, belong to the caller and are freed with
 *   the matching _free() (which accepts NULL); plain pointers returned
 *   are borrowed from their parent.
 * - struct ibtopo_fabric owns every node, port and link; findings borrow it.
 * - Option structs start with a version field: initialize them with
 *   their IBTOPO_*_INIT macro.
 * Build with `pkg-config --cflags --libs ibtopo` (add --static to link
 * libibtopo.a); README.md describes the command built on this library.
 */
#ifndef IBTOPO_H
#define IBTOPO_H

#include <ibtopo/error.h>
#include <ibtopo/names.h>
#include <ibtopo/fabric.h>
#include <ibtopo/counters.h>
#include <ibtopo/lfts.h>
#include <ibtopo/mcast.h>
#include <ibtopo/discover.h>
#include <ibtopo/read.h>
#include <ibtopo/namemap.h>
#include <ibtopo/store.h>
#include <ibtopo/sink.h>
#include <ibtopo/export.h>
#include <ibtopo/findings.h>
#include <ibtopo/health.h>
#include <ibtopo/checks.h>
#include <ibtopo/topology.h>
#include <ibtopo/routes_analysis.h>
#include <ibtopo/analyze.h>
#include <ibtopo/report.h>
#include <ibtopo/compare.h>
#include <ibtopo/diagram.h>
#include <ibtopo/metrics.h>
#include <ibtopo/whatif.h>
#include <ibtopo/job.h>

#endif /* IBTOPO_H */
