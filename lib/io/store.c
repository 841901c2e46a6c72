/*
 * store.c - fabric snapshots in SQLite: schema migrations, save, load,
 * snapshot references. The only file including <sqlite3.h>.
 *
 * The schema is data/schema.sql, compiled in as a string at build time
 * (lib/schema-sql.h) so the library works uninstalled. Its "-- @version N"
 * lines split it into migrations; PRAGMA user_version records the last one
 * a database has, PRAGMA application_id marks the file as ours.
 */
#include "io/io-int.h"

#include <sqlite3.h>

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define STORE_APP_ID 0x49425450		/* "IBTP" */
#define STORE_BUSY_TIMEOUT_MS 10000

static const char schema_sql[] =
#include "lib/schema-sql.h"
	;

static const char version_mark[] = "-- @version ";

struct ibtopo_store {
	sqlite3 *db;
	char *path;
	int version;		/* user_version when opened (after migrating) */
	bool readonly;
};

/* ------------------------------------------------------------------ */
/* Schema text                                                         */
/* ------------------------------------------------------------------ */

/*
 * Find migration `version` in the schema text. With version 0, only
 * return the highest version present. Returns that highest version.
 */
static int schema_scan(int version, const char **sql, size_t *len)
{
	const char *p = schema_sql, *start = NULL;
	bool inside = false;
	int latest = 0;

	while (*p) {
		const char *eol = strchr(p, '\n');
		const char *next = eol ? eol + 1 : p + strlen(p);

		if (strncmp(p, version_mark, sizeof(version_mark) - 1) == 0) {
			int v = atoi(p + sizeof(version_mark) - 1);

			if (inside)
				*len = (size_t)(p - start);
			inside = version && v == version;
			if (inside)
				start = next;
			latest = v;
		}
		p = next;
	}
	if (inside)
		*len = (size_t)(p - start);
	if (start)
		*sql = start;
	return latest;
}

static int schema_latest(void)
{
	return schema_scan(0, NULL, NULL);
}

/* ------------------------------------------------------------------ */
/* Errors                                                              */
/* ------------------------------------------------------------------ */

static int sql_status(int rc)
{
	switch (rc & 0xff) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return IBTOPO_EBUSY;
	case SQLITE_NOMEM:
		return IBTOPO_ENOMEM;
	case SQLITE_NOTADB:
	case SQLITE_CORRUPT:
		return IBTOPO_EPARSE;
	case SQLITE_CANTOPEN:
	case SQLITE_IOERR:
	case SQLITE_READONLY:
	case SQLITE_PERM:
	case SQLITE_FULL:
		return IBTOPO_EIO;
	default:
		return IBTOPO_ERROR;
	}
}

/*
 * Record a failed SQLite call. Copies sqlite3_errmsg() at once: the next
 * call on the connection (a ROLLBACK, say) would overwrite it.
 */
static int store_fail(const struct ibtopo_store *s, sqlite3 *db, int rc,
		      const char *what, struct ibtopo_error *err)
{
	if ((rc & 0xff) == SQLITE_NOTADB)
		return ibtopo__error_set(err, IBTOPO_EPARSE,
					 "'%s': not an ibtopo database", s->path);
	return ibtopo__error_set(err, sql_status(rc), "'%s': %s: %s", s->path,
				 what, db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
}

/* ------------------------------------------------------------------ */
/* Paths and files                                                     */
/* ------------------------------------------------------------------ */

int ibtopo_store_default_path(char *buf, size_t len, const char *explicit_path,
			      struct ibtopo_error *err)
{
	const char *env, *home = NULL;
	struct passwd *pw;
	int n;

	if (!buf || !len)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no path buffer");
	if (explicit_path && *explicit_path) {
		n = snprintf(buf, len, "%s", explicit_path);
	} else if ((env = getenv("IBTOPO_DB")) && *env) {
		n = snprintf(buf, len, "%s", env);
	} else if ((env = getenv("XDG_DATA_HOME")) && env[0] == '/') {
		/* the XDG spec: a relative XDG_DATA_HOME is to be ignored */
		n = snprintf(buf, len, "%s/ibtopo/fabric.db", env);
	} else {
		env = getenv("HOME");
		if (env && *env) {
			home = env;
		} else {
			pw = getpwuid(getuid());
			if (pw && pw->pw_dir && *pw->pw_dir)
				home = pw->pw_dir;
		}
		if (!home)
			return ibtopo__error_set(err, IBTOPO_EINVAL,
				"no database path: give --db or set IBTOPO_DB or HOME");
		n = snprintf(buf, len, "%s/.local/share/ibtopo/fabric.db", home);
	}
	if (n < 0 || (size_t)n >= len)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "database path too long");
	return 0;
}

/* mkdir -p of the directory holding `path`; new directories get 0700. */
static int make_parents(const char *path, struct ibtopo_error *err)
{
	char *dir = strdup(path);
	struct stat st;
	char *slash;
	int rc = 0;

	if (!dir)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		goto out_free_dir;	/* cwd or root */
	*slash = '\0';
	if (stat(dir, &st) == 0)
		goto out_free_dir;
	for (char *p = dir + 1; ; p++) {
		char c = *p;

		if (c != '/' && c != '\0')
			continue;
		*p = '\0';
		if (stat(dir, &st) != 0 && mkdir(dir, 0700) != 0 &&
		    errno != EEXIST) {
			rc = ibtopo__error_set(err, IBTOPO_EIO,
				"cannot create directory '%s': %s", dir,
				strerror(errno));
			goto out_free_dir;
		}
		*p = c;
		if (!c)
			break;
	}
out_free_dir:
	free(dir);
	return rc;
}

/*
 * Create the database file ourselves so that it is born 0600 whatever
 * the umask: SQLite would create it 0644. SQLite gives the -wal and -shm
 * files the database's permissions.
 */
static int create_file(const char *path, struct ibtopo_error *err)
{
	struct stat st;
	int fd, rc;

	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return ibtopo__error_set(err, IBTOPO_EIO,
				"cannot open database '%s': is a directory", path);
		return 0;
	}
	rc = make_parents(path, err);
	if (rc)
		return rc;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 && errno != EEXIST)	/* EEXIST: another writer won */
		return ibtopo__error_set(err, IBTOPO_EIO,
			"cannot create database '%s': %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	return 0;
}

/* The directory holding `path`. */
static void dir_of(const char *path, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(buf, len, ".");
	else if (slash == path)
		snprintf(buf, len, "/");
	else
		snprintf(buf, len, "%.*s", (int)(slash - path), path);
}

static bool can_write(const char *path)
{
	return faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) == 0;
}

/*
 * Say plainly why a database cannot be written, before SQLite says
 * "attempt to write a readonly database" halfway through opening it.
 */
static int check_writable(const char *path, struct ibtopo_error *err)
{
	char dir[4096];

	if (!can_write(path)) {
		if (errno == EACCES || errno == EPERM)
			return ibtopo__error_set(err, IBTOPO_EIO,
				"database '%s' is read-only", path);
		return ibtopo__error_set(err, IBTOPO_EIO,
			"cannot write database '%s': %s", path, strerror(errno));
	}
	dir_of(path, dir, sizeof(dir));
	/* SQLite creates the -wal and -shm files beside the database */
	if (!can_write(dir))
		return ibtopo__error_set(err, IBTOPO_EIO,
			"cannot write database '%s': directory '%s': %s", path,
			dir, strerror(errno));
	return 0;
}

/* "file:" URI for a path, with a query string ("?immutable=1"). */
static char *file_uri(const char *path, const char *query)
{
	static const char safe[] = "/._-~";
	size_t n = strlen(path);
	char *uri = malloc(8 + 3 * n + strlen(query) + 1), *p;

	if (!uri)
		return NULL;
	p = uri + sprintf(uri, path[0] == '/' ? "file://" : "file:");
	for (const char *c = path; *c; c++) {
		unsigned char ch = (unsigned char)*c;

		if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		    (ch >= '0' && ch <= '9') || strchr(safe, ch))
			*p++ = (char)ch;
		else
			p += sprintf(p, "%%%02X", ch);
	}
	strcpy(p, query);
	return uri;
}

/* ------------------------------------------------------------------ */
/* Opening and migrating                                               */
/* ------------------------------------------------------------------ */

