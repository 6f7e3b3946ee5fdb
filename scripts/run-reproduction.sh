#!/usr/bin/env bash
# The reproduction flow on the demo (README.md, "The reproduction flow"): the demo AlexNet
# (the reference) and its port (models/alexnet_port/) run on the same fake data and write
# what a reproducer hands in; then tipc-run checks it as a reviewer would:
#
#   tipc-run init-check   the two initial weight distributions   OUT/init_check.txt, .json
#   tipc-run padiff       one train step, layer by layer          OUT/padiff.txt
#   tipc-run acceptance   forward, metric, loss, bp_align, train_align, with the guide's
#                         thresholds; its bundle OUT/acceptance.tar.gz holds the five diff
#                         logs and the files above, the loss curves and the padiff rules
#
# Usage: scripts/run-reproduction.sh [--misalign NAME] [OUT]
#   OUT        default test_tipc/output/alexnet_port (an earlier flow's is replaced)
#   --misalign own-init | drop-bias | lr-schedule: plant one mistake in the port
# Environment: TIPC_RUN (default build/tipc-run), PYTHON (default /usr/bin/python3).
# Exit: 0 every check passed, 1 a check failed, 2 a tool could not run (its own exit code 2).
set -u

root=$(cd "$(dirname "$0")/.." && pwd)
tipc_run=${TIPC_RUN:-$root/build/tipc-run}
python=${PYTHON:-/usr/bin/python3}
misalign=()
out=$root/test_tipc/output/alexnet_port
while [ $# -gt 0 ]; do
  case $1 in
    --misalign) misalign=(--misalign "${2:?--misalign needs a name}"); shift 2 ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "run-reproduction: unknown option $1" >&2; exit 2 ;;
    *) out=$1; shift ;;
  esac
done
[ -x "$tipc_run" ] || { echo "run-reproduction: no tipc-run at $tipc_run (build it, or set TIPC_RUN)" >&2; exit 2; }

# OUT is replaced only when it is what an earlier flow left (or empty): never a folder of other files.
if [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ] && [ ! -d "$out/log_reprod" ]; then
  echo "run-reproduction: $out holds other files than an earlier flow's; give another OUT" >&2
  exit 2
fi
rm -rf "$out"
"$python" "$root/models/alexnet_port/run_alignment.py" --out "$out" "${misalign[@]}" || exit 2

worst=0
verdicts=()
# run NAME OUTPUT_FILE COMMAND...: runs a check, its output to the console and OUTPUT_FILE.
run() {
  local name=$1 output=$2 status
  shift 2
  echo "== $name"
  "$@" 2>&1 | tee "$output"
  status=${PIPESTATUS[0]}
  verdicts+=("$name $([ "$status" -eq 0 ] && echo PASS || echo "FAIL (exit $status)")")
  [ "$status" -gt "$worst" ] && worst=$status
}

run init-check "$out/init_check.txt" \
  "$tipc_run" init-check "$out/init/init_torch.npy" "$out/init/init_paddle.npy" --json "$out/init_check.json"
run padiff "$out/padiff.txt" \
  "$tipc_run" padiff "$out/padiff/reference" "$out/padiff/port" --atol 1e-6 \
  --layer-map "$out/padiff/layer_map.yaml" --layout "$out/padiff/layout.yaml"
run acceptance "$out/acceptance.txt" \
  "$tipc_run" acceptance "$out/log_reprod" --bundle "$out/acceptance.tar.gz" \
  --attach "$out/init_check.txt" --attach "$out/init_check.json" --attach "$out/padiff.txt" \
  --attach "$out/train_align_curves.svg" --attach "$out/padiff/layer_map.yaml" --attach "$out/padiff/layout.yaml"

echo "== reproduction ($out)"
printf '  %s\n' "${verdicts[@]}"
[ "$worst" -gt 2 ] && worst=2
exit "$worst"
