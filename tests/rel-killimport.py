#!/usr/bin/env python3
"""Kill `ibtopo import` at random moments; check no snapshot is lost.

  rel-killimport.py IBTOPO DB FILE KILLS [SEED]

Times three whole imports of FILE into DB (they also give the later kills
snapshots to lose), then starts imports until KILLS of them have been
killed (SIGKILL), at least a third of them inside the write transaction.
Two kinds of kill take turns:
- at a moment: the import is stopped (SIGSTOP) after a delay drawn
  uniformly from [0, T) and killed there, T first the median of the whole
  imports; an import that ended before its delay is no kill and makes that
  delay the new T, so the delays follow the imports as the machine's load
  changes;
- in the transaction: the import is stopped every millisecond or so until
  it is seen inside its write transaction, let run for a delay drawn from
  [0, D) and stopped again; killed there, it counts as a transaction kill
  if it is still inside. One that has left the transaction by then makes
  that delay the new D (first T).
No budget of imports or time ends the run: it ends when the kills are in
(an import that reports trouble, or 50 imports in a row that bring no
kill still needed, fail it). While an import is stopped, its file
descriptors and /proc/locks say where it is: without the database open
(before opening it, or after closing it), with it open, or inside a write
transaction (it holds the WAL write lock, byte 120 of the -shm file).
After most imports `ibtopo snapshots` lists the database; every fourth
goes unchecked, so that the next import is the first to open the database
the killed one left. Halfway, one more whole import (and T is set to its
time). Asserts: every listed snapshot stays listed; no check sees more new
snapshots than the imports started since the last one; no import fails
other than by its kill; at least KILLS // 3 kills (and at least one) hit
an import inside its write transaction.

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
    # a stop waits for the end of an uninterruptible sleep (an fsync on a
    # loaded machine): wait long, this only guards against a hang
    for _ in range(60000):
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


def stop(pid):
    """Stop pid; True if it is stopped, False if it has exited."""
    try:
        os.kill(pid, signal.SIGSTOP)
    except ProcessLookupError:
        return False
    return wait_stopped(pid)


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
    txn_wanted = max(1, kills // 3)
    seed = int(sys.argv[5]) if len(sys.argv) == 6 else random.randrange(1 << 30)
    rng = random.Random(seed)
    db = os.path.realpath(db)
    print("# seed %d (REL_SEED=%d reproduces the delays)" % (seed, seed),
          file=sys.stderr)

    times = sorted(run_import(ibtopo, db, path, "whole%d" % i) for i in range(3))
    T = times[1]
    D = T
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
    kinds = {"moment": 0, "txn": 0}
    pending = 0        # imports started since the last check
    pending_where = []
    middle = False
    errfile = db + ".import-stderr"
    k = 0
    idle = 0           # imports in a row that brought no kill still needed
    while delivered < kills or stats["txn"] < txn_wanted:
        k += 1
        if not middle and delivered >= kills // 2:
            T = run_import(ibtopo, db, path, "middle")
            middle = True
            pending += 1
        # take turns; once KILLS are in, only transaction kills
        kind = "txn" if k % 2 == 0 or delivered >= kills else "moment"
        with open(errfile, "wb") as err:
            p = subprocess.Popen([ibtopo, "--db", db, "import", "--label",
                                  "kill%d" % k, path],
                                 stdout=subprocess.DEVNULL, stderr=err)
        state = "exited"
        if kind == "moment":
            delay = rng.uniform(0, T)
            time.sleep(delay)
            if stop(p.pid):
                state = where(p.pid, db)
            else:
                T = max(delay, 0.001)
        else:
            delay = 0.0
            while stop(p.pid):
                if where(p.pid, db) == "txn":
                    delay = rng.uniform(0, D)
                    os.kill(p.pid, signal.SIGCONT)
                    time.sleep(delay)
                    if stop(p.pid):
                        state = where(p.pid, db)
                    break
                os.kill(p.pid, signal.SIGCONT)
                time.sleep(rng.uniform(0, 0.002))
            if state != "txn" and delay > 0:
                D = max(delay, 0.001)
        try:
            os.kill(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        rc = p.wait()
        if rc == -signal.SIGKILL:
            before = (delivered < kills, stats["txn"] < txn_wanted)
            delivered += 1
            stats[state] += 1
            kinds[kind] += 1
            idle = 0 if before[0] or (before[1] and state == "txn") \
                else idle + 1
        elif rc == 0:
            exited += 1
            state = "ended"
            idle += 1
        else:
            with open(errfile, "rb") as err:
                msg = err.read().decode(errors="replace").strip()
            die("import %d (after %d kills) exited %d: %s" %
                (k, delivered, rc, msg))
        if idle >= 50:
            die("50 imports in a row brought no kill still needed "
                "(%d of %d kills, %d of %d inside the transaction)" %
                (delivered, kills, stats["txn"], txn_wanted))
        pending += 1
        pending_where.append(state)
        if k % 4 == 0 and (delivered < kills or stats["txn"] < txn_wanted):
            unchecked += 1
            print("# import %2d, %s kill after %.3f s: %s, not checked" %
                  (k, kind, delay, state), file=sys.stderr)
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
        print("# import %2d, %s kill after %.3f s: %s, %d new snapshot(s)" %
              (k, kind, delay, ",".join(pending_where), len(new)),
              file=sys.stderr)
        known = ids
        pending = 0
        pending_where = []
    os.unlink(errfile)
    if stats["txn"] < txn_wanted:
        die("only %d kills inside the write transaction, wanted %d" %
            (stats["txn"], txn_wanted))

    print("kills delivered: %d in %d imports (%d ended before their kill); "
          "at a moment: %d, aimed at the transaction: %d" %
          (delivered, k, exited, kinds["moment"], kinds["txn"]))
    print("killed without the database open: %d, with it open: %d, "
          "inside the write transaction: %d (at least %d wanted)" %
          (stats["not-open"], stats["open"], stats["txn"], txn_wanted))
    for st in ("not-open", "open", "txn"):
        print("checked kills %s: %d left the snapshot count unchanged, "
              "%d stored their snapshot" % (st, outcome[st][0], outcome[st][1]))
    print("snapshots stored by killed, ended or middle imports: %d; "
          "unchecked imports: %d" % (stored, unchecked))
    print("snapshots in the database: %d" % len(known))


if __name__ == "__main__":
    main()
