/*
 * ibtopo/store.h - snapshot store (SQLite). Part of the public interface;
 * programs include <ibtopo.h>, which includes every part.
 */
#ifndef IBTOPO_STORE_H
#define IBTOPO_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <ibtopo/error.h>
#include <ibtopo/fabric.h>
#include <ibtopo/counters.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ibtopo_store;
struct ibtopo_sink;

enum ibtopo_store_flags {
	IBTOPO_STORE_READONLY = 1u << 0,	/* never create or write */
	/* a missing parent folder is an error (IBTOPO_EIO naming it), not
	 * created: for a path a person typed */
	IBTOPO_STORE_NO_MKDIR = 1u << 1,
};

/** One stored snapshot, as listed. Strings owned by the list. */
struct ibtopo_snapshot {
	int64_t id;
	char *label;		/* NULL = none */
	time_t taken_at;
	char *source;
	char *host;
	size_t switches;
	size_t cas;
	size_t routers;
	size_t links;
	bool partial;
	char *partial_reason;	/* NULL = complete, or not recorded */
	char *fabric;		/* the fabric it belongs to; NULL = none */
};

/** One fabric of a store, as listed. Strings owned by the list. */
struct ibtopo_fabric_info {
	char *name;
	uint64_t subnet_prefix;	/* of its latest snapshot; 0 = not known */
	uint16_t sm_lid;	/* its master SM's LID; 0 = not known */
	uint64_t sm_guid;	/* its master SM's port GUID; 0 = not known */
	size_t snapshots;
	int64_t latest_id;	/* its latest snapshot */
	time_t latest_at;
	size_t switches;	/* in its latest snapshot */
	size_t cas;
};

/**
 * Resolve the database path: `explicit_path` if not NULL, else
 * $IBTOPO_DB, else $XDG_DATA_HOME/ibtopo/fabric.db, else
 * ~/.local/share/ibtopo/fabric.db. Writes into buf; IBTOPO_EINVAL if it
 * does not fit or no home is known.
 */
int ibtopo_store_default_path(char *buf, size_t len, const char *explicit_path,
			      struct ibtopo_error *err);

/**
 * Open (and unless READONLY, create with mode 0600, missing parent
 * directories 0700 unless NO_MKDIR, and migrate) a database. A new file
 * belongs to its creator, except that root creating it in a folder
 * another user owns gives it to that user and the folder's group (as
 * SQLite gives root's journal files to the database's owner): a service
 * running as that user can then open it, and root can open any file. A database of an older
 * schema version is migrated even with READONLY when this process can
 * write the file (once, in one transaction); if it cannot, that is
 * IBTOPO_EVERSION naming both versions. IBTOPO_EVERSION for a newer
 * schema (the file is untouched), IBTOPO_ENOTFOUND for a missing file
 * with READONLY, IBTOPO_EPARSE for a file that is not an ibtopo
 * database, IBTOPO_EIO when it cannot be created or written (a missing
 * folder with NO_MKDIR). One thread uses a store at a time (open one per
 * thread: each is its own SQLite connection).
 */
int ibtopo_store_open(struct ibtopo_store **out, const char *path, unsigned flags,
		      struct ibtopo_error *err);
/** Close; NULL is fine. */
void ibtopo_store_free(struct ibtopo_store *store);

/**
 * Store a fabric as a new snapshot in one transaction (all or nothing);
 * sets its snapshot id, and its taken_at (now) and host (gethostname)
 * when they were unset. `out_id` may be NULL. IBTOPO_EBUSY if other
 * writers held the database for longer than 10 s, IBTOPO_EINVAL on a
 * store opened READONLY or a label that reads as a REF, IBTOPO_EEXIST
 * when the fabric's label names a stored snapshot already (see
 * ibtopo_store_save_ext() to move it).
 */
int ibtopo_store_save(int64_t *out_id, struct ibtopo_store *store,
		      struct ibtopo_fabric *fabric, struct ibtopo_error *err);
enum ibtopo_save_flags {
	/* a label in use moves to the new snapshot instead of failing */
	IBTOPO_SAVE_MOVE_LABEL = 1u << 0,
};

/**
 * Whether `label` may name a new snapshot. A label names one snapshot,
 * and a REF must reach it: IBTOPO_EINVAL when it is empty or reads as a
 * REF itself (decimal digits, `latest`, `latest~N`); IBTOPO_EEXIST when
 * a snapshot of `store` has it already (the message names the
 * snapshot), unless `flags` holds IBTOPO_SAVE_MOVE_LABEL. `store` may be
 * NULL: the text alone is checked. Returns 0 when it may.
 */
int ibtopo_store_check_label(struct ibtopo_store *store, const char *label,
			     unsigned flags, struct ibtopo_error *err);

/**
 * ibtopo_store_save() with `flags` (enum ibtopo_save_flags). The
 * fabric's label, when set, is checked with ibtopo_store_check_label()
 * inside the snapshot's transaction (IBTOPO_EINVAL, IBTOPO_EEXIST, and
 * nothing stored); with IBTOPO_SAVE_MOVE_LABEL the snapshots holding the
 * label lose it in that same transaction.
 */
