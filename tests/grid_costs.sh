#!/usr/bin/env bash
# The grid test plugin (tests/plugins/grid.c) with step costs small and
# large.  On a 64 x 64 map (25% walls, seed 2, solvable) A* with the
# octile heuristic and UCS must find the optimal cost at straight /
# diagonal costs 1/1, 2/3, 70/99 and 10000/14142 (and at 3/1 and 1/3,
# where octile takes its other forms), and that cost must be the one a
# Dijkstra written here, in python3, finds on the same map, drawn again
# from the generator's description in grid.c.  Every plan is walked on
# that map too.  Also: the plugin draws the same map as python; a map
# whose goal is walled off gives "no solution"; bad keys are refused
# with file:line.
#
# A* at 10000/14142 needs an open list whose memory follows the number
# of entries, not the range of f values.
# usage: grid_costs.sh SEARCHD TEST_PLUGIN_DIR
set -u
sd=$1 plugins=$(cd "$2" && pwd) || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null; then
	echo "FAIL: grid_costs.sh needs python3"
	exit 1
fi


cat >"$tmp/grid.ini" <<EOI
[plugin]
path = $plugins/grid.so

[problem]
size = 64
walls = 25
seed = 2
EOI
cp "$tmp/grid.ini" "$tmp/bad.ini"
echo "colour = red" >>"$tmp/bad.ini"   # line 8

# Refused keys and values: exit 2, where and what.
expect 2 "bad.ini:8: unknown key 'colour'" "$sd" -c "$tmp/bad.ini"
expect 2 "<command line>: size must be a whole number from 1 to 8192, not '0'" \
	"$sd" -c "$tmp/grid.ini" -s problem.size=0
expect 2 "size must be a whole number from 1 to 8192, not '8193'" \
	"$sd" -c "$tmp/grid.ini" -s problem.size=8193
expect 2 "walls must be a whole number from 0 to 100, not '101'" \
	"$sd" -c "$tmp/grid.ini" -s problem.walls=101
expect 2 "seed must be a whole number from 0 to 4294967295, not '-1'" \
	"$sd" -c "$tmp/grid.ini" -s problem.seed=-1
expect 2 "straight must be a whole number from 0 to 4294967294, not '4294967295'" \
	"$sd" -c "$tmp/grid.ini" -s problem.straight=4294967295
expect 2 "diagonal must be a whole number from 0 to 4294967294, not '14142x'" \
	"$sd" -c "$tmp/grid.ini" -s problem.diagonal=14142x
expect 2 "diagonal must be a whole number from 0 to 4294967294, not ''" \
	"$sd" -c "$tmp/grid.ini" -s problem.diagonal=
expect 0 "octile           yes" "$sd" -c "$tmp/grid.ini" --list-heuristics
# The smallest map: the start is the goal.
expect 0 '"cost":0' "$sd" -c "$tmp/grid.ini" -q -f json -s problem.size=1

# The costs, in python: searchd is run from there.
python3 - "$sd" "$tmp/grid.ini" <<'EOF' || fail "the python checks above"
import heapq, json, subprocess, sys

SD, INI = sys.argv[1], sys.argv[2]
SIZE, WALLS, SEED = 64, 25, 2
COSTS = [(1, 1), (2, 3), (70, 99), (10000, 14142), (3, 1), (1, 3)]
# Pinned, so that a change of the generator on both sides is seen too.
PINNED = {(1, 1): 92, (10000, 14142): 1060828}
DIRS = {"N": (-1, 0), "NE": (-1, 1), "E": (0, 1), "SE": (1, 1),
        "S": (1, 0), "SW": (1, -1), "W": (0, -1), "NW": (-1, -1)}
M64 = (1 << 64) - 1
bad = []

def draw(size, walls, seed):
    """The map as grid.c's header comment describes it."""
    x = ((seed + 1) * 0x9E3779B97F4A7C15) & M64
    wall = bytearray(size * size)
    for i in range(size * size):
        x ^= (x << 13) & M64
        x ^= x >> 7
        x ^= (x << 17) & M64
        wall[i] = x % 100 < walls
    wall[0] = wall[-1] = 0
    return wall

