#!/usr/bin/env python3
"""mpi_plan.py -- check the plan of one searchd JSON report (read on
standard input) with a checker that shares no code with the plugins:

  mpi_plan.py npuzzle W "START TILES" "GOAL TILES" COST
      the plan's letters move the blank (U D L R) on a W-wide board from
      START to GOAL, in COST moves
  mpi_plan.py sokoban SRCDIR FILE LEVEL PUSHES
      the plan (LURD, pushes upper case) solves level LEVEL of FILE with
      PUSHES pushes (bench/sokoban.py's replay); PUSHES "-" skips the
      count

Prints "ok" and exits 0, or says what is wrong and exits 1.
"""
import json
import sys


def npuzzle(width, start, goal, plan):
    """Replay the blank's moves; the final board, or None if one leaves
    the board."""
    tiles = [int(t) for t in start.split()]
    b = tiles.index(0)
    step = {"U": -width, "D": width, "L": -1, "R": 1}
    for c in plan:
        n = b + step.get(c, 0)
        if c not in step or not 0 <= n < len(tiles) or \
                (c in "LR" and n // width != b // width):
            return None
        tiles[b], tiles[n] = tiles[n], tiles[b]
        b = n
    return tiles == [int(t) for t in goal.split()]


def main():
    report = json.loads(sys.stdin.readline())
    if report.get("status") != "solved":
        print("not solved: %s" % report.get("status"))
        return 1
    plan, cost = report.get("plan", ""), report["cost"]
    if sys.argv[1] == "npuzzle":
        width, start, goal, want = sys.argv[2:6]
        if not npuzzle(int(width), start, goal, plan):
            print("plan %s does not reach the goal" % plan)
            return 1
        if cost != int(want) or len(plan) != cost:
            print("cost %d, %d moves; optimal %s" % (cost, len(plan), want))
            return 1
    else:
        src, path, level, want = sys.argv[2:6]
        sys.path.insert(0, src + "/bench")
        from sokoban import read_levels, replay
        ok, _, pushes = replay(read_levels(path)[int(level) - 1], plan)
        if not ok or (want != "-" and (pushes != int(want) or
                                       cost != pushes)):
            print("plan %s: solves %s, %d pushes, cost %d; want %s" %
                  (plan, ok, pushes, cost, want))
            return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