static int db_open_name(struct ibtopo_store *s, sqlite3 **out,
			const char *name, int flags, struct ibtopo_error *err)
{
	sqlite3 *db = NULL;
	int rc;

	rc = sqlite3_open_v2(name, &db, flags, NULL);
	if (rc != SQLITE_OK) {
		rc = store_fail(s, db, rc, "cannot open database", err);
		sqlite3_close(db);
		return rc;
	}
	sqlite3_busy_timeout(db, STORE_BUSY_TIMEOUT_MS);
	*out = db;
	return 0;
}

static int db_open(struct ibtopo_store *s, sqlite3 **out, int flags,
		   struct ibtopo_error *err)
{
	return db_open_name(s, out, s->path, flags, err);
}

static int exec(struct ibtopo_store *s, sqlite3 *db, const char *sql,
		const char *what, struct ibtopo_error *err)
{
	int rc = sqlite3_exec(db, sql, NULL, NULL, NULL);

	if (rc != SQLITE_OK)
		return store_fail(s, db, rc, what, err);
	return 0;
}

/*
 * Switching a new file to WAL takes an exclusive lock, and SQLite can
 * answer SQLITE_BUSY at once, without its busy handler, while another
 * process is creating the same database: retry for the busy timeout.
 */
static int exec_wal(struct ibtopo_store *s, struct ibtopo_error *err)
{
	static const char sql[] =
		"PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL";
	int rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);

	for (int waited = 0; (rc == SQLITE_BUSY || rc == SQLITE_LOCKED) &&
			     waited < STORE_BUSY_TIMEOUT_MS; waited += 10) {
		sqlite3_sleep(10);
		rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);
	}
	if (rc != SQLITE_OK)
		return store_fail(s, s->db, rc, "cannot write database", err);
	return 0;
}

/*
 * Read the application id, schema version and object count, and decide
 * whether the file is ours: an empty database, or one carrying our
 * application id at a version we know.
 */
static int check_header(struct ibtopo_store *s, sqlite3 *db, int *version,
			struct ibtopo_error *err)
{
	static const char sql[] =
		"SELECT (SELECT application_id FROM pragma_application_id),"
		" (SELECT user_version FROM pragma_user_version),"
		" (SELECT count(*) FROM sqlite_master)";
	sqlite3_stmt *st = NULL;
	int rc, app, ver, nobj, latest = schema_latest();

	rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		rc = store_fail(s, db, rc, "cannot read database", err);
		goto out_finalize;
	}
	app = sqlite3_column_int(st, 0);
	ver = sqlite3_column_int(st, 1);
	nobj = sqlite3_column_int(st, 2);
	rc = 0;
	if (app == STORE_APP_ID && ver > latest)
		rc = ibtopo__error_set(err, IBTOPO_EVERSION,
			"'%s': schema version %d is newer than this ibtopo supports (%d)",
			s->path, ver, latest);
	else if (app == STORE_APP_ID && ver >= 1)
		*version = ver;
	else if (app == 0 && ver == 0 && nobj == 0)
		*version = 0;
	else
		rc = ibtopo__error_set(err, IBTOPO_EPARSE,
				       "'%s': not an ibtopo database", s->path);
out_finalize:
	sqlite3_finalize(st);
	return rc;
}

/* Apply the missing migrations in one transaction. */
static int migrate(struct ibtopo_store *s, struct ibtopo_error *err)
{
	int rc, version = 0, latest = schema_latest();
	char pragma[96];

	rc = exec(s, s->db, "BEGIN IMMEDIATE", "cannot upgrade schema", err);
	if (rc)
		return rc;
	/* again under the write lock: another process may have done it */
	rc = check_header(s, s->db, &version, err);
	if (rc)
		goto out_rollback;
	for (int v = version + 1; v <= latest; v++) {
		const char *sql = NULL;
		size_t len = 0;
		char *text;

		schema_scan(v, &sql, &len);
		if (!sql) {
			rc = ibtopo__error_set(err, IBTOPO_ERROR,
					       "schema migration %d missing", v);
			goto out_rollback;
		}
		text = strndup(sql, len);
		if (!text) {
			rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
			goto out_rollback;
		}
		rc = exec(s, s->db, text, "cannot upgrade schema", err);
		free(text);
		if (rc)
			goto out_rollback;
	}
	if (version < latest) {
		snprintf(pragma, sizeof(pragma),
			 "PRAGMA application_id = %d; PRAGMA user_version = %d",
			 STORE_APP_ID, latest);
		rc = exec(s, s->db, pragma, "cannot upgrade schema", err);
		if (rc)
			goto out_rollback;
	}
	rc = exec(s, s->db, "COMMIT", "cannot upgrade schema", err);
	if (rc)
		goto out_rollback;
	s->version = latest;
	return 0;

out_rollback:
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

/* No "<path>-wal": nothing is uncommitted, the file alone is the database. */
static bool wal_absent(const char *path)
{
	char wal[4200];
	struct stat st;

	snprintf(wal, sizeof(wal), "%s-wal", path);
	return stat(wal, &st) != 0 && errno == ENOENT;
}

/*
 * A reader of a WAL database needs its -shm file, which it cannot create
 * in a directory it may not write (say /var/lib/ibtopo, written by a
 * root cron job). With no -wal file there is nothing uncommitted to see:
 * read the file as immutable. A writer checkpointing at that very moment
 * could make the read fail; it cannot make it wrong without a failure.
 */
static bool wal_unshared(const char *path)
{
	char dir[4096];

	if (!wal_absent(path))
		return false;
	dir_of(path, dir, sizeof(dir));
	return !can_write(dir);
}

/* Open read-only, without locks and without creating -wal or -shm. */
static int open_immutable(struct ibtopo_store *s, sqlite3 **out,
			  struct ibtopo_error *err)
{
	char *uri = file_uri(s->path, "?immutable=1");
	int rc;

	if (!uri)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	rc = db_open_name(s, out, uri, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI,
			  err);
	free(uri);
	return rc;
}

/*
 * Look before using: a read-write connection may checkpoint a WAL or
 * roll back a hot journal, and even a read-only one leaves -wal and -shm
 * files behind; a newer or foreign database must stay exactly as it is.
 */
static int probe(struct ibtopo_store *s, struct ibtopo_error *err)
{
	bool immutable = wal_absent(s->path);
	sqlite3 *db = NULL;
	int rc;

	if (immutable)
		rc = open_immutable(s, &db, err);
	else
		rc = db_open(s, &db, SQLITE_OPEN_READONLY, err);
	if (!rc)
		rc = check_header(s, db, &s->version, err);
	if (rc && rc != IBTOPO_EVERSION && immutable && db) {
		/*
		 * Read without locks, the pages can be torn ("database disk
		 * image is malformed") when another process started writing
		 * meanwhile: creating the file, or checkpointing its WAL
		 * into it. Look again, with locks, waiting for that writer.
		 * (Seen once in 40 concurrent imports under ASan and load.)
		 */
		sqlite3_close(db);
		db = NULL;
		rc = db_open(s, &db, SQLITE_OPEN_READONLY, err);
		if (!rc)
			rc = check_header(s, db, &s->version, err);
	}
	sqlite3_close(db);
	return rc;
}

/*
 * A reader met an older schema: migrate the file once, if this process
 * may write it (the writer of a later snapshot would do it anyway), so
 * that reading code only ever sees the current schema.
 */
static int upgrade(struct ibtopo_store *s, struct ibtopo_error *err)
{
	int rc;

	if (check_writable(s->path, NULL))
		return ibtopo__error_set(err, IBTOPO_EVERSION,
			"'%s': schema version %d is older than this ibtopo's (%d), "
			"and the file is not writable here to upgrade it (run "
			"ibtopo once as a user who can write it)", s->path,
			s->version, schema_latest());
	rc = db_open(s, &s->db, SQLITE_OPEN_READWRITE, err);
	if (!rc)
		rc = migrate(s, err);
	sqlite3_close(s->db);
	s->db = NULL;
	return rc;
}

int ibtopo_store_open(struct ibtopo_store **out, const char *path, unsigned flags,
		      struct ibtopo_error *err)
{
	struct ibtopo_store *s;
	struct stat st;
	int rc;

	if (!out || !path || !*path)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no database path");
	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
	s->path = strdup(path);
	if (!s->path) {
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free_store;
	}
	s->readonly = flags & IBTOPO_STORE_READONLY;

	if (s->readonly) {
		if (stat(path, &st) != 0) {
			if (errno == ENOENT)
				rc = ibtopo__error_set(err, IBTOPO_ENOTFOUND,
						       "no database '%s'", path);
			else
				rc = ibtopo__error_set(err, IBTOPO_EIO,
					"cannot open database '%s': %s", path,
					strerror(errno));
			goto out_free_store;
		}
		if (S_ISDIR(st.st_mode)) {
			rc = ibtopo__error_set(err, IBTOPO_EIO,
				"cannot open database '%s': is a directory", path);
			goto out_free_store;
		}
		rc = probe(s, err);
		if (!rc && s->version && s->version < schema_latest())
			rc = upgrade(s, err);
		if (rc)
			goto out_free_store;
		rc = db_open(s, &s->db, SQLITE_OPEN_READONLY, err);
		if (!rc)
			rc = check_header(s, s->db, &s->version, err);
		if (rc == IBTOPO_EIO && wal_unshared(path)) {
			sqlite3_close(s->db);
			s->db = NULL;
			rc = open_immutable(s, &s->db, err);
			if (!rc)
				rc = check_header(s, s->db, &s->version, err);
		}
		if (rc)
			goto out_close_db;
		if (s->version && s->version < schema_latest()) {
			/* another process rolled the upgrade back meanwhile */
			rc = ibtopo__error_set(err, IBTOPO_EVERSION,
				"'%s': schema version %d is older than this ibtopo's (%d)",
				path, s->version, schema_latest());
			goto out_close_db;
		}
		*out = s;
		return 0;
	}

	rc = create_file(path, err);
	if (!rc)
		rc = check_writable(path, err);
	if (!rc)
		rc = probe(s, err);
	if (rc)
		goto out_free_store;

	rc = db_open(s, &s->db, SQLITE_OPEN_READWRITE, err);
	if (rc)
		goto out_free_store;
	/* SQLite quietly opens a write-protected file read-only */
	if (sqlite3_db_readonly(s->db, "main") == 1) {
		rc = ibtopo__error_set(err, IBTOPO_EIO,
				       "database '%s' is read-only", path);
		goto out_close_db;
	}
	/* WAL: readers never block the writer; NORMAL sync is safe with it */
	rc = exec_wal(s, err);
	if (rc)
		goto out_close_db;
	if (s->version < schema_latest()) {
		rc = migrate(s, err);
		if (rc)
			goto out_close_db;
	}
	*out = s;
	return 0;

out_close_db:
	sqlite3_close(s->db);
out_free_store:
	free(s->path);
	free(s);
	return rc;
}

void ibtopo_store_free(struct ibtopo_store *store)
{
	if (!store)
		return;
	sqlite3_close(store->db);
	free(store->path);
	free(store);
}

const char *ibtopo_store_path(const struct ibtopo_store *store)
{
	return store ? store->path : NULL;
}

/* Parse a non-negative decimal; false if `s` is anything else. */
static bool parse_count(const char *s, int64_t *out)
{
	int64_t v = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > (INT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (*s - '0');
	}
	*out = v;
	return true;
}

/* ------------------------------------------------------------------ */
/* Labels                                                              */
/* ------------------------------------------------------------------ */

/* What ibtopo_store_resolve() reads as an id, `latest` or `latest~N`. */
static bool reads_as_ref(const char *ref)
{
	int64_t n;

	return parse_count(ref, &n) || strcmp(ref, "latest") == 0 ||
	       (strncmp(ref, "latest~", 7) == 0 && parse_count(ref + 7, &n));
}

#define LABEL_IDS_SHOWN 8

/*
 * The snapshots a label names, oldest first: *count of them, the first
 * LABEL_IDS_SHOWN in ids[], and ", "-separated in `list` ("3, 5, 9 and 2
 * more"). The newest is ids[*count - 1] when *count <= LABEL_IDS_SHOWN.
 */
static int label_ids(struct ibtopo_store *s, const char *label, int64_t *ids,
		     size_t *count, char *list, size_t len,
		     struct ibtopo_error *err)
{
	sqlite3_stmt *st = NULL;
	size_t n = 0, used = 0;
	int rc;

	*count = 0;
	list[0] = '\0';
	if (!s->version)
		return 0;
	rc = sqlite3_prepare_v2(s->db, "SELECT id FROM snapshots WHERE label = ?"
				" ORDER BY id", -1, &st, NULL);
	if (rc != SQLITE_OK)
		goto out_fail;
	sqlite3_bind_text(st, 1, label, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);

		if (n < LABEL_IDS_SHOWN) {
			ids[n] = id;
			used += (size_t)snprintf(list + used, used < len ? len - used : 0,
						 "%s%lld", n ? ", " : "", (long long)id);
		}
		n++;
	}
	if (rc != SQLITE_DONE)
		goto out_fail;
	sqlite3_finalize(st);
	if (n > LABEL_IDS_SHOWN && used < len)
		snprintf(list + used, len - used, " and %zu more",
			 n - LABEL_IDS_SHOWN);
	*count = n;
	return 0;

out_fail:
	rc = store_fail(s, s->db, rc, "cannot read snapshots", err);
	sqlite3_finalize(st);
	return rc;
}

