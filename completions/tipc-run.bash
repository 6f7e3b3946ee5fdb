# bash completion for tipc-run (installed as share/bash-completion/completions/tipc-run).
# Completes the subcommands and configs in the first position, modes in the second, and
# each command's options and their values.

_tipc_run_options='--dry-run --format --compat --plan-from --runner --dialect --python --dialect-dir --repo-root --launcher
  --settings -j --jobs --gpus --resource-spec --timeout --retries -x --fail-fast --strict --only -k --shard --resume
  --bundle --executor
  --partition --account --prepare-script -v --verbose -h --help --version'
_tipc_run_modes='lite_train_lite_infer lite_train_whole_infer whole_train_whole_infer whole_infer
  klquant_whole_infer benchmark_train'
_tipc_run_subcommands='report diff acceptance padiff init-check compare-results'

# The options of a subcommand (tipc-run SUBCOMMAND --help lists them with their meaning).
_tipc_run_subcommand_options() {
  case "$1" in
    report) echo '-o --output --bundle --strict --help' ;;
    diff) echo '--method --threshold --log --layout --json --compat --help' ;;
    acceptance) echo '--config --bundle --compat --help' ;;
    padiff) echo '--mode --atol --rtol --phase --layer-map --top --padiff-compat --help' ;;
    init-check) echo '--key --bins --threshold --json --help' ;;
    compare-results) echo '--gt --log --atol --rtol --format --json --help' ;;
  esac
}

# Values of an option; returns 1 when the option takes none (or any word).
_tipc_run_option_values() {
  local subcommand="$1" option="$2" cur="$3"
  case "$subcommand:$option" in
    :--format) COMPREPLY=($(compgen -W 'text jsonl' -- "$cur")) ;;
    :--executor) COMPREPLY=($(compgen -W 'local slurm' -- "$cur")) ;;
    :--plan-from) COMPREPLY=($(compgen -W 'auto runner dialect' -- "$cur")) ;;
    :--only) COMPREPLY=($(compgen -W 'train eval export infer check' -- "$cur")) ;;
    :--dialect) COMPREPLY=($(compgen -W 'paddleclas paddledetection paddlegan paddleocr paddleseg paddlevideo' -- "$cur")) ;;
    :--launcher) COMPREPLY=($(compgen -W 'paddle-gpus paddle-devices paddle-devices-quoted torch-run rank-env' -- "$cur")) ;;
    :--gpus) COMPREPLY=($(compgen -W 'none' -- "$cur")) ;;
    :--dialect-dir | :--repo-root | report:--bundle | report:-o | report:--output) COMPREPLY=($(compgen -d -- "$cur")) ;;
    :--settings | :--resource-spec | :--python | :--runner | :--bundle | *:--log | *:--json | *:--config | *:--layout | \
      *:--layer-map | *:--gt) COMPREPLY=($(compgen -f -- "$cur")) ;;
    diff:--method) COMPREPLY=($(compgen -W 'mean min max all' -- "$cur")) ;;
    padiff:--mode) COMPREPLY=($(compgen -W 'mean strict abs_mean' -- "$cur")) ;;
    padiff:--phase) COMPREPLY=($(compgen -W 'both forward backward' -- "$cur")) ;;
    compare-results:--format) COMPREPLY=($(compgen -W 'tipc video metric' -- "$cur")) ;;
    :-j | :--jobs | :--timeout | :--retries | :--shard | :--partition | :--account | :-k | *:--threshold | *:--atol | *:--rtol | \
      *:--top | *:--bins | *:--key) ;;
    *) return 1 ;;
  esac
  return 0
}

_tipc_run() {
  local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
  local subcommand=""
  [[ " $_tipc_run_subcommands " == *" ${COMP_WORDS[1]} "* ]] && [ "$COMP_CWORD" -gt 1 ] && subcommand="${COMP_WORDS[1]}"
  COMPREPLY=()
  _tipc_run_option_values "$subcommand" "$prev" "$cur" && return 0

  if [[ "$cur" == -* ]]; then
    if [ -n "$subcommand" ]; then
      COMPREPLY=($(compgen -W "$(_tipc_run_subcommand_options "$subcommand")" -- "$cur"))
    else
      COMPREPLY=($(compgen -W "$_tipc_run_options" -- "$cur"))
    fi
    return 0
  fi
  if [ -n "$subcommand" ]; then
    COMPREPLY=($(compgen -f -- "$cur"))
    return 0
  fi
  # The positionals of a chain run: CONFIG (a .txt file or a directory), then MODE.
  local positionals=0 i
  for ((i = 1; i < COMP_CWORD; i++)); do
    [[ "${COMP_WORDS[i]}" == -* ]] && continue
    _tipc_run_option_values "" "${COMP_WORDS[i-1]}" "" >/dev/null 2>&1 && [ $i -gt 1 ] && continue
    positionals=$((positionals + 1))
  done
  COMPREPLY=()
  case $positionals in
    0)
      compopt -o filenames 2>/dev/null
      COMPREPLY=($(compgen -W "$_tipc_run_subcommands" -- "$cur") $(compgen -d -- "$cur") $(compgen -f -X '!*.txt' -- "$cur"))
      ;;
    1) COMPREPLY=($(compgen -W "$_tipc_run_modes" -- "$cur")) ;;
  esac
  return 0
}
complete -F _tipc_run tipc-run