def step(wall, size, cell, d):
    """The cell one step d from cell, or None if it is not allowed."""
    r, c = divmod(cell, size)
    dr, dc = d
    free = lambda r, c: 0 <= r < size and 0 <= c < size and not wall[r * size + c]
    if not free(r + dr, c + dc):
        return None
    if dr and dc and not (free(r + dr, c) and free(r, c + dc)):
        return None
    return (r + dr) * size + c + dc

def dijkstra(wall, size, c1, c2):
    dist = {0: 0}
    heap = [(0, 0)]
    while heap:
        d, cell = heapq.heappop(heap)
        if d > dist[cell]:
            continue
        if cell == size * size - 1:
            return d
        for name, dv in DIRS.items():
            t = step(wall, size, cell, dv)
            nd = d + (c2 if dv[0] and dv[1] else c1)
            if t is not None and nd < dist.get(t, nd + 1):
                dist[t] = nd
                heapq.heappush(heap, (nd, t))
    return None

def run(*sets, replay=False):
    cmd = [SD, "-c", INI, "-q", "-f", "json"] + (["--replay"] if replay else [])
    for s in sets:
        cmd += ["-s", s]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    try:
        return p.returncode, json.loads(p.stdout), p.stderr
    except ValueError:
        return p.returncode, None, p.stdout + p.stderr

def check(what, ok):
    if not ok:
        bad.append(what)

wall = draw(SIZE, WALLS, SEED)
goal = SIZE * SIZE - 1

# The plugin's map is python's: the start board of --replay.
rc, res, err = run(replay=True)
lines = err.splitlines()
board = lines[lines.index("start") + 1:][:SIZE] if "start" in lines else []
want = ["".join("@" if i == 0 else "G" if i == goal else "#" if wall[i] else "."
                for i in range(r * SIZE, (r + 1) * SIZE)) for r in range(SIZE)]
check("the plugin's map differs from python's", board == want)

for c1, c2 in COSTS:
    best = dijkstra(wall, SIZE, c1, c2)
    check(f"{c1}/{c2}: python finds no path", best is not None)
    if (c1, c2) in PINNED:
        check(f"{c1}/{c2}: python's optimum {best}, pinned {PINNED[c1, c2]}",
              best == PINNED[c1, c2])
    for alg, heur in (("astar", "octile"), ("ucs", "zero")):
        tag = f"{c1}/{c2} {alg}"
        rc, res, err = run(f"search.algorithm={alg}", f"problem.straight={c1}",
                           f"problem.diagonal={c2}")
        if rc != 0 or not res or res.get("status") != "solved":
            bad.append(f"{tag}: exit {rc}, {res or err.strip()[:300]}")
            continue
        check(f"{tag}: heuristic {res['heuristic']}", res["heuristic"] == heur)
        check(f"{tag}: cost {res['cost']}, optimum {best}", res["cost"] == best)
        # Walk the plan on python's map.
        cell, total = 0, 0
        for a in res["plan"].split():
            t = step(wall, SIZE, cell, DIRS[a]) if a in DIRS else None
            if t is None:
                bad.append(f"{tag}: illegal step {a} from cell {cell}")
                break
            total += c2 if a in ("NE", "SE", "SW", "NW") else c1
            cell = t
        else:
            check(f"{tag}: plan ends at cell {cell}, not the goal",
                  cell == goal)
            check(f"{tag}: plan costs {total}, reported {res['cost']}",
                  total == res["cost"])
        print(f"ok {tag}: cost {res['cost']}, expanded "
              f"{res['stats']['expanded']}")

# Seed 1 walls the start in: no path, in python and in searchd.
nowall = draw(SIZE, WALLS, 1)
check("seed 1: python finds a path", dijkstra(nowall, SIZE, 1, 1) is None)
rc, res, err = run("problem.seed=1")
check(f"seed 1: exit {rc}, {res}", rc == 1 and res and
      res["status"] == "no-solution")

for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
EOF

finish
