#!/usr/bin/env python3
"""Sokoban benchmarks for searchd: prints a table, not a test.

Runs searchd once, in batch mode over the levels (a time limit each),
replays every plan with its own checker, and prints one row per level
and a summary (solved count, total moves and pushes of the plans, total
and median time, median nodes, peak memory, bytes per stored state).

  bench/sokoban.py microban-opt      # push-optimal A* + matching, vs the .tsv
  bench/sokoban.py microban-moves    # move-optimal A* over walk+push actions
  bench/sokoban.py microban-fast     # the fast mode, all 155
  bench/sokoban.py xsokoban-fast     # the fast mode, 60 s/level
  bench/sokoban.py boxoban-fast      # greedy + matching, 1000 Boxoban levels

Options: --searchd PATH (default build/bin/searchd, then build-sok/bin),
--time-limit S (0: none, as searchd's time_limit = 0), --levels 1-20,33
(within the collection: refused otherwise), --set section.key=value
(repeatable), --quiet (summary only).  Needs only python3.

A level solved by the fallback search (the fast mode's backward one)
says so in the note column ("fallback ran" where it did not solve
either), and the summary lists the levels it solved.  A
level that searchd reports as an error shows its message in the note
column; such a row, a plan that does not replay (BADPLAN) or an
optimal length that differs from the .tsv (MISMATCH) make the exit
status 1.  When searchd fails as a whole (a bad --set, a crash: levels
without a row), its message goes to stderr and the exit status is 1,
as for a missing searchd or data file; a bad --levels or --time-limit
exits 2, as argparse's errors do.

The two optimal suites add the deadlock tables (deadlocks = all
tables): --set problem.deadlocks=all runs them without.

The fast mode: fess (both cell orders: advisors = both) + packing +
macros + learned deadlock patterns (deadlocks = all learn), and beside
it, in a second process from the start, a fallback that pulls backward
(fess + matching, cells by h; fallback_parallel = yes): the first to
answer stops the other, so the fast mode uses two cores; run one
benchmark of it at a time.  --set problem.deadlocks=all runs it
without the patterns, --set search.fallback_parallel=no with the
fallback after the first half of the time limit instead (one core),
--set search.fallback= without the fallback.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "config", "levels")

FAST = ["search.algorithm=greedy", "search.heuristic=matching",
        "problem.cost=pushes"]
FESS = ["search.algorithm=fess", "search.heuristic=packing",
        "search.advisors=both", "problem.cost=pushes", "problem.macros=all",
        "problem.deadlocks=all learn",
        "search.fallback=problem.direction=backward problem.macros=none "
        "search.heuristic=matching search.advisors=no",
        "search.fallback_parallel=yes"]
SUITES = {
    "microban-opt": ("microban.xsb", 155, 60,
                     ["search.algorithm=astar", "search.heuristic=matching",
                      "problem.cost=pushes", "problem.deadlocks=all tables"]),
    "microban-moves": ("microban.xsb", 155, 60,
                       ["search.algorithm=astar", "search.heuristic=matching",
                        "problem.cost=moves", "problem.actions=pushes",
                        "problem.deadlocks=all tables"]),
    "microban-fast": ("microban.xsb", 155, 60, FESS),
    "xsokoban-fast": ("xsokoban90.xsb", 90, 60, FESS),
    "boxoban-fast": ("boxoban-medium-valid-000.txt", 1000, 60, FAST),
}


def read_lines(path):
    """The lines of a data file; a one-line message and exit 1 if it
    cannot be read."""
    try:
        with open(path) as f:
            return f.readlines()
    except OSError as e:
        sys.exit("sokoban.py: cannot read %s: %s" % (path, e.strerror))


def read_levels(path):
    """The levels of an XSB collection, in order, as lists of rows."""
    levels, cur = [], []
    for line in read_lines(path):
        line = line.rstrip("\r\n").rstrip()
        is_board = line and not line.startswith(";") and (
            cur or line.lstrip(" -_")[:1] == "#")
        if is_board and ":" not in line:
            cur.append(line)
        elif cur:
            levels.append(cur)
            cur = []
    if cur:
        levels.append(cur)
    return levels


def replay(rows, plan):
    """Replay a LURD plan; returns (ok, moves, pushes)."""
    cells = {}
    px = py = None
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch in "@+":
                px, py = x, y
                ch = "." if ch == "+" else " "
            cells[(x, y)] = " " if ch in "-_" else ch
    step = {"u": (0, -1), "d": (0, 1), "l": (-1, 0), "r": (1, 0)}
    pushes = 0
    for c in plan:
        if c.lower() not in step:
            return False, 0, 0
        dx, dy = step[c.lower()]
        n = (px + dx, py + dy)
        box = cells.get(n) in ("$", "*")
        if cells.get(n, "#") == "#" or box != c.isupper():
            return False, 0, 0
        if box:
            t = (px + 2 * dx, py + 2 * dy)
            if cells.get(t) not in (" ", "."):
                return False, 0, 0
            cells[t] = "*" if cells[t] == "." else "$"
            cells[n] = "." if cells[n] == "*" else " "
            pushes += 1
        px, py = n
    return "$" not in cells.values(), len(plan), pushes


def fallback_note(row):
    """The note column of a row whose fallback search ran: it solved the
    level, or it ran too; empty if it did not run."""
    if not row["fallback"]:
        return ""
    return "by the fallback" if row["status"] == "solved" else "fallback ran"


def parse_range(text, n):
    """'1-20,33' -> [1..20, 33]; None -> all n.  Raises ValueError on a
    part that is not N or N-M with 1 <= N <= M <= n."""
    if not text:
        return list(range(1, n + 1))
    out = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        if not a.isdigit() or not (b or a).isdigit():
            raise ValueError("'%s' is not N or N-M" % part)
        lo, hi = int(a), int(b or a)
        if lo > hi:
            raise ValueError("'%s' is reversed (N-M needs N <= M)" % part)
        if lo < 1 or hi > n:
            raise ValueError("'%s': the levels are 1-%d" % (part, n))
        out.extend(range(lo, hi + 1))
    return out


def run_levels(searchd, path, levels, limit, sets):
    """Run searchd once, in batch mode over the levels (one JSON line per
    level); yields (level, row dict) as they finish."""
    sel = ",".join("%d-%d" % (lv, lv) for lv in levels)
    cmd = [searchd, "--config", os.path.join(ROOT, "config", "sokoban.ini"),
           "--format", "json", "--set", "problem.file=" + path,
           "--set", "problem.level=" + sel,
           "--set", "search.time_limit=%g" % limit]
    for s in sets:
        cmd += ["--set", s]
    err = tempfile.TemporaryFile(mode="w+")
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err, text=True)
    seen = set()
    for line in p.stdout:
        try:
            d = json.loads(line)
        except ValueError:
            continue
        lv = int(d.get("instance", 0))
        seen.add(lv)
        yield lv, d
    p.wait()
    missing = [lv for lv in levels if lv not in seen]
    if missing:  # a crash or a bad setting: levels without a line
        err.seek(0)
        sys.stderr.write(err.read())
        sys.stderr.write("sokoban.py: searchd exited %d\n" % p.returncode)
    for lv in missing:
        yield lv, {"status": "error",
                   "error": "searchd exited %d" % p.returncode}


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("suite", choices=sorted(SUITES))
    ap.add_argument("--searchd")
    ap.add_argument("--time-limit", type=float)
    ap.add_argument("--levels")
    ap.add_argument("--set", action="append", default=[])
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args()
    fname, n, limit, sets = SUITES[a.suite]
    if a.time_limit is not None:
        if not 0 <= a.time_limit <= 1e9:
            ap.error("--time-limit: seconds from 0 (none) to 1e9")
        limit = a.time_limit
    searchd = a.searchd
    for cand in ("build/bin/searchd", "build-sok/bin/searchd"):
        if not searchd and os.access(os.path.join(ROOT, cand), os.X_OK):
            searchd = os.path.join(ROOT, cand)
    if not searchd:
        sys.exit("no searchd: build it or pass --searchd")
    if not os.access(searchd, os.X_OK) or os.path.isdir(searchd):
        sys.exit("sokoban.py: %s is not an executable searchd" % searchd)
    path = os.path.join(DATA, fname)
    levels = read_levels(path)
    try:
        selected = parse_range(a.levels, min(n, len(levels)))
    except ValueError as e:
        ap.error("--levels: %s" % e)
    optimal = {}
    if a.suite == "microban-opt":
        for line in read_lines(os.path.join(DATA,
                                            "microban-push-optimal.tsv")):
            f = line.split()
            if len(f) == 2 and f[0].isdigit():
                optimal[int(f[0])] = int(f[1])
    sets = sets + a.set
    print("# %s: %s, %s, --set %s" %
          (a.suite, fname,
           "%g s per level" % limit if limit else "no time limit",
           " ".join(sets)))
    if not a.quiet:
        print("%-6s %-8s %6s %6s %6s %10s %10s %7s %8s %8s %s" %
              ("level", "status", "pushes", "moves", "opt", "expanded",
               "stored", "B/state", "RSS MiB", "seconds", "note"))
    rows = []
    t_all = time.time()
    for lv, d in run_levels(searchd, path, selected, limit, sets):
        st = d.get("status", "?")
        note = "error: " + d.get("error", "") if st == "error" else ""
        moves = pushes = ""
        if st == "solved":
            ok, moves, pushes = replay(levels[lv - 1], d.get("plan", ""))
            if not ok:
                st, note = "BADPLAN", "plan does not replay"
        opt = optimal.get(lv, "")
        if st == "solved" and opt != "" and pushes != opt:
            note = "MISMATCH: optimal %d" % opt
        s = d.get("stats", {})
        row = dict(level=lv, status=st, moves=moves, pushes=pushes, opt=opt,
                   expanded=s.get("expanded", 0), stored=s.get("stored", 0),
                   bps=s.get("bytes_per_state", 0),
                   rss=s.get("peak_rss", 0) / 2**20,
                   seconds=s.get("seconds", d.get("seconds", 0)), note=note,
                   fallback="fallback" in d)
        rows.append(row)
        if not a.quiet:
            print("%-6d %-8s %6s %6s %6s %10d %10d %7.1f %8.1f %8.2f %s" %
                  (lv, st[:8], pushes, moves, opt, row["expanded"],
                   row["stored"], row["bps"], row["rss"], row["seconds"],
                   note or fallback_note(row)),
                  flush=True)
    wall = time.time() - t_all
    solved = [r for r in rows if r["status"] == "solved"]
    bad = [r for r in rows if r["note"] and r["status"] != "error"]
    print("# solved %d of %d" % (len(solved), len(rows)))
    if optimal:
        checked = [r for r in solved if r["opt"] != ""]
        print("# push-optimal check: %d solved levels listed in the .tsv, "
              "%d mismatches" % (len(checked),
                                 len([r for r in bad if "MISMATCH" in r["note"]])))
    if bad:
        print("# problems: " + ", ".join("%d (%s)" % (r["level"], r["note"])
                                         for r in bad))
    by_fallback = [r["level"] for r in solved if r["fallback"]]
    if by_fallback:
        print("# solved by the fallback: " + " ".join(map(str, by_fallback)))
    unsolved = [r["level"] for r in rows if r["status"] != "solved"]
    if unsolved:
        print("# not solved: " + " ".join(map(str, unsolved)))
    if solved:
        secs = [r["seconds"] for r in solved]
        print("# search time of solved levels: total %.2f s, median %.3f s, "
              "max %.2f s" % (sum(secs), statistics.median(secs), max(secs)))
        print("# plans of solved levels: %d moves, %d pushes in total" %
              (sum(r["moves"] for r in solved),
               sum(r["pushes"] for r in solved)))
        print("# expanded (solved): median %d, max %d" %
              (statistics.median([r["expanded"] for r in solved]),
               max(r["expanded"] for r in solved)))
        big = max(rows, key=lambda r: r["stored"])
        print("# bytes per stored state: %.1f at the largest search "
              "(level %d, %d states; small searches are dominated by "
              "fixed tables)" % (big["bps"], big["level"], big["stored"]))
    print("# peak RSS over all runs: %.1f MiB" %
          max([r["rss"] for r in rows] or [0]))
    print("# wall time of the whole run: %.1f s (%.1f levels/s)" %
          (wall, len(rows) / wall if wall else 0))
    if bad or any(r["status"] == "error" for r in rows):
        sys.exit(1)  # a plan that does not replay, a wrong length, an error


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:  # Ctrl-C: searchd has ended its batch too
        sys.exit("sokoban.py: interrupted")