int ibtopo_store_save_ext(int64_t *out_id, struct ibtopo_store *store,
			  struct ibtopo_fabric *fabric, unsigned flags,
			  struct ibtopo_error *err);
/**
 * Load snapshot `id` into a new fabric (sorted, meta filled in, cables
 * attached). IBTOPO_ENOTFOUND if there is no such snapshot.
 */
int ibtopo_store_load(struct ibtopo_fabric **out, struct ibtopo_store *store,
		      int64_t id, struct ibtopo_error *err);
/**
 * Resolve a REF into an id: a snapshot id, else a label, `latest`, or
 * `latest~N` (N snapshots before the latest, in the order they were
 * stored). IBTOPO_ENOTFOUND when nothing matches; IBTOPO_EAMBIGUOUS when
 * the label names several snapshots (databases written before labels
 * were unique), the message listing their ids.
 */
int ibtopo_store_resolve(int64_t *out, struct ibtopo_store *store, const char *ref,
			 struct ibtopo_error *err);
/**
 * ibtopo_store_resolve() within fabric `fabric` (NULL: none named). An
 * id names its snapshot whatever its fabric. `latest`, `latest~N` and
 * labels are read within `fabric`, or, without one, within the only
 * fabric of the store; with several fabrics and none named that is
 * IBTOPO_EAMBIGUOUS, the message listing each fabric and its latest
 * snapshot. IBTOPO_ENOTFOUND for a fabric the store does not have.
 */
int ibtopo_store_resolve_in(int64_t *out, struct ibtopo_store *store,
			    const char *fabric, const char *ref,
			    struct ibtopo_error *err);
/**
 * ibtopo_store_check_label() within fabric `fabric`: a label names one
 * snapshot of a fabric. NULL: the only fabric of the store; with
 * several and none named, only the text is checked (the save checks
 * again, in the fabric it chooses).
 */
int ibtopo_store_check_label_in(struct ibtopo_store *store, const char *fabric,
				const char *label, unsigned flags,
				struct ibtopo_error *err);
/**
 * The fabrics of a store, by name. Free with ibtopo_fabric_info_list_free().
 */
int ibtopo_store_fabrics(struct ibtopo_fabric_info **out, size_t *out_count,
			 struct ibtopo_store *store, struct ibtopo_error *err);
void ibtopo_fabric_info_list_free(struct ibtopo_fabric_info *list,
				  size_t count);
/**
 * Rename fabric `old_name` to `new_name`. IBTOPO_ENOTFOUND when there is
 * no `old_name`, IBTOPO_EEXIST when `new_name` is taken, IBTOPO_EINVAL
 * for an empty name or a store opened READONLY.
 */
int ibtopo_store_rename_fabric(struct ibtopo_store *store, const char *old_name,
			       const char *new_name, struct ibtopo_error *err);
enum ibtopo_fabric_delete_flags {
	/* delete its snapshots too, instead of refusing a fabric with any */
	IBTOPO_FABRIC_DELETE_SNAPSHOTS = 1u << 0,
};
/**
 * Delete fabric `name`. A fabric with snapshots is IBTOPO_EEXIST (the
 * message counts them) unless `flags` holds
 * IBTOPO_FABRIC_DELETE_SNAPSHOTS; *out_deleted (may be NULL): the
 * snapshots deleted with it. IBTOPO_ENOTFOUND when there is no `name`,
 * IBTOPO_EINVAL for a store opened READONLY.
 */
int ibtopo_store_delete_fabric(struct ibtopo_store *store, const char *name,
			       unsigned flags, int64_t *out_deleted,
			       struct ibtopo_error *err);
/**
 * Move every snapshot of fabric `from` into fabric `into` and delete
 * `from`: two names of one fabric become one history. IBTOPO_ENOTFOUND
 * when either is missing, IBTOPO_EEXIST when a label names a snapshot in
 * each (the message names both), IBTOPO_EINVAL when they are the same
 * fabric or the store was opened READONLY.
 */
int ibtopo_store_merge_fabric(struct ibtopo_store *store, const char *from,
			      const char *into, struct ibtopo_error *err);

/* How a new snapshot's switches compare with the fabrics of a store. */
struct ibtopo_fabric_match {
	/* the fabric named, when it has snapshots ("" otherwise): its
	 * latest snapshot, its switch GUIDs and how many the new one has */
	char named[80];
	int64_t named_latest;
	size_t named_total, named_shared;
	/* the other fabric sharing the most (at least half) of its latest
	 * snapshot's switch GUIDs with the new one; "" for none */
	char other[80];
	int64_t other_latest;
	size_t other_total, other_shared;
};
/**
 * Compare `fabric` (not stored yet) with the latest snapshot of each
 * fabric of `store`, by switch GUIDs (node GUIDs when it has no switch),
 * for a snapshot about to be stored under fabric `name`: the name
 * contradicts the switches when `named` has fewer than half of its
 * GUIDs in `fabric`, or when `named` is empty and `other` is not.
 * A store without a schema yet matches nothing.
 */
