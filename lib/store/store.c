/*
 * store.c - fabric snapshots in SQLite: opening a database, its schema
 * and migrations, and the helpers the other store files share
 * (store-db.h lists them). Only the store's files include <sqlite3.h>.
 *
 * The schema is data/schema.sql, compiled in as a string at build time
 * (lib/schema-sql.h) so the library works uninstalled. Its "-- @version N"
 * lines split it into migrations; PRAGMA user_version records the last one
 * a database has, PRAGMA application_id marks the file as ours.
 */
#include "store/store-db.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define STORE_APP_ID 0x49425450 /* "IBTP" */
#define STORE_BUSY_TIMEOUT_MS 10000

static const char schema_sql[] =
#include "lib/schema-sql.h"
	;

static const char version_mark[] = "-- @version ";

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
int ibtopo__store_fail(const struct ibtopo_store *s, sqlite3 *db, int rc,
		       const char *what, struct ibtopo_error *err)
{
	if ((rc & 0xff) == SQLITE_NOTADB)
		return ibtopo__error_set(err, IBTOPO_EPARSE,
					 "'%s': not an ibtopo database",
					 s->path);
	return ibtopo__error_set(err, sql_status(rc), "'%s': %s: %s", s->path,
				 what,
				 db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
}

static int store_rows(sqlite3_stmt *st, size_t size,
		      int (*row)(void *elem, sqlite3_stmt *st), char **out,
		      size_t *count, struct ibtopo_error *err)
{
	size_t alloc = 0;
	int rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char *elem;

		if (ibtopo__grow(out, &alloc, *count + 1, size))
			return ibtopo__error_set(err, IBTOPO_ENOMEM,
						 "out of memory");
		elem = *out + *count * size;
		memset(elem, 0, size);
		++*count;
		if (row(elem, st))
			return ibtopo__error_set(err, IBTOPO_ENOMEM,
						 "out of memory");
	}
	return rc == SQLITE_DONE ? 0 : rc;
}

int ibtopo__store_rows(struct ibtopo_store *s, const char *sql,
		       const int64_t *params, int nparams, size_t size,
		       int (*row)(void *elem, sqlite3_stmt *st),
		       void (*release)(void *elem), void *list, size_t *count,
		       const char *what, struct ibtopo_error *err)
{
	char **out = list;
	sqlite3_stmt *st = NULL;
	int rc;

	if (!s || !out || !count)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "no store to list");
	*out = NULL;
	*count = 0;
	if (!s->version)
		return 0;
	rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
	for (int i = 0; rc == SQLITE_OK && i < nparams; i++)
		rc = sqlite3_bind_int64(st, i + 1, params[i]);
	if (rc == SQLITE_OK)
		rc = store_rows(st, size, row, out, count, err);
	if (rc > 0)
		rc = ibtopo__store_fail(s, s->db, rc, what, err);
	sqlite3_finalize(st);
	if (rc) {
		for (size_t i = 0; i < *count; i++)
			release(*out + i * size);
		free(*out);
		*out = NULL;
		*count = 0;
	}
	return rc;
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
			return ibtopo__error_set(
				err, IBTOPO_EINVAL,
				"no database path: give --db or set IBTOPO_DB or HOME");
		n = snprintf(buf, len, "%s/.local/share/ibtopo/fabric.db",
			     home);
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
		goto out_free_dir; /* cwd or root */
	*slash = '\0';
	if (stat(dir, &st) == 0)
		goto out_free_dir;
	for (char *p = dir + 1;; p++) {
		char c = *p;

		if (c != '/' && c != '\0')
			continue;
		*p = '\0';
		if (stat(dir, &st) != 0 && mkdir(dir, 0700) != 0 &&
		    errno != EEXIST) {
			rc = ibtopo__error_set(
				err, IBTOPO_EIO,
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

/* Without NO_MKDIR's folders made for it: a missing folder is named. */
static int need_parent(const char *path, struct ibtopo_error *err)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');
	struct stat st;

	if (!slash || slash == path)
		return 0;
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	if (stat(dir, &st) == 0)
		return 0;
	return ibtopo__error_set(err, IBTOPO_EIO,
				 "cannot create database '%s': no folder "
				 "'%s' (%s)",
				 path, dir, strerror(errno));
}

/* Root creating the database in a folder someone else owns (a service's
 * /var/lib/ibtopo): the file is theirs, so the service can open it. */
static void give_to_folder_owner(int fd, const char *path)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');
	struct stat st;

	if (geteuid() != 0)
		return;
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s",
			 slash == path ? 1 : (int)(slash - path), path);
	if (stat(dir, &st) == 0 && st.st_uid != 0 &&
	    fchown(fd, st.st_uid, st.st_gid) != 0) {
		/* then it stays root's: root can open it all the same */
	}
}