int ibtopo_store_check_label(struct ibtopo_store *store, const char *label,
			     unsigned flags, struct ibtopo_error *err)
{
	int64_t ids[LABEL_IDS_SHOWN];
	char q[96], list[160];
	size_t n;
	int rc;

	if (!label || !*label)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "empty snapshot label");
	ibtopo__quote(q, sizeof(q), label, strlen(label));
	if (reads_as_ref(label))
		return ibtopo__error_set(err, IBTOPO_EINVAL,
			"label '%s' reads as a snapshot reference (an id, 'latest'"
			" or 'latest~N'), which it could never name", q);
	if (!store || (flags & IBTOPO_SAVE_MOVE_LABEL))
		return 0;
	rc = label_ids(store, label, ids, &n, list, sizeof(list), err);
	if (rc || !n)
		return rc;
	return ibtopo__error_set(err, IBTOPO_EEXIST,
				 "label '%s' names snapshot%s %s already", q,
				 n == 1 ? "" : "s", list);
}

/* ------------------------------------------------------------------ */
/* Saving                                                              */
/* ------------------------------------------------------------------ */

/* Step once, reset. Returns an SQLite code. */
static int step_reset(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, i);
}

static const char snapshot_sql[] =
	"INSERT INTO snapshots (label, taken_at, source, host, switches, cas,"
	" routers, links, partial, partial_reason, routing_engine)"
	" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

/*
 * A switch's forwarding table: one row, its entries one byte each in a
 * BLOB (rows of their own, or batches, would cost 21.5 million rows on a
 * 1,620-switch, 13,284-LID fabric).
 */
static const char lft_sql[] =
	"INSERT INTO lfts (snapshot_id, node_guid, top, ports)"
	" VALUES (?, ?, ?, ?)";

static int save_lfts(sqlite3 *db, int64_t sid,
		     const struct ibtopo_fabric *fabric)
{
	size_t nn = ibtopo_fabric_node_count(fabric);
	sqlite3_stmt *st = NULL;
	int rc;

	rc = sqlite3_prepare_v2(db, lft_sql, -1, &st, NULL);
	for (size_t i = 0; i < nn && rc == SQLITE_OK; i++) {
		const struct ibtopo_node *n = ibtopo_fabric_node(fabric, i);

		if (!n->lft)
			continue;
		sqlite3_bind_int64(st, 1, sid);
		sqlite3_bind_int64(st, 2, (sqlite3_int64)n->guid);
		sqlite3_bind_int(st, 3, n->lft->top);
		sqlite3_bind_blob(st, 4, n->lft->port, (int)n->lft->top + 1,
				  SQLITE_STATIC);
		rc = step_reset(st);
	}
	sqlite3_finalize(st);
	return rc;
}

/*
 * Rows go in many to an INSERT statement: executed once per row, a
 * statement costs SQLite more (setting up the VM, opening and closing
 * cursors, halting) than the row it writes (callgrind of bench/store.sh:
 * 16,700 instructions a row). Each table's rows are held in `cells` until
 * a statement's worth is there; the last, shorter batch gets a statement
 * of its own. Node and link ids are given rather than read back with
 * sqlite3_last_insert_rowid(), so that ports and cables can name them
 * before their batch is written.
 */
