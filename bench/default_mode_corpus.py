#!/usr/bin/env python3
"""Default-mode planning over the recorded corpora (issue 38): every comparable recorded run is
planned as a user plans it, `tipc-run CONFIG MODE --dry-run --format jsonl` with neither --compat
nor --dialect, in a scratch copy of its repository (the runner scripts and every config at their
paths), and the plan's python calls are compared with the recorded ones: argv and cwd; GPU ids
(CUDA_VISIBLE_DEVICES) are tipc-run's own allocation and set aside, and so are setup stages (the
runner's replayed housekeeping). Prints each refusal with its first error line and each mismatch,
then the totals per corpus.

A run is comparable as the corpora's READMEs say: ../tipc-corpus by its meta's compare.argv,
../tipc-corpus-longtail when the runner exited 0 with no shell errors and started exactly the
stand-ins it evaluated. The runs that are not are planned too: they must be refused.

usage: bench/default_mode_corpus.py [--tipc-run BIN] [--shared DIR] [--jobs N] [--cache DIR]
                                    [--corpus NAME]... [--repo NAME]... [--show N]
"""
import argparse
import concurrent.futures
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent


def recorded_runs(corpus_dir, repos):
    for meta_file in sorted(corpus_dir.glob("golden/*/*.meta.json")):
        meta = json.loads(meta_file.read_text())
        if repos and meta["repo"] not in repos:
            continue
        corpus = meta.get("corpus")
        if corpus:  # ../tipc-corpus: the run's directory and arguments are recorded apart
            comparable = corpus["compare"]["argv"]
            run_dir, config, mode = corpus["run_dir"], corpus["config_arg"], corpus["mode_arg"]
        else:
            comparable = (meta["exit_code"] == 0 and not meta["shell_errors"]
                          and meta["stub_calls_minus_python_evals"] == 0)
            run_dir, config, mode = "", meta["config"], meta["mode"]
        if "runner" not in meta:
            comparable = False
        yield {"id": meta["id"], "repo": meta["repo"], "run_dir": run_dir, "config": config, "mode": mode,
               "comparable": comparable, "argv_file": str(meta_file).replace(".meta.json", ".argv.jsonl")}


def recorded_calls(run):
    calls = []
    with open(run["argv_file"]) as lines:
        for line in lines:
            call = json.loads(line)
            calls.append((tuple([call["argv0"]] + call["argv"]), call["cwd"]))
    return calls


def planned_calls(jsonl, repo_root, run_dir):
    """The plan's python calls as the recording spells them: the scratch repository's root as
    <REPO_ROOT>, the cwd relative to the repository root (the plan's is the run directory's)."""
    calls = []
    for line in jsonl.splitlines():
        stage = json.loads(line)
        if stage.get("kind") == "setup" or not stage.get("argv"):
            continue
        if not os.path.basename(stage["argv"][0]).startswith("python"):
            continue
        argv = tuple(word.replace(str(repo_root), "<REPO_ROOT>") for word in stage["argv"])
        cwd = os.path.normpath(os.path.join(run_dir or ".", stage.get("cwd", ".")))
        calls.append((argv, cwd))
    return calls


def plan_run(run, scratch, tipc_run, cache):
    cwd = scratch / run["repo"] / run["run_dir"]
    env = dict(os.environ, TIPC_TRACE_CACHE=str(cache))
    done = subprocess.run([tipc_run, run["config"], run["mode"], "--dry-run", "--format", "jsonl"], cwd=cwd,
                          env=env, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        errors = [line for line in done.stderr.splitlines() if "error" in line] or done.stderr.splitlines() or [""]
        return "refused", errors[0]
    expected, got = recorded_calls(run), planned_calls(done.stdout, scratch / run["repo"], run["run_dir"])
    if expected == got:
        return "matched", ""
    if sorted(expected) == sorted(got):
        return "reordered", ""
    missing = [c for c in expected if c not in got]
    extra = [c for c in got if c not in expected]
    return "differs", f"recorded only: {missing[:2]}; planned only: {extra[:2]}"


def copy_repos(corpus_dir, runs, scratch):
    for repo in sorted({run["repo"] for run in runs}):
        for part in ("runners", "configs"):
            shutil.copytree(corpus_dir / part / repo, scratch / repo, dirs_exist_ok=True)
        # As the recordings had it (tipc-corpus README section 4): PaddleClas's runner cd's into it.
        (scratch / repo / "deploy").mkdir(exist_ok=True)


def measure(corpus_dir, args, cache):
    runs = list(recorded_runs(corpus_dir, args.repo))
    with tempfile.TemporaryDirectory() as scratch_name:
        scratch = pathlib.Path(scratch_name)
        copy_repos(corpus_dir, runs, scratch)
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            outcomes = list(pool.map(lambda run: plan_run(run, scratch, args.tipc_run, cache), runs))
    tally = {}
    shown = 0
    for run, (verdict, detail) in zip(runs, outcomes):
        key = ("comparable " if run["comparable"] else "not comparable ") + verdict
        tally[key] = tally.get(key, 0) + 1
        worth_showing = (run["comparable"] and verdict != "matched") or (not run["comparable"] and verdict != "refused")
        if worth_showing and shown < args.show:
            print(f"  {key}: {run['id']} ({run['mode']}): {detail}")
            shown += 1
    print(f"{corpus_dir.name}: {len(runs)} runs: " + ", ".join(f"{n} {k}" for k, n in sorted(tally.items())))
    return tally


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tipc-run", default=str(ROOT / "build" / "tipc-run"))
    parser.add_argument("--shared", default=str(ROOT.parent / "shared"))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--cache", help="trace cache to use and keep (default: a fresh one, removed after)")
    parser.add_argument("--repo", action="append", default=[], help="only this repository (repeatable)")
    parser.add_argument("--show", type=int, default=20, help="at most this many runs shown per corpus")
    parser.add_argument("--corpus", action="append", choices=("tipc-corpus", "tipc-corpus-longtail"),
                        help="only this corpus (default: both)")
    args = parser.parse_args()
    args.tipc_run = str(pathlib.Path(args.tipc_run).resolve())
    with tempfile.TemporaryDirectory() as fresh_cache:
        cache = pathlib.Path(args.cache or fresh_cache)
        for name in args.corpus or ("tipc-corpus", "tipc-corpus-longtail"):
            corpus_dir = pathlib.Path(args.shared) / name
            if not corpus_dir.is_dir():
                print(f"{corpus_dir}: missing", file=sys.stderr)
                return 2
            measure(corpus_dir, args, cache)
    return 0


if __name__ == "__main__":
    sys.exit(main())