/*
 * Create the database file ourselves so that it is born 0600 whatever
 * the umask: SQLite would create it 0644. SQLite gives the -wal and -shm
 * files the database's permissions (and, as root, its owner).
 */
static int create_file(const char *path, unsigned flags,
		       struct ibtopo_error *err)
{
	struct stat st;
	int fd, rc;

	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return ibtopo__error_set(
				err, IBTOPO_EIO,
				"cannot open database '%s': is a directory",
				path);
		return 0;
	}
	rc = flags & IBTOPO_STORE_NO_MKDIR ? need_parent(path, err) :
					     make_parents(path, err);
	if (rc)
		return rc;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 && errno != EEXIST) /* EEXIST: another writer won */
		return ibtopo__error_set(err, IBTOPO_EIO,
					 "cannot create database '%s': %s",
					 path, strerror(errno));
	if (fd >= 0) {
		give_to_folder_owner(fd, path);
		close(fd);
	}
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
						 "database '%s' is read-only",
						 path);
		return ibtopo__error_set(err, IBTOPO_EIO,
					 "cannot write database '%s': %s", path,
					 strerror(errno));
	}
	dir_of(path, dir, sizeof(dir));
	/* SQLite creates the -wal and -shm files beside the database */
	if (!can_write(dir))
		return ibtopo__error_set(
			err, IBTOPO_EIO,
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

static int db_open_name(struct ibtopo_store *s, sqlite3 **out, const char *name,
			int flags, struct ibtopo_error *err)
{
	sqlite3 *db = NULL;
	int rc;

	/* NOMUTEX: a store (and its connection) is used by one thread at a
	 * time; SQLite's own lock around every call (column reads
	 * included) cost 8 % of loading a snapshot */
	rc = sqlite3_open_v2(name, &db, flags | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		rc = ibtopo__store_fail(s, db, rc, "cannot open database", err);
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

int ibtopo__store_exec(struct ibtopo_store *s, const char *sql,
		       const char *what, struct ibtopo_error *err)
{
	int rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);

	if (rc != SQLITE_OK)
		return ibtopo__store_fail(s, s->db, rc, what, err);
	return 0;
}

int ibtopo__store_step_reset(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int ibtopo__store_insert_each(
	sqlite3 *db, const char *sql, int64_t sid, size_t n,
	int (*bind)(sqlite3_stmt *st, void *ctx, size_t i), void *ctx)
{
	sqlite3_stmt *st = NULL;
	int rc = SQLITE_OK;

	for (size_t i = 0; i < n && rc == SQLITE_OK; i++) {
		if (!st)
			rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
		if (rc != SQLITE_OK)
			break;
		sqlite3_bind_int64(st, 1, sid);
		rc = bind(st, ctx, i);
		if (rc == IBTOPO__STORE_SKIP)
			rc = SQLITE_OK;
		else if (rc == SQLITE_OK)
			rc = ibtopo__store_step_reset(st);
	}
	sqlite3_finalize(st);
	return rc;
}

int ibtopo__store_check_rw(const struct ibtopo_store *s,
			   struct ibtopo_error *err)
{
	if (s->readonly)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "'%s': opened read-only", s->path);
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
			     waited < STORE_BUSY_TIMEOUT_MS;
	     waited += 10) {
		sqlite3_sleep(10);
		rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);
	}
	if (rc != SQLITE_OK)
		return ibtopo__store_fail(s, s->db, rc, "cannot write database",
					  err);
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
		rc = ibtopo__store_fail(s, db, rc, "cannot read database", err);
		goto out_finalize;
	}
	app = sqlite3_column_int(st, 0);
	ver = sqlite3_column_int(st, 1);
	nobj = sqlite3_column_int(st, 2);
	rc = 0;
	if (app == STORE_APP_ID && ver > latest)
		rc = ibtopo__error_set(
			err, IBTOPO_EVERSION,
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

	rc = ibtopo__store_exec(s, "BEGIN IMMEDIATE", "cannot upgrade schema",
				err);
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
					       "schema migration %d missing",
					       v);
			goto out_rollback;
		}
		text = strndup(sql, len);
		if (!text) {
			rc = ibtopo__error_set(err, IBTOPO_ENOMEM,
					       "out of memory");
			goto out_rollback;
		}
		rc = ibtopo__store_exec(s, text, "cannot upgrade schema", err);
		free(text);
		if (rc)
			goto out_rollback;
	}
	if (version < latest) {
		snprintf(pragma, sizeof(pragma),
			 "PRAGMA application_id = %d; PRAGMA user_version = %d",
			 STORE_APP_ID, latest);
		rc = ibtopo__store_exec(s, pragma, "cannot upgrade schema",
					err);
		if (rc)
			goto out_rollback;
	}
	rc = ibtopo__store_exec(s, "COMMIT", "cannot upgrade schema", err);
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
		return ibtopo__error_set(
			err, IBTOPO_EVERSION,
			"'%s': schema version %d is older than this ibtopo's (%d), "
			"and the file is not writable here to upgrade it (run "
			"ibtopo once as a user who can write it)",
			s->path, s->version, schema_latest());
	rc = db_open(s, &s->db, SQLITE_OPEN_READWRITE, err);
	if (!rc)
		rc = migrate(s, err);
	sqlite3_close(s->db);
	s->db = NULL;
	return rc;
}