#define BATCH_VARS	999	/* most parameters before SQLite 3.32 */

enum cell_kind { CELL_NULL, CELL_INT, CELL_REAL, CELL_TEXT };

struct cell {
	enum cell_kind kind;
	sqlite3_int64 i;
	double d;
	const char *s;		/* owned by the fabric being saved */
};

struct batch {
	const char *head;	/* "INSERT INTO t (a, b, c)" */
	unsigned ncols;
	unsigned max_rows;	/* rows in `full` */
	unsigned rows;		/* rows held in cells */
	unsigned col;		/* next cell of the row being added */
	struct cell *cells;
	sqlite3_stmt *full;
};

#define BATCH_INIT(head_, ncols_) \
	{ .head = (head_), .ncols = (ncols_), \
	  .max_rows = BATCH_VARS / (ncols_) }

static int batch_prepare(sqlite3 *db, const struct batch *b, unsigned rows,
			 sqlite3_stmt **out)
{
	size_t len = strlen(b->head) + 8 + rows * (4 * b->ncols + 2);
	char *sql = malloc(len), *at;
	int rc;

	*out = NULL;
	if (!sql)
		return SQLITE_NOMEM;
	at = sql + sprintf(sql, "%s VALUES ", b->head);
	for (unsigned r = 0; r < rows; r++) {
		*at++ = r ? ',' : ' ';
		*at++ = '(';
		for (unsigned c = 0; c < b->ncols; c++)
			at += sprintf(at, c ? ", ?" : "?");
		*at++ = ')';
	}
	*at = '\0';
	rc = sqlite3_prepare_v2(db, sql, -1, out, NULL);
	free(sql);
	return rc;
}

static int batch_init(sqlite3 *db, struct batch *b)
{
	b->cells = calloc((size_t)b->max_rows * b->ncols, sizeof(*b->cells));
	if (!b->cells)
		return SQLITE_NOMEM;
	return batch_prepare(db, b, b->max_rows, &b->full);
}

static void batch_release(struct batch *b)
{
	sqlite3_finalize(b->full);
	free(b->cells);
}

/* Bind the rows held to `st` (made for exactly that many), step, reset. */
static int batch_step(struct batch *b, sqlite3_stmt *st)
{
	const struct cell *c = b->cells;
	int rc;

	for (int i = 1; i <= (int)(b->rows * b->ncols); i++, c++) {
		switch (c->kind) {
		case CELL_INT:
			sqlite3_bind_int64(st, i, c->i);
			break;
		case CELL_REAL:
			sqlite3_bind_double(st, i, c->d);
			break;
		case CELL_TEXT:
			sqlite3_bind_text(st, i, c->s, -1, SQLITE_STATIC);
			break;
		default:
			sqlite3_bind_null(st, i);
			break;
		}
	}
	b->rows = 0;
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* Write the rows held: a full batch, or the last, shorter one. */
static int batch_flush(sqlite3 *db, struct batch *b)
{
	sqlite3_stmt *st;
	int rc;

	if (!b->rows)
		return SQLITE_OK;
	if (b->rows == b->max_rows)
		return batch_step(b, b->full);
	rc = batch_prepare(db, b, b->rows, &st);
	if (rc == SQLITE_OK)
		rc = batch_step(b, st);
	sqlite3_finalize(st);
	return rc;
}

static struct cell *batch_cell(struct batch *b)
{
	struct cell *c = &b->cells[b->rows * b->ncols + b->col];

	if (++b->col == b->ncols) {
		b->col = 0;
		b->rows++;
	}
	return c;
}

static void put_int(struct batch *b, sqlite3_int64 v)
{
	struct cell *c = batch_cell(b);

	c->kind = CELL_INT;
	c->i = v;
}

static void put_real(struct batch *b, double v)
{
	struct cell *c = batch_cell(b);

	c->kind = CELL_REAL;
	c->d = v;
}

static void put_null(struct batch *b)
{
	batch_cell(b)->kind = CELL_NULL;
}

static void put_text(struct batch *b, const char *s)
{
	struct cell *c = batch_cell(b);

	c->kind = s ? CELL_TEXT : CELL_NULL;
	c->s = s;
}

/* The row just put is complete: write a batch when one is full. */
static int batch_row_done(sqlite3 *db, struct batch *b)
{
	return b->rows == b->max_rows ? batch_flush(db, b) : SQLITE_OK;
}

enum { B_NODE, B_PORT, B_LINK, B_CABLE, B_COUNTERS, B_COUNT_ };

static const char node_head[] = "INSERT INTO nodes (id, snapshot_id, type,"
	" guid, sysimg_guid, description, vendor_id, device_id, revision,"
	" nports, enhanced_port0)";
static const char port_head[] = "INSERT INTO ports (snapshot_id, node_id,"
	" num, ext_num, guid, lid, lmc, state, phys_state, width_supported,"
	" width_enabled, width_active, speed_supported, speed_enabled,"
	" speed_active, cap_mask)";
static const char link_head[] = "INSERT INTO links (id, snapshot_id, a_guid,"
	" a_port, b_guid, b_port, speed, width)";
static const char cable_head[] = "INSERT INTO cables (link_id, snapshot_id,"
	" media, length_m, rated_speed, vendor, part_number, serial)";

/* port_counters columns after the key, in enum ibtopo_counter order */
#define COUNTER_COLUMNS " symbol_errors, link_error_recovery, link_downed," \
	" rcv_errors, rcv_remote_phys_errors, rcv_switch_relay_errors," \
	" xmit_discards, xmit_constraint_errors, rcv_constraint_errors," \
	" local_link_integrity_errors, excessive_buffer_overrun_errors," \
	" vl15_dropped, xmit_wait, xmit_data, rcv_data, xmit_pkts, rcv_pkts"
static const char counters_head[] = "INSERT INTO port_counters (snapshot_id,"
	" node_guid, port, read_at_ms, extended," COUNTER_COLUMNS ")";

struct save_ctx {
	sqlite3 *db;
	int64_t sid;
	struct batch b[B_COUNT_];
};

static int save_counters(struct save_ctx *x, const struct ibtopo_node *n,
			 const struct ibtopo_port *p)
{
	const struct ibtopo_counters *c = p->counters;
	struct batch *b = &x->b[B_COUNTERS];

	put_int(b, x->sid);
	put_int(b, (sqlite3_int64)n->guid);
	put_int(b, (int)p->num);
	put_int(b, c->read_at_ms);
	put_int(b, c->extended);
	for (int i = 0; i < IBTOPO_CTR_COUNT_; i++) {
		if (c->valid & (1u << i))
			put_int(b, (sqlite3_int64)c->value[i]);
		else
			put_null(b);
	}
	return batch_row_done(x->db, b);
}

static int save_node(struct save_ctx *x, int64_t node_id,
		     const struct ibtopo_node *n)
{
	struct batch *nb = &x->b[B_NODE], *pb = &x->b[B_PORT];
	int rc;

	put_int(nb, node_id);
	put_int(nb, x->sid);
	put_int(nb, (int)n->type);
	put_int(nb, (sqlite3_int64)n->guid);
	put_int(nb, (sqlite3_int64)n->sysimg_guid);
	put_text(nb, n->desc);
	put_int(nb, n->vendor_id);
	put_int(nb, n->device_id);
	put_int(nb, n->revision);
	put_int(nb, (int)n->nports);
	put_int(nb, n->enhanced_port0);
	rc = batch_row_done(x->db, nb);
	if (rc != SQLITE_OK)
		return rc;

	for (unsigned i = 0; i <= n->nports; i++) {
		const struct ibtopo_port *p = n->ports[i];

		if (!p)
			continue;
		put_int(pb, x->sid);
		put_int(pb, node_id);
		put_int(pb, (int)p->num);
		put_int(pb, (int)p->ext_num);
		put_int(pb, (sqlite3_int64)p->guid);
		put_int(pb, p->lid);
		put_int(pb, p->lmc);
		put_int(pb, p->state);
		put_int(pb, p->phys_state);
		put_int(pb, p->width_supported);
		put_int(pb, p->width_enabled);
		put_int(pb, p->width_active);
		put_int(pb, p->speed_supported);
		put_int(pb, p->speed_enabled);
		put_int(pb, p->speed_active);
		put_int(pb, p->cap_mask);
		rc = batch_row_done(x->db, pb);
		if (rc == SQLITE_OK && p->counters)
			rc = save_counters(x, n, p);
		if (rc != SQLITE_OK)
			return rc;
	}
	return SQLITE_OK;
}

static int save_link(struct save_ctx *x, int64_t link_id,
		     const struct ibtopo_link *l)
{
	struct batch *lb = &x->b[B_LINK], *cb = &x->b[B_CABLE];
	const struct ibtopo_cable *c = l->cable;
	int rc;

	put_int(lb, link_id);
	put_int(lb, x->sid);
	put_int(lb, (sqlite3_int64)l->a->node->guid);
	put_int(lb, (int)l->a->num);
	put_int(lb, (sqlite3_int64)l->b->node->guid);
	put_int(lb, (int)l->b->num);
	put_int(lb, l->speed);
	put_int(lb, l->width);
	rc = batch_row_done(x->db, lb);
	if (rc != SQLITE_OK || !c)
		return rc;
	put_int(cb, link_id);
	put_int(cb, x->sid);
	put_int(cb, (int)c->media);
	put_real(cb, c->length_m);
	put_int(cb, (int)c->rated_speed);
	put_text(cb, c->vendor);
	put_text(cb, c->part_number);
	put_text(cb, c->serial);
	return batch_row_done(x->db, cb);
}

/* The value of `sql`, "SELECT max(id) FROM t", into *out (0 for NULL). */
static int max_id(sqlite3 *db, const char *sql, int64_t *out)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);

	if (rc == SQLITE_OK) {
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW) {
			*out = sqlite3_column_int64(st, 0);
			rc = SQLITE_OK;
		}
	}
	sqlite3_finalize(st);
	return rc;
}

