# Sourced by scripts that run long, chatty steps (tools/peers/build.sh,
# scripts/image-rootfs.sh).

# Runs a command with its output in a log file, shown only when it fails.
quiet() {
  local logf
  logf=$(mktemp)
  if ! "$@" >"$logf" 2>&1; then
    tail -n 40 "$logf" >&2
    rm -f "$logf"
    return 1
  fi
  rm -f "$logf"
}
