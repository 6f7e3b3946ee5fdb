# bash completion for tipc-run (installed as share/bash-completion/completions/tipc-run).
# Completes the subcommands and configs in the first position, then the modes of the
# config's chain (asked of tipc-run itself: `tipc-run modes CONFIG`), and each command's
# options and their values. tests/install/install_test.cpp checks it against every --help.

_tipc_run_options='--dry-run --format --compat --plan-from --runner --dialect --python --trace-env --dialect-dir --repo-root --launcher
  --settings -j --jobs --gpus --expect-gpus --resource-spec --timeout --idle-timeout --retries -x --fail-fast --strict --allow-nothing --offline --no-wait
  --executor --partition --account --prepare-script -q --quiet -v --verbose --only -k --exclude --shard --resume --bundle
  --history --no-history --baseline --bisect
  -h --help --version'
# The train/inference chain's modes: what a config's modes are when tipc-run cannot say.
_tipc_run_modes='lite_train_lite_infer lite_train_whole_infer whole_train_whole_infer whole_infer
  klquant_whole_infer benchmark_train'
# The subcommands --help lists; `modes` (a tool's command) and `setup` (a plan's) are
# completed only once typed.
_tipc_run_subcommands='report compare history diff acceptance padiff init-check compare-results help'
_tipc_run_unlisted='modes setup'

# The options of a subcommand (tipc-run SUBCOMMAND --help lists them with their meaning).
_tipc_run_subcommand_options() {
  case "$1" in
    report) echo '-o --output --bundle --strict --allow-nothing --history --no-history -h --help' ;;
    history) echo '--stage --runs --history --html --settings -h --help' ;;
    'history import') echo '--history -h --help' ;;
    compare) echo '--history --settings --markdown --json --junit --all --runs -h --help' ;;
    diff) echo '--method --threshold --log --layout --json --compat -h --help' ;;
    acceptance) echo '--config --bundle --attach --compat -h --help' ;;
    padiff) echo '--mode --atol --rtol --phase --layer-map --layout --top --padiff-compat -h --help' ;;
    init-check) echo '--key --bins --threshold --json -h --help' ;;
    compare-results) echo '--gt --log --atol --rtol --compare --format --json -h --help' ;;
    help) echo '-h --help' ;;
    modes) echo '--dialect-dir -h --help' ;;
    setup) echo '--offline --allow -h --help' ;;
  esac
}

# The executors tipc-run registers (run/executor_registry.h), as its --help lists them:
# `--executor TEXT:{local,slurm}`.
_tipc_run_executors() {
  tipc-run --help 2>/dev/null | sed -n 's/.*--executor TEXT:{\([^}]*\)}.*/\1/p' | tr ',' ' '
}

# Values of an option; returns 1 when the option takes none (or any word).
_tipc_run_option_values() {
  local subcommand="$1" option="$2" cur="$3"
  case "$subcommand:$option" in
    :--format) COMPREPLY=($(compgen -W 'text jsonl' -- "$cur")) ;;
    :--executor) COMPREPLY=($(compgen -W "$(_tipc_run_executors)" -- "$cur")) ;;
    :--plan-from) COMPREPLY=($(compgen -W 'auto runner dialect' -- "$cur")) ;;
    :--only) COMPREPLY=($(compgen -W 'train eval export infer check convert service other setup' -- "$cur")) ;;
    :--dialect) COMPREPLY=($(compgen -W 'paddleclas paddledetection paddlegan paddleocr paddleseg paddlevideo' -- "$cur")) ;;
    :--launcher) COMPREPLY=($(compgen -W 'paddle-gpus paddle-devices paddle-devices-quoted torch-run rank-env' -- "$cur")) ;;
    :--gpus) COMPREPLY=($(compgen -W 'none' -- "$cur")) ;;
    :--dialect-dir | modes:--dialect-dir | setup:--allow | :--repo-root | report:-o | report:--output | history:--html) COMPREPLY=($(compgen -d -- "$cur")) ;;
    :--settings | :--resource-spec | :--python | :--runner | *:--bundle | *:--log | *:--json | *:--config | *:--layout | \
      *:--layer-map | *:--attach | *:--gt) COMPREPLY=($(compgen -f -- "$cur")) ;;
    diff:--method) COMPREPLY=($(compgen -W 'mean min max all' -- "$cur")) ;;
    padiff:--mode) COMPREPLY=($(compgen -W 'mean strict abs_mean' -- "$cur")) ;;
    padiff:--phase) COMPREPLY=($(compgen -W 'both forward backward' -- "$cur")) ;;
    compare-results:--compare) COMPREPLY=($(compgen -W 'allclose labels' -- "$cur")) ;;
    compare-results:--format) COMPREPLY=($(compgen -W 'tipc video metric' -- "$cur")) ;;
    :-j | :--jobs | :--timeout | :--idle-timeout | :--expect-gpus | :--retries | :--shard | :--partition | :--account | :-k | :--exclude | *:--threshold | *:--atol | *:--rtol | \
      *:--top | *:--bins | *:--key) ;;
    *) return 1 ;;
  esac
  return 0
}

