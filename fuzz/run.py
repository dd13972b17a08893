"""Run the atheris fuzz targets, each for a given time, and say what they tried and found.

    python fuzz/run.py --seconds 600                  # every target, ten minutes each
    python fuzz/run.py query saved-game --seconds 60  # some of them
    python fuzz/run.py --one saved-game CRASH_FILE    # play one saved input again

Each target's corpus starts from the shipped files (`seeds()` of its module) and grows in
WORKDIR/corpus/TARGET; half the mutations are libFuzzer's, half change a TOML line's or a
JSON document's value for one of another kind (`mutate.py`). An input that breaks the
contract is kept in WORKDIR/crashes/TARGET and the target goes on fuzzing for the rest of
its time. Needs atheris (pip install -e
'.[fuzz]').
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
# target name -> (module under fuzz/, function, leading bytes its mutations keep: the kind)
TARGETS = {
    "map-file": ("fuzz_maps", "map_file", 0),
    "map-json": ("fuzz_maps", "map_json", 0),
    "content-file": ("fuzz_content", "content_file", 1),
    "content-folder": ("fuzz_content", "content_folder", 1),
    "query": ("fuzz_query", "query_input", 0),
    "saved-game": ("fuzz_games", "saved_game", 0),
    "setup-spec": ("fuzz_games", "setup_spec", 0),
    "http-body": ("fuzz_server", "http_body", 1),
    "ws-message": ("fuzz_server", "ws_message", 0),
}
LIBFUZZER = ["-max_len=65536", "-timeout=30", "-rss_limit_mb=3072", "-print_final_stats=1"]
_EXECUTED = re.compile(r"stat::number_of_executed_units:\s*(\d+)")
_SLOWEST = re.compile(r"stat::slowest_unit_time_sec:\s*(\d+)")


def target(name: str) -> Any:
    module, function, _ = TARGETS[name]
    return getattr(importlib.import_module(module), function)


def seed_corpus(name: str, folder: Path) -> int:
    """Write the target's seeds into `folder` (once); returns how many it holds."""
    folder.mkdir(parents=True, exist_ok=True)
    if not any(folder.iterdir()):
        module, function, _ = TARGETS[name]
        for data in importlib.import_module(module).seeds()[function]:
            (folder / hashlib.sha1(data).hexdigest()).write_bytes(data)
    return sum(1 for _ in folder.iterdir())


def fuzz(name: str, seconds: float, workdir: Path) -> dict[str, Any]:
    """Fuzz one target for `seconds` (started again after each crash it keeps)."""
    corpus = workdir / "corpus" / name
    crashes = workdir / "crashes" / name
    crashes.mkdir(parents=True, exist_ok=True)
    seeds = seed_corpus(name, corpus)
    log = workdir / f"{name}.log"
    tried = runs = slowest = 0
    t0 = time.monotonic()
    with log.open("a", encoding="utf-8") as out:
        while (left := seconds - (time.monotonic() - t0)) >= 1:
            runs += 1
            command = [
                sys.executable,
                str(Path(__file__)),
                "--one",
                name,
                str(corpus),
                f"-max_total_time={int(left)}",
                f"-artifact_prefix={crashes}/",
                *LIBFUZZER,
            ]
            done = subprocess.run(command, stdout=out, stderr=subprocess.PIPE, text=True)
            out.write(done.stderr)
            found = _EXECUTED.findall(done.stderr)
            tried += int(found[-1]) if found else 0
            slowest = max([slowest, *map(int, _SLOWEST.findall(done.stderr))])
            if done.returncode == 0:
                break
    return {
        "target": name,
        "seconds": round(time.monotonic() - t0),
        "inputs": tried,
        "seeds": seeds,
        "corpus": sum(1 for _ in corpus.iterdir()),
        "runs": runs,
        "slowest": slowest,
        "crashes": sorted(p.name for p in crashes.iterdir()),
    }


def main() -> int:
    if len(sys.argv) > 2 and sys.argv[1] == "--one":
        name = sys.argv[2]
        sys.argv = [sys.argv[0], *sys.argv[3:]]
        from contract import main as run_one
        from mutate import custom_mutator

        run_one(target(name), custom_mutator(TARGETS[name][2]))
        return 0
    parser = argparse.ArgumentParser(description="Run the fuzz targets, each for a given time.")
    parser.add_argument("targets", nargs="*", metavar="TARGET", help=", ".join(TARGETS))
    parser.add_argument("--seconds", type=float, default=600, help="each target's time")
    parser.add_argument("--workdir", default="fuzz-work", help="corpora, crashes and logs")
    args = parser.parse_args()
    names = args.targets or list(TARGETS)
    unknown = [n for n in names if n not in TARGETS]
    if unknown:
        parser.error(f"unknown target {unknown[0]}; the targets are {', '.join(TARGETS)}")
    workdir = Path(args.workdir)
    for name in names:
        result = fuzz(name, args.seconds, workdir)
        print(
            f"{name}: {result['inputs']:,} inputs in {result['seconds']} s "
            f"({result['seeds']} seeds, corpus {result['corpus']}, slowest input "
            f"{result['slowest']} s), "
            f"{len(result['crashes'])} crashes kept{': ' if result['crashes'] else ''}"
            + ", ".join(result["crashes"]),
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