/* Fill in when and where a snapshot was taken if the reader did not. */
static int fill_meta(struct ibtopo_fabric *fabric, struct ibtopo_error *err)
{
	const struct ibtopo_fabric_meta *m = ibtopo_fabric_meta(fabric);
	char host[256];

	if (!m->taken_at)
		ibtopo_fabric_set_taken_at(fabric, time(NULL));
	if (!m->host && gethostname(host, sizeof(host)) == 0) {
		host[sizeof(host) - 1] = '\0';
		return ibtopo_fabric_set_host(fabric, host, err);
	}
	return 0;
}

int ibtopo_store_save(int64_t *out_id, struct ibtopo_store *store,
		      struct ibtopo_fabric *fabric, struct ibtopo_error *err)
{
	return ibtopo_store_save_ext(out_id, store, fabric, 0, err);
}

/* Take the label from the snapshots holding it, in the open transaction. */
static int drop_label(struct ibtopo_store *s, const char *label)
{
	sqlite3_stmt *st = NULL;
	int rc;

	rc = sqlite3_prepare_v2(s->db, "UPDATE snapshots SET label = NULL"
				" WHERE label = ?", -1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_text(st, 1, label, -1, SQLITE_STATIC);
		rc = step_reset(st);
	}
	sqlite3_finalize(st);
	return rc;
}

int ibtopo_store_save_ext(int64_t *out_id, struct ibtopo_store *store,
			  struct ibtopo_fabric *fabric, unsigned flags,
			  struct ibtopo_error *err)
{
	struct save_ctx x = {
		.b = {
			[B_NODE] = BATCH_INIT(node_head, 11),
			[B_PORT] = BATCH_INIT(port_head, 16),
			[B_LINK] = BATCH_INIT(link_head, 8),
			[B_CABLE] = BATCH_INIT(cable_head, 8),
			[B_COUNTERS] = BATCH_INIT(counters_head,
						  5 + IBTOPO_CTR_COUNT_),
		},
	};
	sqlite3_stmt *st = NULL;
	const struct ibtopo_fabric_meta *m;
	const char *what = "cannot save snapshot";
	size_t nn, nl;
	int64_t node_base = 0, link_base = 0;
	int rc, src = SQLITE_OK;

	if (out_id)
		*out_id = 0;
	if (!store || !fabric)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no store or fabric");
	if (store->readonly)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "'%s': opened read-only", store->path);
	rc = fill_meta(fabric, err);
	if (rc)
		return rc;
	m = ibtopo_fabric_meta(fabric);
	nn = ibtopo_fabric_node_count(fabric);
	nl = ibtopo_fabric_link_count(fabric);
	x.db = store->db;

	rc = exec(store, store->db, "BEGIN IMMEDIATE", what, err);
	if (rc)
		return rc;
	/* checked under the write lock: a concurrent save cannot slip in */
	if (m->label) {
		rc = ibtopo_store_check_label(store, m->label, flags, err);
		if (rc)
			goto out_rollback;
		if (flags & IBTOPO_SAVE_MOVE_LABEL)
			src = drop_label(store, m->label);
	}
	if (src == SQLITE_OK)
		src = sqlite3_prepare_v2(store->db, snapshot_sql, -1, &st, NULL);
	for (int i = 0; i < B_COUNT_ && src == SQLITE_OK; i++)
		src = batch_init(store->db, &x.b[i]);
	if (src == SQLITE_OK)
		src = max_id(store->db, "SELECT max(id) FROM nodes", &node_base);
	if (src == SQLITE_OK)
		src = max_id(store->db, "SELECT max(id) FROM links", &link_base);
	if (src != SQLITE_OK)
		goto out_fail;

	bind_text(st, 1, m->label);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)m->taken_at);
	bind_text(st, 3, m->source);
	bind_text(st, 4, m->host);
	sqlite3_bind_int64(st, 5, (sqlite3_int64)
		ibtopo_fabric_count_type(fabric, IBTOPO_NODE_SWITCH));
	sqlite3_bind_int64(st, 6, (sqlite3_int64)
		ibtopo_fabric_count_type(fabric, IBTOPO_NODE_CA));
	sqlite3_bind_int64(st, 7, (sqlite3_int64)
		ibtopo_fabric_count_type(fabric, IBTOPO_NODE_ROUTER));
	sqlite3_bind_int64(st, 8, (sqlite3_int64)nl);
	sqlite3_bind_int(st, 9, m->partial);
	bind_text(st, 10, m->partial ? m->partial_reason : NULL);
	bind_text(st, 11, ibtopo_fabric_routing_engine(fabric));
	src = step_reset(st);
	if (src != SQLITE_OK)
		goto out_fail;
	x.sid = sqlite3_last_insert_rowid(store->db);

	for (size_t i = 0; i < nn && src == SQLITE_OK; i++)
		src = save_node(&x, node_base + 1 + (int64_t)i,
				ibtopo_fabric_node(fabric, i));
	for (size_t i = 0; i < nl && src == SQLITE_OK; i++)
		src = save_link(&x, link_base + 1 + (int64_t)i,
				ibtopo_fabric_link(fabric, i));
	for (int i = 0; i < B_COUNT_ && src == SQLITE_OK; i++)
		src = batch_flush(store->db, &x.b[i]);
	if (src == SQLITE_OK)
		src = save_lfts(store->db, x.sid, fabric);
	if (src != SQLITE_OK)
		goto out_fail;
	src = sqlite3_exec(store->db, "COMMIT", NULL, NULL, NULL);
	if (src != SQLITE_OK)
		goto out_fail;

	ibtopo_fabric_set_snapshot_id(fabric, x.sid);
	if (out_id)
		*out_id = x.sid;
	rc = 0;
	goto out_finalize;

out_fail:
	rc = store_fail(store, store->db, src, what, err);
out_rollback:
	sqlite3_exec(store->db, "ROLLBACK", NULL, NULL, NULL);
out_finalize:
	for (int i = 0; i < B_COUNT_; i++)
		batch_release(&x.b[i]);
	sqlite3_finalize(st);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Loading                                                             */
/* ------------------------------------------------------------------ */

struct load_ctx {
	struct ibtopo_store *s;
	struct ibtopo_fabric *f;
	int64_t sid;
	int64_t *node_ids;	/* rowids, ascending */
	struct ibtopo_node **nodes;
	size_t nnodes;
};

static char *column_text(sqlite3_stmt *st, int i)
{
	return (char *)sqlite3_column_text(st, i);
}

static int corrupt(const struct load_ctx *c, const char *what,
		   struct ibtopo_error *err)
{
	return ibtopo__error_set(err, IBTOPO_EPARSE,
				 "'%s': snapshot %lld: %s", c->s->path,
				 (long long)c->sid, what);
}

