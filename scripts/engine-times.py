#!/usr/bin/env python3
"""The engine timed with a tables folder, where memory may be short (docs/results.md, "the packed
set faster than the build where memory is short"): start, `uci`, `setoption TablesPath`,
`isready` (the time to ready), a 6 v 6 moving position searched for a second (the time from the
start to its `bestmove`), then `SolvedPlacing off` and the two late-placing positions of the bench
with one piece in hand each (8 v 7 and 9 v 8 once placed) searched for ten seconds each, twice:
the nodes a second of each search, the first time and again.

    sudo python3 scripts/engine-times.py BIN TABLESPATH [--memory 8G] [--keep-cache]
        [--seconds 10]

Before the run the system's page cache is dropped (`/proc/sys/vm/drop_caches`, as root) unless
`--keep-cache`; `--memory` runs the engine in a memory control group of that limit, page cache
included (cgroup v1 or v2, as root). Prints one line of figures.
"""

import os
import re
import subprocess
import sys
import time

SIX_SIX = "O*O@@**O/@@*O*@O@/O******* w m s 6 0 6 0 0 0 -1 -1 -1 -1 0 11 32"
LATE_PLACING = [
    "**OO**@*/@@O*O@*@/*OOO***@ w p p 7 1 6 1 0 0 -1 -1 -1 -1 0 0 9",
    "@@OOO@**/*@O@*O**/*OO@**@O w p p 8 1 7 1 0 0 -1 -1 -1 -1 0 0 9",
]


def control_group(limit):
    """A memory control group of `limit` bytes; the file a process joins it by."""
    v2 = "/sys/fs/cgroup/cgroup.controllers"
    if os.path.exists(v2):
        path = "/sys/fs/cgroup/moulin-times"
        os.makedirs(path, exist_ok=True)
        with open(os.path.join(path, "memory.max"), "w") as f:
            f.write(str(limit))
    else:
        path = "/sys/fs/cgroup/memory/moulin-times"
        os.makedirs(path, exist_ok=True)
        with open(os.path.join(path, "memory.limit_in_bytes"), "w") as f:
            f.write(str(limit))
    return os.path.join(path, "cgroup.procs")


def size(text):
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    if text[-1].upper() in units:
        return int(float(text[:-1]) * units[text[-1].upper()])
    return int(text)


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    binary, tables = args[0], args[1]
    memory = size(args[args.index("--memory") + 1]) if "--memory" in args else None
    seconds = int(args[args.index("--seconds") + 1]) if "--seconds" in args else 10
    if "--keep-cache" not in args:
        subprocess.run(["sync"], check=True)
        with open("/proc/sys/vm/drop_caches", "w") as f:
            f.write("3\n")
    procs = control_group(memory) if memory else None

    def join():
        if procs:
            with open(procs, "w") as f:
                f.write(str(os.getpid()))

    start = time.monotonic()
    engine = subprocess.Popen(
        [binary],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        bufsize=1,
        preexec_fn=join,
    )

    def send(line):
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    def until(prefix):
        """The lines up to the first that starts with `prefix` (that one last)."""
        lines = []
        while True:
            line = engine.stdout.readline()
            if not line:
                sys.exit(f"the engine ended before `{prefix}`")
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines

    send("uci")
    until("uciok")
    send(f"setoption name TablesPath value {tables}")
    send("isready")
    until("readyok")
    ready = time.monotonic() - start
    send(f"position fen {SIX_SIX}")
    send("go movetime 1000")
    until("bestmove")
    first = time.monotonic() - start
    send("setoption name SolvedPlacing value off")
    nps = []
    for _ in range(2):
        for fen in LATE_PLACING:
            send(f"position fen {fen}")
            send(f"go movetime {seconds * 1000}")
            lines = until("bestmove")
            found = [int(m.group(1)) for l in lines for m in [re.search(r" nps (\d+)", l)] if m]
            nps.append(found[-1] if found else 0)
    send("quit")
    engine.wait(timeout=30)
    print(
        f"{tables}: ready {ready:.2f} s, first answer {first:.2f} s, "
        f"nps first {nps[0]:,} / {nps[1]:,}, again {nps[2]:,} / {nps[3]:,}"
    )


if __name__ == "__main__":
    main()
