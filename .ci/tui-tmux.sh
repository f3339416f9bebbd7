#!/usr/bin/env bash
# Real-terminal test of the TUI (issue 13): the built binary in tmux at
# 120×40 walks every step of every built-in lesson, runs what can run,
# scrolls each step's pane down and sideways, and asserts that every word
# of the prose and every identifier and string literal of the code appears
# unbroken on a screen line, that a comparison's prose shows at least 15
# rows (or all of it), and that q quits with exit code 0. The walk is
# tui.TestRealTerminalWalk; SCHEMALAB_TMUX_SIZE=80x24 or 200x50 walks at
# another size, and SCHEMALAB_TMUX_CAPTURES=DIR keeps each step's screen
# (tui/testdata/captures holds such captures, checked by a unit test).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v tmux >/dev/null; then
  apt-get update -qq && apt-get install -y -qq tmux >/dev/null
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
SCHEMALAB_TMUX_WALK=1 go test ./tui -run '^TestRealTerminalWalk$' -count=1 -timeout 20m -v >"$log" 2>&1 || status=$?
# The lesson-by-lesson verdicts, and on a failure what the screen showed.
if ((status == 0)); then
  grep -E -- '--- (PASS|FAIL)|^ok' "$log"
  echo "tui-tmux: ok (every step of every built-in lesson at 120×40)"
else
  cat "$log" >&2
  echo "tui-tmux: the real-terminal walk failed" >&2
fi
exit "$status"