static int prepare_sid(struct load_ctx *c, sqlite3_stmt **out, const char *sql,
		       struct ibtopo_error *err)
{
	int rc = sqlite3_prepare_v2(c->s->db, sql, -1, out, NULL);

	if (rc != SQLITE_OK)
		return store_fail(c->s, c->s->db, rc, "cannot load snapshot", err);
	sqlite3_bind_int64(*out, 1, c->sid);
	return 0;
}

static int load_meta(struct load_ctx *c, struct ibtopo_error *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	rc = prepare_sid(c, &st, "SELECT label, taken_at, source, host, partial,"
			 " partial_reason, routing_engine FROM snapshots"
			 " WHERE id = ?", err);
	if (rc)
		return rc;
	rc = sqlite3_step(st);
	if (rc == SQLITE_DONE) {
		rc = ibtopo__error_set(err, IBTOPO_ENOTFOUND,
				       "no snapshot '%lld' in '%s'",
				       (long long)c->sid, c->s->path);
		goto out_finalize;
	}
	if (rc != SQLITE_ROW) {
		rc = store_fail(c->s, c->s->db, rc, "cannot load snapshot", err);
		goto out_finalize;
	}
	rc = ibtopo_fabric_set_label(c->f, column_text(st, 0), err);
	if (!rc)
		rc = ibtopo_fabric_set_source(c->f, column_text(st, 2), err);
	if (!rc)
		rc = ibtopo_fabric_set_host(c->f, column_text(st, 3), err);
	if (!rc)
		rc = ibtopo_fabric_set_partial_reason(c->f, column_text(st, 5), err);
	if (!rc)
		rc = ibtopo_fabric_set_routing_engine(c->f, column_text(st, 6),
						      err);
	ibtopo_fabric_set_taken_at(c->f, (time_t)sqlite3_column_int64(st, 1));
	ibtopo_fabric_set_partial(c->f, sqlite3_column_int(st, 4) != 0);
	ibtopo_fabric_set_snapshot_id(c->f, c->sid);
out_finalize:
	sqlite3_finalize(st);
	return rc;
}

static int load_nodes(struct load_ctx *c, struct ibtopo_error *err)
{
	sqlite3_stmt *st = NULL;
	size_t alloc = 0;
	int rc;

	rc = prepare_sid(c, &st, "SELECT id, type, guid, sysimg_guid, description,"
			 " vendor_id, device_id, revision, nports, enhanced_port0"
			 " FROM nodes WHERE snapshot_id = ? ORDER BY id", err);
	if (rc)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct ibtopo_node *n = NULL;
		sqlite3_int64 nports = sqlite3_column_int64(st, 8);

		if (c->nnodes == alloc) {
			size_t na = alloc ? 2 * alloc : 1024;
			int64_t *ids = realloc(c->node_ids, na * sizeof(*ids));
			struct ibtopo_node **ns;

			if (ids)
				c->node_ids = ids;
			ns = ids ? realloc(c->nodes, na * sizeof(*ns)) : NULL;
			if (!ns) {
				rc = ibtopo__error_set(err, IBTOPO_ENOMEM,
						       "out of memory");
				goto out_finalize;
			}
			c->nodes = ns;
			alloc = na;
		}
		if (nports < 0 || nports > 255) {
			rc = corrupt(c, "bad node port count", err);
			goto out_finalize;
		}
		rc = ibtopo_fabric_add_node(&n, c->f,
			(enum ibtopo_node_type)sqlite3_column_int(st, 1),
			(uint64_t)sqlite3_column_int64(st, 2), (unsigned)nports,
			column_text(st, 4), err);
		if (rc) {
			ibtopo__error_prefix(err, "'%s': snapshot %lld",
					     c->s->path, (long long)c->sid);
			goto out_finalize;
		}
		n->sysimg_guid = (uint64_t)sqlite3_column_int64(st, 3);
		n->vendor_id = (uint32_t)sqlite3_column_int64(st, 5);
		n->device_id = (uint32_t)sqlite3_column_int64(st, 6);
		n->revision = (uint32_t)sqlite3_column_int64(st, 7);
		n->enhanced_port0 = sqlite3_column_int(st, 9) != 0;
		c->node_ids[c->nnodes] = sqlite3_column_int64(st, 0);
		c->nodes[c->nnodes++] = n;
	}
	if (rc != SQLITE_DONE) {
		rc = store_fail(c->s, c->s->db, rc, "cannot load snapshot", err);
		goto out_finalize;
	}
	rc = 0;
out_finalize:
	sqlite3_finalize(st);
	return rc;
}

static struct ibtopo_node *node_by_rowid(const struct load_ctx *c, int64_t id)
{
	size_t lo = 0, hi = c->nnodes;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->node_ids[mid] == id)
			return c->nodes[mid];
		if (c->node_ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static int load_ports(struct load_ctx *c, struct ibtopo_error *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	rc = prepare_sid(c, &st, "SELECT node_id, num, ext_num, guid, lid, lmc,"
			 " state, phys_state, width_supported, width_enabled,"
			 " width_active, speed_supported, speed_enabled,"
			 " speed_active, cap_mask"
			 " FROM ports WHERE snapshot_id = ? ORDER BY id", err);
	if (rc)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct ibtopo_node *n = node_by_rowid(c, sqlite3_column_int64(st, 0));
		sqlite3_int64 num = sqlite3_column_int64(st, 1);
		struct ibtopo_port *p = NULL;

		if (!n || num < 0 || num > n->nports) {
			rc = corrupt(c, "port of an unknown node", err);
			goto out_finalize;
		}
		rc = ibtopo_node_add_port(&p, c->f, n, (unsigned)num, err);
		if (rc)
			goto out_finalize;
		p->ext_num = (unsigned)sqlite3_column_int(st, 2);
		p->guid = (uint64_t)sqlite3_column_int64(st, 3);
		p->lid = (uint16_t)sqlite3_column_int(st, 4);
		p->lmc = (uint8_t)sqlite3_column_int(st, 5);
		p->state = (uint8_t)sqlite3_column_int(st, 6);
		p->phys_state = (uint8_t)sqlite3_column_int(st, 7);
		p->width_supported = (uint8_t)sqlite3_column_int(st, 8);
		p->width_enabled = (uint8_t)sqlite3_column_int(st, 9);
		p->width_active = (uint8_t)sqlite3_column_int(st, 10);
		p->speed_supported = (uint16_t)sqlite3_column_int(st, 11);
		p->speed_enabled = (uint16_t)sqlite3_column_int(st, 12);
		p->speed_active = (uint16_t)sqlite3_column_int(st, 13);
		p->cap_mask = (uint32_t)sqlite3_column_int64(st, 14);
		rc = ibtopo_fabric_index_port(c->f, p, err);
		if (rc)
			goto out_finalize;
	}
	if (rc != SQLITE_DONE) {
		rc = store_fail(c->s, c->s->db, rc, "cannot load snapshot", err);
		goto out_finalize;
	}
	rc = 0;
out_finalize:
	sqlite3_finalize(st);
	return rc;
}

static struct ibtopo_port *end_port(const struct load_ctx *c, sqlite3_stmt *st,
				    int col)
{
	struct ibtopo_node *n;
	sqlite3_int64 num = sqlite3_column_int64(st, col + 1);

	n = ibtopo_fabric_find_node(c->f, (uint64_t)sqlite3_column_int64(st, col));
	if (!n || num < 0 || num > n->nports)
		return NULL;
	return n->ports[num];
}