int ibtopo_store_fabric_match(struct ibtopo_fabric_match *out,
			      struct ibtopo_store *store,
			      const struct ibtopo_fabric *fabric,
			      const char *name, struct ibtopo_error *err);
/**
 * Whether `name` may name a fabric: 1 to 64 letters, digits, '-', '_'
 * or '.', starting with a letter or digit.
 */
bool ibtopo_store_fabric_name_is_valid(const char *name);
/**
 * The snapshot list as text, JSON (`ibtopo snapshots` in doc/json.md)
 * or CSV, like ibtopo_report_snapshots() with the fabric of each snapshot
 * after its label. `fabric` (may be NULL) lists only that fabric's.
 */
int ibtopo_store_report_snapshots(const struct ibtopo_sink *sink,
				  const struct ibtopo_snapshot *list,
				  size_t count, const char *fabric,
				  struct ibtopo_error *err);
/**
 * The fabric list as text, JSON (`ibtopo fabrics` in doc/json.md) or
 * CSV with the same keys as headers.
 */
int ibtopo_store_report_fabrics(const struct ibtopo_sink *sink,
				const struct ibtopo_fabric_info *list,
				size_t count, struct ibtopo_error *err);
/** One port in one snapshot, as ibtopo_store_port_history() reads it. */
struct ibtopo_port_reading {
	int64_t snapshot_id;
	time_t taken_at;
	char *label;		/* NULL = none; owned by the list */
	bool present;		/* the snapshot has the port */
	unsigned state, phys_state;	/* IBA PortState, PortPhysicalState */
	unsigned speed_active, width_active;	/* bits; 0 = not known */
	bool has_counters;	/* counters were read: `counters` */
	struct ibtopo_counters counters;
};

/**
 * Port `port` of the node with GUID `node_guid` in every snapshot of the
 * fabric snapshot `snapshot_id` belongs to, oldest first, one reading per
 * snapshot (present false where the snapshot lacks the port), without
 * loading the snapshots. Free with ibtopo_port_readings_free().
 * IBTOPO_ENOTFOUND without that snapshot, IBTOPO_EIO, IBTOPO_ENOMEM.
 */
int ibtopo_store_port_history(struct ibtopo_port_reading **out,
			      size_t *out_count, struct ibtopo_store *store,
			      int64_t snapshot_id, uint64_t node_guid,
			      unsigned port, struct ibtopo_error *err);
void ibtopo_port_readings_free(struct ibtopo_port_reading *list, size_t count);

/** List snapshots, oldest first. Free with ibtopo_snapshot_list_free(). */
int ibtopo_store_list(struct ibtopo_snapshot **out, size_t *out_count,
		      struct ibtopo_store *store, struct ibtopo_error *err);
void ibtopo_snapshot_list_free(struct ibtopo_snapshot *list, size_t count);
/**
 * Delete snapshot `id` and everything stored with it, in one transaction.
 * IBTOPO_ENOTFOUND if there is no such snapshot, IBTOPO_EINVAL on a
 * store opened READONLY.
 */
int ibtopo_store_delete(struct ibtopo_store *store, int64_t id,
			struct ibtopo_error *err);
/**
 * Housekeeping: delete the snapshots beyond the `keep` newest (0: no
 * limit) and those taken before `before` (0: no limit), each in its own
 * transaction, but never the newest snapshot (what 'latest' names) nor
 * the newest snapshot of a label. "Newest" is in the order snapshots
 * were stored. *out_ids (may be NULL; free() it) gets the ids deleted,
 * oldest first, and *out_count (may be NULL) their number, also on a
 * failure part-way. IBTOPO_EINVAL on a store opened READONLY.
 */
int ibtopo_store_prune(int64_t **out_ids, size_t *out_count,
		       struct ibtopo_store *store, size_t keep, time_t before,
		       struct ibtopo_error *err);
/**
 * ibtopo_store_prune() fabric by fabric: `keep` counts the snapshots of
 * each fabric, each keeps its newest and the newest of each of its
 * labels; `fabric` (may be NULL: every one) limits it to that fabric.
 * ibtopo_store_prune() is this with NULL.
 */
int ibtopo_store_prune_in(int64_t **out_ids, size_t *out_count,
			  struct ibtopo_store *store, const char *fabric,
			  size_t keep, time_t before, struct ibtopo_error *err);
/**
 * Rebuild the database file without the pages deleted snapshots left
 * free (SQLite VACUUM), and checkpoint the write-ahead log so that the
 * file shrinks now. IBTOPO_EINVAL on a store opened READONLY;
 * IBTOPO_EBUSY when other connections hold the database too long.
 */
int ibtopo_store_vacuum(struct ibtopo_store *store, struct ibtopo_error *err);
/** The path the store was opened with; borrowed from the store. */
const char *ibtopo_store_path(const struct ibtopo_store *store);

#ifdef __cplusplus
}
#endif

#endif /* IBTOPO_STORE_H */
