#!/usr/bin/env bash
# Real-SSH test of the classroom (issue 17): build the binary, start
# `schemalab classroom` with a freshly generated key in --allow-keys, log in
# with OpenSSH's own ssh client inside tmux, open the bucket lesson, run its
# first step, check the screen, quit, and expect ssh to exit 0.
set -euo pipefail
cd "$(dirname "$0")/.."

PKG=${CLASSROOM_SSH_PKG:-./cmd/schemalab}
if ! command -v ssh >/dev/null || ! command -v ssh-keygen >/dev/null || ! command -v tmux >/dev/null; then
  apt-get update -qq && apt-get install -y -qq openssh-client tmux >/dev/null
fi

work=$(mktemp -d)
session="schemalab-classroom-ci-$$"
server_pid=""
cleanup() {
  tmux kill-session -t "$session" 2>/dev/null || true
  if [[ -n "$server_pid" ]]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

screen() { tmux capture-pane -t "$session" -p; }
fail() {
  echo "classroom-ssh: $*" >&2
  echo "---- screen ----" >&2
  screen >&2 || true
  echo "---- classroom output ----" >&2
  cat "$work/out" "$work/err" >&2 || true
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

go build -o "$work/schemalab" "$PKG"
ssh-keygen -q -t ed25519 -N '' -C classroom-ci -f "$work/key"
cp "$work/key.pub" "$work/allowed_keys"

# Port 0: the kernel picks a free port; the first line says which.
SCHEMALAB_STATE_DIR="$work/state" "$work/schemalab" classroom --listen 127.0.0.1:0 \
  --allow-keys "$work/allowed_keys" >"$work/out" 2>"$work/err" </dev/null &
server_pid=$!
port=""
for _ in $(seq 1 100); do
  port=$(sed -n 's/^schemalab classroom: listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$work/out" 2>/dev/null || true)
  [[ -n "$port" ]] && break
  kill -0 "$server_pid" 2>/dev/null || fail "the classroom exited at start-up"
  sleep 0.1
done
[[ -n "$port" ]] || fail "the classroom did not say where it listens"

tmux new-session -d -s "$session" -x 140 -y 40 \
  "ssh -i '$work/key' -p $port -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o IdentitiesOnly=yes -o LogLevel=ERROR student@127.0.0.1; echo \$? > '$work/rc'; sleep 30"

wait_for 'Lessons' 20

# Catalog: move the cursor to the bucket lesson and open it.
for _ in $(seq 1 10); do
  screen | grep -E '^▸ ' | grep -qi 'bucket' && break
  tmux send-keys -t "$session" j
  sleep 0.1
done
screen | grep -E '^▸ ' | grep -qi 'bucket' || fail "no bucket lesson in the catalog"
tmux send-keys -t "$session" Enter
# A lesson opens on its introduction; n goes to step 1.
wait_for 'Introduction' 10
tmux send-keys -t "$session" n
wait_for 'Step 1 of [0-9]+' 10

# Run the first step: 144,000 readings are generated on the shared sandbox.
tmux send-keys -t "$session" Enter
wait_for 'ran in' 120
shot=$(screen)
echo "$shot" | grep -qE '\b144000\b' || fail "the step's output (144000 readings) is not on screen"
echo "$shot" | grep -qE 'expected output found' || fail "the step's expectation is not reported as met"

# Quit: the session ends and ssh exits 0.
tmux send-keys -t "$session" q
for _ in $(seq 1 50); do
  [[ -s "$work/rc" ]] && break
  sleep 0.1
done
[[ -s "$work/rc" ]] || fail "the session did not end on q"
rc=$(cat "$work/rc")
[[ "$rc" == 0 ]] || fail "ssh exited with $rc, want 0"
grep -q 'student connect' "$work/err" || fail "the classroom did not log the connection"
echo "classroom-ssh: ok (ssh student@127.0.0.1:$port ran the bucket lesson's first step: 144000 readings)"