static int load_links(struct load_ctx *c, struct ibtopo_error *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	rc = prepare_sid(c, &st, "SELECT l.a_guid, l.a_port, l.b_guid, l.b_port,"
			 " l.speed, l.width, c.link_id, c.media, c.length_m,"
			 " c.rated_speed, c.vendor, c.part_number, c.serial"
			 " FROM links l LEFT JOIN cables c ON c.link_id = l.id"
			 " WHERE l.snapshot_id = ? ORDER BY l.id", err);
	if (rc)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct ibtopo_port *a = end_port(c, st, 0), *b = end_port(c, st, 2);
		struct ibtopo_link *l = NULL;
		struct ibtopo_cable cable;

		if (!a || !b) {
			rc = corrupt(c, "link to an unknown port", err);
			goto out_finalize;
		}
		rc = ibtopo_fabric_connect(&l, c->f, a, b, err);
		if (rc) {
			ibtopo__error_prefix(err, "'%s': snapshot %lld",
					     c->s->path, (long long)c->sid);
			goto out_finalize;
		}
		/* the stored values, which a reader may have set apart from the ports' */
		l->speed = (uint16_t)sqlite3_column_int(st, 4);
		l->width = (uint8_t)sqlite3_column_int(st, 5);
		if (sqlite3_column_type(st, 6) == SQLITE_NULL)
			continue;
		memset(&cable, 0, sizeof(cable));
		cable.media = (enum ibtopo_media)sqlite3_column_int(st, 7);
		cable.length_m = sqlite3_column_double(st, 8);
		cable.rated_speed = (unsigned)sqlite3_column_int(st, 9);
		cable.vendor = column_text(st, 10);
		cable.part_number = column_text(st, 11);
		cable.serial = column_text(st, 12);
		rc = ibtopo_link_set_cable(c->f, l, &cable, err);
		if (rc)
			goto out_finalize;
	}
	if (rc != SQLITE_DONE) {
		rc = store_fail(c->s, c->s->db, rc, "cannot load snapshot", err);
		goto out_finalize;
	}
	rc = 0;
out_finalize:
	sqlite3_finalize(st);
	return rc;
}

static int load_counters(struct load_ctx *c, struct ibtopo_error *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	rc = prepare_sid(c, &st, "SELECT node_guid, port, read_at_ms, extended,"
			 COUNTER_COLUMNS " FROM port_counters"
			 " WHERE snapshot_id = ?", err);
	if (rc)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct ibtopo_port *p = end_port(c, st, 0);
		struct ibtopo_counters k;

		if (!p) {
			rc = corrupt(c, "counters of an unknown port", err);
			goto out_finalize;
		}
		memset(&k, 0, sizeof(k));
		k.read_at_ms = sqlite3_column_int64(st, 2);
		k.extended = (uint32_t)sqlite3_column_int64(st, 3);
		for (int i = 0; i < IBTOPO_CTR_COUNT_; i++) {
			if (sqlite3_column_type(st, 4 + i) == SQLITE_NULL)
				continue;
			k.value[i] = (uint64_t)sqlite3_column_int64(st, 4 + i);
			k.valid |= 1u << i;
		}
		rc = ibtopo_port_set_counters(p, &k, err);
		if (rc)
			goto out_finalize;
	}
	if (rc != SQLITE_DONE) {
		rc = store_fail(c->s, c->s->db, rc, "cannot load snapshot", err);
		goto out_finalize;
	}
	rc = 0;
out_finalize:
	sqlite3_finalize(st);
	return rc;
}

static int load_lfts(struct load_ctx *c, struct ibtopo_error *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	rc = prepare_sid(c, &st, "SELECT node_guid, top, ports FROM lfts"
			 " WHERE snapshot_id = ?", err);
	if (rc)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct ibtopo_node *n = ibtopo_fabric_find_node(c->f,
			(uint64_t)sqlite3_column_int64(st, 0));
		sqlite3_int64 top = sqlite3_column_int64(st, 1);
		const void *ports = sqlite3_column_blob(st, 2);

		if (!n || n->type != IBTOPO_NODE_SWITCH) {
			rc = corrupt(c, "a forwarding table of an unknown switch",
				     err);
			goto out_finalize;
		}
		if (top < 0 || top > IBTOPO_LFT_MAX_LID || !ports ||
		    sqlite3_column_bytes(st, 2) != top + 1) {
			rc = corrupt(c, "a forwarding table of the wrong size",
				     err);
			goto out_finalize;
		}
		rc = ibtopo_node_set_lft(n, ports, (unsigned)top, err);
		if (rc)
			goto out_finalize;
	}
	if (rc != SQLITE_DONE) {
		rc = store_fail(c->s, c->s->db, rc, "cannot load snapshot", err);
		goto out_finalize;
	}
	rc = 0;
out_finalize:
	sqlite3_finalize(st);
	return rc;
}

int ibtopo_store_load(struct ibtopo_fabric **out, struct ibtopo_store *store,
		      int64_t id, struct ibtopo_error *err)
{
	struct load_ctx c = { .s = store, .sid = id };
	int rc;

	if (!out || !store)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no store to load from");
	*out = NULL;
	if (!store->version)	/* empty file: no tables yet */
		return ibtopo__error_set(err, IBTOPO_ENOTFOUND,
					 "no snapshot '%lld' in '%s'",
					 (long long)id, store->path);
	rc = ibtopo_fabric_new(&c.f, err);
	if (rc)
		return rc;
	/* one read transaction: a consistent view while writers go on */
	rc = exec(store, store->db, "BEGIN", "cannot load snapshot", err);
	if (rc)
		goto out_free_fabric;
	rc = load_meta(&c, err);
	if (!rc)
		rc = load_nodes(&c, err);
	if (!rc)
		rc = load_ports(&c, err);
	if (!rc)
		rc = load_links(&c, err);
	if (!rc)
		rc = load_counters(&c, err);
	if (!rc)
		rc = load_lfts(&c, err);
	sqlite3_exec(store->db, "COMMIT", NULL, NULL, NULL);
	if (rc)
		goto out_free_fabric;
	ibtopo_fabric_sort(c.f);
	*out = c.f;
	c.f = NULL;
out_free_fabric:
	ibtopo_fabric_free(c.f);
	free(c.node_ids);
	free(c.nodes);
	return rc;
}

/* ------------------------------------------------------------------ */
/* References and listing                                              */
/* ------------------------------------------------------------------ */

/* Run a query yielding at most one id; *found tells whether it did. */
static int query_id(struct ibtopo_store *s, const char *sql, const char *text,
		    int64_t arg, int64_t *out, bool *found,
		    struct ibtopo_error *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*found = false;
	rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		goto out_fail;
	if (text)
		sqlite3_bind_text(st, 1, text, -1, SQLITE_STATIC);
	else
		sqlite3_bind_int64(st, 1, arg);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*out = sqlite3_column_int64(st, 0);
		*found = true;
	} else if (rc != SQLITE_DONE) {
		goto out_fail;
	}
	sqlite3_finalize(st);
	return 0;

out_fail:
	rc = store_fail(s, s->db, rc, "cannot read snapshots", err);
	sqlite3_finalize(st);
	return rc;
}

int ibtopo_store_resolve(int64_t *out, struct ibtopo_store *store, const char *ref,
			 struct ibtopo_error *err)
{
	char q[96];
	bool found = false;
	int64_t n = 0, any;
	int rc;

	if (!out || !store || !ref || !*ref)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "empty snapshot reference");
	*out = 0;
	if (store->version) {
		rc = query_id(store, "SELECT id FROM snapshots LIMIT ?", NULL, 1,
			      &any, &found, err);
		if (rc)
			return rc;
	}
	if (!found)
		return ibtopo__error_set(err, IBTOPO_ENOTFOUND,
					 "no snapshots in '%s'", store->path);
	found = false;
	if (parse_count(ref, &n)) {
		rc = query_id(store, "SELECT id FROM snapshots WHERE id = ?", NULL,
			      n, out, &found, err);
		if (rc || found)
			return rc;
	}
	if (strcmp(ref, "latest") == 0 ||
	    (strncmp(ref, "latest~", 7) == 0 && parse_count(ref + 7, &n))) {
		rc = query_id(store, "SELECT id FROM snapshots ORDER BY id DESC"
			      " LIMIT 1 OFFSET ?", NULL, ref[6] ? n : 0, out,
			      &found, err);
		if (rc || found)
			return rc;
	} else {
		int64_t ids[LABEL_IDS_SHOWN];
		char list[160];
		size_t count;

		rc = label_ids(store, ref, ids, &count, list, sizeof(list), err);
		if (rc)
			return rc;
		ibtopo__quote(q, sizeof(q), ref, strlen(ref));
		if (count > 1)
			/* an older ibtopo let a label name several snapshots */
			return ibtopo__error_set(err, IBTOPO_EAMBIGUOUS,
				"label '%s' names snapshots %s: give an id", q,
				list);
		if (count == 1) {
			*out = ids[0];
			return 0;
		}
	}
	ibtopo__quote(q, sizeof(q), ref, strlen(ref));
	return ibtopo__error_set(err, IBTOPO_ENOTFOUND, "no snapshot '%s' in '%s'",
				 q, store->path);
}