int ibtopo_store_open(struct ibtopo_store **out, const char *path,
		      unsigned flags, struct ibtopo_error *err)
{
	struct ibtopo_store *s;
	struct stat st;
	int rc;

	if (!out || !path || !*path)
		return ibtopo__error_set(err, IBTOPO_EINVAL,
					 "no database path");
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
						       "no database '%s'",
						       path);
			else
				rc = ibtopo__error_set(
					err, IBTOPO_EIO,
					"cannot open database '%s': %s", path,
					strerror(errno));
			goto out_free_store;
		}
		if (S_ISDIR(st.st_mode)) {
			rc = ibtopo__error_set(
				err, IBTOPO_EIO,
				"cannot open database '%s': is a directory",
				path);
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
			rc = ibtopo__error_set(
				err, IBTOPO_EVERSION,
				"'%s': schema version %d is older than this ibtopo's (%d)",
				path, s->version, schema_latest());
			goto out_close_db;
		}
		*out = s;
		return 0;
	}

	rc = create_file(path, flags, err);
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

/* ------------------------------------------------------------------ */
/* For tests: SQL on a file, without the schema checks                 */
/* ------------------------------------------------------------------ */

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
		rc = ibtopo__store_fail(&s, db, rc, "cannot execute", err);
	sqlite3_close(db);
	return rc;
}

/* The rows of a snapshot, or of a fabric's snapshots: store_snapshots.c
 * and store_fabrics.c both delete them. */
int ibtopo__store_delete_rows(sqlite3 *db, bool fabric, int64_t id,
			      int *deleted)
{
	static const char *const tables[] = {
		"port_counters", "lfts",  "guid_clashes",  "sms",
		"firmware",	 "mfts",  "mcast_members", "cables",
		"links",	 "ports", "nodes",
	};
	char sql[160];
	sqlite3_stmt *st = NULL;
	int src = SQLITE_OK;

	*deleted = 0;
	for (size_t i = 0; i <= IBTOPO__ARRAY_SIZE(tables) && src == SQLITE_OK;
	     i++) {
		if (i == IBTOPO__ARRAY_SIZE(tables))
			snprintf(sql, sizeof(sql),
				 "DELETE FROM snapshots WHERE %s = ?",
				 fabric ? "fabric_id" : "id");
		else if (fabric)
			snprintf(sql, sizeof(sql),
				 "DELETE FROM %s WHERE snapshot_id IN (SELECT "
				 "id FROM snapshots WHERE fabric_id = ?)",
				 tables[i]);
		else
			snprintf(sql, sizeof(sql),
				 "DELETE FROM %s WHERE snapshot_id = ?",
				 tables[i]);
		src = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
		if (src == SQLITE_OK) {
			sqlite3_bind_int64(st, 1, id);
			src = ibtopo__store_step_reset(st);
		}
		sqlite3_finalize(st);
		st = NULL;
	}
	if (src == SQLITE_OK)
		*deleted = sqlite3_changes(db);
	return src;
}