# The modes of CONFIG's chain, one a line, asked of the tipc-run being completed (it reads
# chains.yaml, under --dialect-dir when the line gives one); the train/inference modes when
# it cannot say (no such program or config yet, or it takes over 2 seconds).
_tipc_run_config_modes() {
  local config="${1/#\~/$HOME}" dialect_dir="${2/#\~/$HOME}" modes
  local -a ask=("${COMP_WORDS[0]/#\~/$HOME}" modes "$config")
  [ -n "$dialect_dir" ] && ask+=(--dialect-dir "$dialect_dir")
  command -v timeout >/dev/null 2>&1 && ask=(timeout 2 "${ask[@]}")
  modes=$("${ask[@]}" 2>/dev/null </dev/null) && [ -n "$modes" ] && { echo "$modes"; return 0; }
  echo "$_tipc_run_modes"
}

# The words after a subcommand: its options, their values, else its positionals.
_tipc_run_subcommand() {
  local subcommand="$1" prev="$2" cur="$3"
  # `history import DIR_OR_BUNDLE...` has options of its own; after `history`: import, or a METRIC.
  [ "$subcommand" = history ] && [ "${COMP_WORDS[2]}" = import ] && [ "$COMP_CWORD" -gt 2 ] && subcommand='history import'
  if [ "$subcommand" = history ] && [ "$COMP_CWORD" -eq 2 ] && [[ "$cur" != -* ]]; then
    COMPREPLY=($(compgen -W 'import' -- "$cur"))
    return 0
  fi
  _tipc_run_option_values "$subcommand" "$prev" "$cur" && return 0
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$(_tipc_run_subcommand_options "$subcommand")" -- "$cur"))
  elif [ "$subcommand" = help ]; then
    COMPREPLY=($(compgen -W "$_tipc_run_subcommands $_tipc_run_unlisted" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
  return 0
}

_tipc_run() {
  local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
  COMPREPLY=()
  if [[ " $_tipc_run_subcommands $_tipc_run_unlisted " == *" ${COMP_WORDS[1]} "* ]] && [ "$COMP_CWORD" -gt 1 ]; then
    _tipc_run_subcommand "${COMP_WORDS[1]}" "$prev" "$cur"
    return 0
  fi
  _tipc_run_option_values "" "$prev" "$cur" && return 0
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$_tipc_run_options" -- "$cur"))
    return 0
  fi
  # The positionals of a chain run: CONFIG (a .txt file or a directory), then MODE.
  local positionals=0 config="" dialect_dir="" i
  for ((i = 1; i < COMP_CWORD; i++)); do
    [ "${COMP_WORDS[i-1]}" = --dialect-dir ] && dialect_dir="${COMP_WORDS[i]}"
    [[ "${COMP_WORDS[i]}" == -* ]] && continue
    _tipc_run_option_values "" "${COMP_WORDS[i-1]}" "" >/dev/null 2>&1 && [ $i -gt 1 ] && continue
    [ $positionals -eq 0 ] && config="${COMP_WORDS[i]}"
    positionals=$((positionals + 1))
  done
  COMPREPLY=()
  case $positionals in
    0)
      compopt -o filenames 2>/dev/null
      COMPREPLY=($(compgen -W "$_tipc_run_subcommands" -- "$cur") $(compgen -d -- "$cur") $(compgen -f -X '!*.txt' -- "$cur"))
      ;;
    1) COMPREPLY=($(compgen -W "$(_tipc_run_config_modes "$config" "$dialect_dir")" -- "$cur")) ;;
  esac
  return 0
}
complete -F _tipc_run tipc-run