static char *dup_column(sqlite3_stmt *st, int i, bool *oom)
{
	const char *s = column_text(st, i);
	char *copy;

	if (!s)
		return NULL;
	copy = strdup(s);
	if (!copy)
		*oom = true;
	return copy;
}

int ibtopo_store_list(struct ibtopo_snapshot **out, size_t *out_count,
		      struct ibtopo_store *store, struct ibtopo_error *err)
{
	struct ibtopo_snapshot *list = NULL;
	size_t n = 0, alloc = 0;
	sqlite3_stmt *st = NULL;
	bool oom = false;
	int rc;

	if (!out || !out_count || !store)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no store to list");
	*out = NULL;
	*out_count = 0;
	if (!store->version)
		return 0;
	rc = sqlite3_prepare_v2(store->db, "SELECT id, label, taken_at, source,"
				" host, switches, cas, routers, links, partial,"
				" partial_reason FROM snapshots ORDER BY id", -1,
				&st, NULL);
	if (rc != SQLITE_OK)
		goto out_fail;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct ibtopo_snapshot *s;

		if (n == alloc) {
			size_t na = alloc ? 2 * alloc : 16;
			struct ibtopo_snapshot *nl = realloc(list, na * sizeof(*nl));

			if (!nl) {
				oom = true;
				break;
			}
			list = nl;
			alloc = na;
		}
		s = &list[n++];
		memset(s, 0, sizeof(*s));
		s->id = sqlite3_column_int64(st, 0);
		s->label = dup_column(st, 1, &oom);
		s->taken_at = (time_t)sqlite3_column_int64(st, 2);
		s->source = dup_column(st, 3, &oom);
		s->host = dup_column(st, 4, &oom);
		s->switches = (size_t)sqlite3_column_int64(st, 5);
		s->cas = (size_t)sqlite3_column_int64(st, 6);
		s->routers = (size_t)sqlite3_column_int64(st, 7);
		s->links = (size_t)sqlite3_column_int64(st, 8);
		s->partial = sqlite3_column_int(st, 9) != 0;
		s->partial_reason = dup_column(st, 10, &oom);
		if (oom)
			break;
	}
	if (oom) {
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free_list;
	}
	if (rc != SQLITE_DONE)
		goto out_fail;
	sqlite3_finalize(st);
	*out = list;
	*out_count = n;
	return 0;

out_fail:
	rc = store_fail(store, store->db, rc, "cannot list snapshots", err);
out_free_list:
	sqlite3_finalize(st);
	ibtopo_snapshot_list_free(list, n);
	return rc;
}

void ibtopo_snapshot_list_free(struct ibtopo_snapshot *list, size_t count)
{
	for (size_t i = 0; list && i < count; i++) {
		free(list[i].label);
		free(list[i].source);
		free(list[i].host);
		free(list[i].partial_reason);
	}
	free(list);
}

int ibtopo_store_delete(struct ibtopo_store *store, int64_t id,
			struct ibtopo_error *err)
{
	static const char *const sql[] = {
		"DELETE FROM port_counters WHERE snapshot_id = ?",
		"DELETE FROM lfts WHERE snapshot_id = ?",
		"DELETE FROM cables WHERE snapshot_id = ?",
		"DELETE FROM links WHERE snapshot_id = ?",
		"DELETE FROM ports WHERE snapshot_id = ?",
		"DELETE FROM nodes WHERE snapshot_id = ?",
		"DELETE FROM snapshots WHERE id = ?",
	};
	const char *what = "cannot delete snapshot";
	sqlite3_stmt *st = NULL;
	int rc, src = SQLITE_OK;

	if (!store)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no store");
	if (store->readonly)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "'%s': opened read-only", store->path);
	rc = exec(store, store->db, "BEGIN IMMEDIATE", what, err);
	if (rc)
		return rc;
	for (size_t i = 0; i < IBTOPO__ARRAY_SIZE(sql) && src == SQLITE_OK; i++) {
		src = sqlite3_prepare_v2(store->db, sql[i], -1, &st, NULL);
		if (src == SQLITE_OK) {
			sqlite3_bind_int64(st, 1, id);
			src = step_reset(st);
		}
		sqlite3_finalize(st);
		st = NULL;
	}
	if (src != SQLITE_OK) {
		rc = store_fail(store, store->db, src, what, err);
		goto out_rollback;
	}
	if (sqlite3_changes(store->db) == 0) {
		rc = ibtopo__error_set(err, IBTOPO_ENOTFOUND,
				       "no snapshot '%lld' in '%s'",
				       (long long)id, store->path);
		goto out_rollback;
	}
	src = sqlite3_exec(store->db, "COMMIT", NULL, NULL, NULL);
	if (src != SQLITE_OK) {
		rc = store_fail(store, store->db, src, what, err);
		goto out_rollback;
	}
	return 0;

out_rollback:
	sqlite3_exec(store->db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

static int first_value(void *arg, int ncols, char **values, char **names)
{
	int64_t *out = arg;

	(void)names;
	if (out && ncols > 0 && values[0])
		*out = strtoll(values[0], NULL, 10);
	return 0;
}

int ibtopo__store_exec_path(const char *path, const char *sql, int64_t *out,
			    struct ibtopo_error *err)
{
	struct ibtopo_store s = { .path = (char *)path };
	sqlite3 *db = NULL;
	int rc;

	rc = db_open(&s, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, err);
	if (rc)
		return rc;
	rc = sqlite3_exec(db, sql, first_value, out, NULL);
	if (rc != SQLITE_OK)
		rc = store_fail(&s, db, rc, "cannot execute", err);
	sqlite3_close(db);
	return rc;
}

/* --------------------------------------------------------- housekeeping */

/*
 * Which snapshots ibtopo_store_prune() deletes, from the list (oldest
 * first, by id): those beyond the `keep` newest or taken before
 * `before`, but never the newest snapshot (what 'latest' names) nor the
 * newest of a label.
 */
static bool prune_protected(const struct ibtopo_snapshot *list, size_t count,
			    size_t i)
{
	if (i + 1 == count)
		return true;
	if (!list[i].label)
		return false;
	for (size_t j = i + 1; j < count; j++)
		if (list[j].label && strcmp(list[j].label, list[i].label) == 0)
			return false;
	return true;
}

int ibtopo_store_prune(int64_t **out_ids, size_t *out_count,
		       struct ibtopo_store *store, size_t keep, time_t before,
		       struct ibtopo_error *err)
{
	struct ibtopo_snapshot *list = NULL;
	int64_t *ids = NULL;
	size_t count = 0, n = 0;
	int rc;

	if (out_ids)
		*out_ids = NULL;
	if (out_count)
		*out_count = 0;
	if (!store)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no store");
	rc = ibtopo_store_list(&list, &count, store, err);
	if (rc)
		return rc;
	ids = calloc(count ? count : 1, sizeof(*ids));
	if (!ids) {
		rc = ibtopo__error_set(err, IBTOPO_ENOMEM, "out of memory");
		goto out_free_list;
	}
	for (size_t i = 0; i < count; i++) {
		bool beyond = keep && count - i > keep;
		bool old = before && list[i].taken_at < before;

		if ((beyond || old) && !prune_protected(list, count, i))
			ids[n++] = list[i].id;
	}
	for (size_t i = 0; i < n && !rc; i++) {
		rc = ibtopo_store_delete(store, ids[i], err);
		if (rc)
			n = i;	/* what was deleted before the failure */
	}
	if (out_count)
		*out_count = n;
	if (out_ids && n) {
		*out_ids = ids;
		ids = NULL;
	}
	free(ids);
out_free_list:
	ibtopo_snapshot_list_free(list, count);
	return rc;
}

int ibtopo_store_vacuum(struct ibtopo_store *store, struct ibtopo_error *err)
{
	int rc;

	if (!store)
		return ibtopo__error_set(err, IBTOPO_EINVAL, "no store");
	if (store->readonly)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "'%s': opened read-only", store->path);
	rc = exec(store, store->db, "VACUUM", "cannot vacuum", err);
	/* give the WAL back to the main file, so the file shrinks now */
	if (rc == 0)
		rc = exec(store, store->db, "PRAGMA wal_checkpoint(TRUNCATE)",
			  "cannot checkpoint", err);
	return rc;
}
