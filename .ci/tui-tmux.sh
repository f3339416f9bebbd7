#!/usr/bin/env bash
# Real-terminal test of the TUI (issue 6): start the built binary in tmux at
# 160×45, open the bucket lesson from the catalog, go to the 12-hour
# comparison, run it, assert that both variants' outputs and the figures
# 720 and 12 are on screen at once, then quit and expect exit code 0.
set -euo pipefail
cd "$(dirname "$0")/.."

PKG=${TUI_TMUX_PKG:-./cmd/schemalab}
if ! command -v tmux >/dev/null; then
  apt-get update -qq && apt-get install -y -qq tmux >/dev/null
fi

work=$(mktemp -d)
session="schemalab-ci-$$"
cleanup() { tmux kill-session -t "$session" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

go build -o "$work/schemalab" "$PKG"

screen() { tmux capture-pane -t "$session" -p; }
fail() {
  echo "tui-tmux: $*" >&2
  echo "---- screen ----" >&2
  screen >&2 || true
  exit 1
}
# wait_for PATTERN SECONDS: poll the screen until grep -E matches.
wait_for() {
  local deadline=$((SECONDS + $2))
  while ((SECONDS < deadline)); do
    screen | grep -qE -- "$1" && return 0
    sleep 0.1
  done
  fail "timed out waiting for /$1/"
}

tmux new-session -d -s "$session" -x 160 -y 45 \
  "env SCHEMALAB_STATE_DIR='$work/state' TERM=xterm-256color '$work/schemalab'; echo \$? > '$work/rc'; sleep 30"

wait_for 'sandbox: embedded sandbox' 20

# Catalog: move the cursor to the bucket lesson and open it.
for _ in $(seq 1 30); do
  screen | grep -E '^▸ ' | grep -qi 'bucket' && break
  tmux send-keys -t "$session" j
  sleep 0.1
done
screen | grep -E '^▸ ' | grep -qi 'bucket' || fail "no bucket lesson in the catalog"
tmux send-keys -t "$session" Enter
wait_for 'Step [0-9]+ of [0-9]+' 10

# Steps: go forward to the 12-hour comparison.
for _ in $(seq 1 30); do
  screen | grep -E 'Step [0-9]+ of [0-9]+' | grep -qiE '12-hour|12 hour' && break
  tmux send-keys -t "$session" n
  sleep 0.15
done
screen | grep -E 'Step [0-9]+ of [0-9]+' | grep -qiE '12-hour|12 hour' || fail "no 12-hour comparison step"

# Run it (earlier steps are replayed first) and wait for the figures.
tmux send-keys -t "$session" Enter
wait_for 'ran in' 120

shot=$(screen)
echo "$shot" | grep -qE '─ flat ─' || fail "the flat variant's column is not on screen"
echo "$shot" | grep -qE '─ bucketed ─' || fail "the bucketed variant's column is not on screen"
echo "$shot" | grep -qE 'keys: 720' || fail "the flat variant's output (keys: 720) is not on screen"
echo "$shot" | grep -qE 'keys: 12\b' || fail "the bucketed variant's output (keys: 12) is not on screen"
echo "$shot" | grep -E 'keys examined' | grep -qE '\b720\b.*\b12\b' || fail "the figures 720 and 12 are not on the keys examined row"

# Quit cleanly.
tmux send-keys -t "$session" q
for _ in $(seq 1 50); do
  [[ -s "$work/rc" ]] && break
  sleep 0.1
done
[[ -s "$work/rc" ]] || fail "the app did not quit on q"
rc=$(cat "$work/rc")
[[ "$rc" == 0 ]] || fail "exit code $rc, want 0"
echo "tui-tmux: ok (bucket 12-hour comparison shows flat 720 and bucketed 12)"
