#!/usr/bin/env python3
"""Kill `ibtopo import` at random moments; check no snapshot is lost.

  rel-killimport.py IBTOPO DB FILE KILLS [SEED]

Times three whole imports of FILE into DB (they also give the later kills
snapshots to lose), then starts imports until KILLS of them have been
killed: each is stopped (SIGSTOP) after a delay drawn uniformly from
[0, T), T the median import time, and killed (SIGKILL) there; one that
ended before its delay is counted apart. While an import is stopped, its
file descriptors and /proc/locks say where it was: without the database
open (before opening it, or after closing it), with it open, or inside a
write transaction (it holds the WAL write lock, byte 120 of the -shm
file). After most imports `ibtopo snapshots` lists the database; every
fourth goes unchecked, so that the next import is the first to open the
database the killed one left. Halfway, one more whole import. Asserts:
every listed snapshot stays listed; no check sees more new snapshots than
the imports started since the last one; no import fails other than by
its kill.

Prints one line per kill on stderr and a summary on stdout; exits 1 on a
violated assertion, 2 on trouble running the commands.
"""
import os
import random
import signal
import subprocess
import sys
import time


def die(msg, code=1):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(code)


def run_import(ibtopo, db, path, label):
    t0 = time.monotonic()
    r = subprocess.run([ibtopo, "--db", db, "import", "--label", label, path],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if r.returncode != 0:
        die("import %s: %s" % (label, r.stderr.decode(errors="replace")), 2)
    return time.monotonic() - t0


def snapshot_ids(ibtopo, db):
    r = subprocess.run([ibtopo, "--db", db, "snapshots", "--format", "csv"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode != 0:
        die("snapshots after a kill: %s" % r.stderr.decode(errors="replace"))
    lines = r.stdout.decode().splitlines()[1:]
    return set(int(l.split(",", 1)[0]) for l in lines if l)


def wait_stopped(pid):
    """True once pid is stopped, False if it exited first."""
    for _ in range(2000):
        try:
            with open("/proc/%d/stat" % pid) as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            return False
        if state in ("T", "t"):
            return True
        if state in ("Z", "X"):
            return False
        time.sleep(0.001)
    die("import %d did not stop" % pid, 2)


def where(pid, db):
    """Where the stopped import is: 'not-open', 'open' or 'txn'."""
    shm_ino = None
    opened = False
    fddir = "/proc/%d/fd" % pid
    for fd in os.listdir(fddir):
        try:
            target = os.readlink(os.path.join(fddir, fd))
        except OSError:
            continue
        if target == db:
            opened = True
        elif target == db + "-shm":
            shm_ino = os.stat(os.path.join(fddir, fd)).st_ino
    if not opened:
        return "not-open"
    if shm_ino is not None:
        with open("/proc/locks") as f:
            for line in f:
                w = line.split()
                # "1: POSIX ADVISORY WRITE PID MAJ:MIN:INODE START END"
                if len(w) >= 8 and w[1] == "POSIX" and w[3] == "WRITE" and \
                   w[4] == str(pid) and w[5].rsplit(":", 1)[1] == str(shm_ino) \
                   and w[6] == "120":
                    return "txn"
    return "open"


def main():
    if len(sys.argv) not in (5, 6):
        die(__doc__.split("\n")[2].strip(), 2)
    ibtopo, db, path = sys.argv[1:4]
    kills = int(sys.argv[4])
    seed = int(sys.argv[5]) if len(sys.argv) == 6 else random.randrange(1 << 30)
    rng = random.Random(seed)
    db = os.path.realpath(db)
    print("# seed %d (REL_SEED=%d reproduces the delays)" % (seed, seed),
          file=sys.stderr)

    times = sorted(run_import(ibtopo, db, path, "whole%d" % i) for i in range(3))
    T = times[1]
    print("# one import: %.3f s (median of %s)" %
          (T, ", ".join("%.3f" % t for t in times)), file=sys.stderr)
    known = snapshot_ids(ibtopo, db)
    if len(known) != 3:
        die("3 whole imports left %d snapshots" % len(known))

    stats = {"not-open": 0, "open": 0, "txn": 0}
    delivered = exited = stored = unchecked = 0
    # checked kills with no other import since the last check:
    # state -> [left the count unchanged, stored their snapshot]
    outcome = {"not-open": [0, 0], "open": [0, 0], "txn": [0, 0]}
    pending = 0        # imports started since the last check
    pending_where = []
    middle = False
    errfile = db + ".import-stderr"
    k = 0
    # an import that ends before its kill is no kill: try again, up to
    # three times as many imports as kills wanted
    while delivered < kills and k < 3 * kills:
        k += 1
        if not middle and delivered >= kills // 2:
            run_import(ibtopo, db, path, "middle")
            middle = True
            pending += 1
        delay = rng.uniform(0, T)
        with open(errfile, "wb") as err:
            p = subprocess.Popen([ibtopo, "--db", db, "import", "--label",
                                  "kill%d" % k, path],
                                 stdout=subprocess.DEVNULL, stderr=err)
        time.sleep(delay)
        state = "exited"
        try:
            os.kill(p.pid, signal.SIGSTOP)
            if wait_stopped(p.pid):
                state = where(p.pid, db)
            os.kill(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        rc = p.wait()
        if rc == -signal.SIGKILL:
            delivered += 1
            stats[state] += 1
        elif rc == 0:
            exited += 1
            state = "ended"
        else:
            with open(errfile, "rb") as err:
                msg = err.read().decode(errors="replace").strip()
            die("import %d (after %d kills) exited %d: %s" %
                (k, delivered, rc, msg))
        pending += 1
        pending_where.append(state)
        if k % 4 == 0 and delivered < kills:
            unchecked += 1
            print("# import %2d, stopped at %.3f s: %s, not checked" %
                  (k, delay, state), file=sys.stderr)
            continue
        ids = snapshot_ids(ibtopo, db)
        lost = known - ids
        if lost:
            die("import %d lost snapshots %s" % (k, sorted(lost)))
        new = ids - known
        if len(new) > pending:
            die("import %d: %d new snapshots from %d imports" %
                (k, len(new), pending))
        if pending == 1 and state in outcome:
            outcome[state][1 if new else 0] += 1
        stored += len(new)
        print("# import %2d, stopped at %.3f s: %s, %d new snapshot(s)" %
              (k, delay, ",".join(pending_where), len(new)), file=sys.stderr)
        known = ids
        pending = 0
        pending_where = []
    os.unlink(errfile)
    if delivered < kills:
        die("only %d kills in %d imports: most ended before their kill" %
            (delivered, k))

    print("kills delivered: %d in %d imports (%d ended before their kill)" %
          (delivered, k, exited))
    print("killed without the database open: %d, with it open: %d, "
          "inside the write transaction: %d" %
          (stats["not-open"], stats["open"], stats["txn"]))
    for st in ("not-open", "open", "txn"):
        print("checked kills %s: %d left the snapshot count unchanged, "
              "%d stored their snapshot" % (st, outcome[st][0], outcome[st][1]))
    print("snapshots stored by killed, ended or middle imports: %d; "
          "unchecked imports: %d" % (stored, unchecked))
    print("snapshots in the database: %d" % len(known))


if __name__ == "__main__":
    main()
