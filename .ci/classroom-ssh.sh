#!/usr/bin/env bash
# Real-SSH test of the classroom (issues 17 and 21): build the binary, start
# `schemalab classroom` with freshly generated keys in --allow-keys and
# --instructor-keys, log two students in with OpenSSH's own ssh client
# inside tmux, each in a process of their own; open the bucket lesson and
# run its first step; kill one student's process (kill -9) and check that
# they are told why while their classmate's session goes on and runs a step;
# log the first back in at the same step; refuse a student's key under the
# instructor's name; quit, expect ssh to exit 0, and a log without colour
# codes or errors.
set -euo pipefail
cd "$(dirname "$0")/.."

PKG=${CLASSROOM_SSH_PKG:-./cmd/schemalab}
if ! command -v ssh >/dev/null || ! command -v ssh-keygen >/dev/null || ! command -v tmux >/dev/null; then
  apt-get update -qq && apt-get install -y -qq openssh-client tmux >/dev/null
fi

work=$(mktemp -d)
session="schemalab-classroom-ci-$$"
classmate="schemalab-classroom-ci2-$$"
server_pid=""
cleanup() {
  tmux kill-session -t "$session" 2>/dev/null || true
  tmux kill-session -t "$classmate" 2>/dev/null || true
  if [[ -n "$server_pid" ]]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  [[ -n "${KEEP:-}" ]] || rm -rf "$work"
}
trap cleanup EXIT

screen() { tmux capture-pane -t "${1:-$session}" -p; }
fail() {
  echo "classroom-ssh: $*" >&2
  echo "---- screen ----" >&2
  screen >&2 || true
  echo "---- classroom output ----" >&2
  cat "$work/out" "$work/err" >&2 || true
  exit 1
}
# wait_for PATTERN SECONDS [SESSION]: poll the screen until grep -E matches.
wait_for() {
  local deadline=$((SECONDS + $2))
  while ((SECONDS < deadline)); do
    screen "${3:-}" | grep -qE -- "$1" && return 0
    sleep 0.1
  done
  echo "---- screen of ${3:-$session} ----" >&2
  screen "${3:-}" >&2 || true
  fail "timed out waiting for /$1/"
}
# open_bucket SESSION: from the catalog, open the bucket lesson at step 1.
open_bucket() {
  for _ in $(seq 1 10); do
    screen "$1" | grep -E '^▸ ' | grep -qi 'bucket' && break
    tmux send-keys -t "$1" j
    sleep 0.1
  done
  screen "$1" | grep -E '^▸ ' | grep -qi 'bucket' || fail "no bucket lesson in the catalog"
  tmux send-keys -t "$1" Enter
  # A lesson opens on its introduction; n goes to step 1.
  wait_for 'Introduction' 10 "$1"
  tmux send-keys -t "$1" n
  wait_for 'Step 1 of [0-9]+' 10 "$1"
}
# student_pid NAME: the process of NAME's session, a child of the classroom.
student_pid() {
  local pid
  for pid in $(pgrep -P "$server_pid" 2>/dev/null); do
    if tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q classroom-student; then
      # The room logs each student's process id when it starts it.
      grep -q "$1: process $pid " "$work/err" && echo "$pid" && return 0
    fi
  done
  return 1
}

go build -o "$work/schemalab" "$PKG"
ssh-keygen -q -t ed25519 -N '' -C classroom-ci -f "$work/key"
ssh-keygen -q -t ed25519 -N '' -C classroom-ci2 -f "$work/key2"
ssh-keygen -q -t ed25519 -N '' -C classroom-teacher -f "$work/teacher"
cat "$work/key.pub" "$work/key2.pub" >"$work/allowed_keys"
cp "$work/teacher.pub" "$work/instructor_keys"

# Port 0: the kernel picks a free port; the first line says which.
SCHEMALAB_STATE_DIR="$work/state" "$work/schemalab" classroom --listen 127.0.0.1:0 \
  --allow-keys "$work/allowed_keys" --instructor teacher --instructor-keys "$work/instructor_keys" \
  >"$work/out" 2>"$work/err" </dev/null &
server_pid=$!
port=""
for _ in $(seq 1 100); do
  port=$(sed -n 's/^schemalab classroom: listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$work/out" 2>/dev/null || true)
  [[ -n "$port" ]] && break
  kill -0 "$server_pid" 2>/dev/null || fail "the classroom exited at start-up"
  sleep 0.1
done
[[ -n "$port" ]] || fail "the classroom did not say where it listens"

ssh_opts="-p $port -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o IdentitiesOnly=yes -o LogLevel=ERROR"
tmux new-session -d -s "$session" -x 140 -y 40 \
  "ssh -i '$work/key' $ssh_opts student@127.0.0.1; echo \$? > '$work/rc'; sleep 60"
tmux new-session -d -s "$classmate" -x 140 -y 40 \
  "ssh -i '$work/key2' $ssh_opts classmate@127.0.0.1; echo \$? > '$work/rc2'; sleep 60"

wait_for 'Lessons' 20
wait_for 'Lessons' 20 "$classmate"
open_bucket "$session"
open_bucket "$classmate"

# Run the first step: 144,000 readings, from the room's shared template.
tmux send-keys -t "$session" Enter
wait_for 'ran in' 120
shot=$(screen)
echo "$shot" | grep -qE '\b144000\b' || fail "the step's output (144000 readings) is not on screen"
echo "$shot" | grep -qE 'expected output found' || fail "the step's expectation is not reported as met"

# Each student runs in a process of their own. Kill the first one's.
pid=$(student_pid student) || fail "no process of the student's session among the classroom's children"
pid2=$(student_pid classmate) || fail "no process of the classmate's session among the classroom's children"
[[ "$pid" != "$pid2" ]] || fail "the two students share a process"
kill -9 "$pid"
wait_for 'your session stopped unexpectedly \(killed\)' 20
for _ in $(seq 1 50); do
  [[ -s "$work/rc" ]] && break
  sleep 0.1
done
[[ "$(cat "$work/rc" 2>/dev/null)" == 1 ]] || fail "the crashed session's ssh did not exit 1"

# The classmate's session and the room went on: run a step there.
kill -0 "$pid2" 2>/dev/null || fail "the classmate's process died with the other"
kill -0 "$server_pid" 2>/dev/null || fail "the classroom died with a student's process"
tmux send-keys -t "$classmate" Enter
wait_for 'ran in' 120 "$classmate"
screen "$classmate" | grep -qE '\b144000\b' || fail "the classmate's step did not run after the crash"

# The student logs in again, at the step they were on.
rm -f "$work/rc"
tmux kill-session -t "$session"
tmux new-session -d -s "$session" -x 140 -y 40 \
  "ssh -i '$work/key' $ssh_opts student@127.0.0.1; echo \$? > '$work/rc'; sleep 60"
wait_for 'Step 1 of [0-9]+' 20

# A student's key under the instructor's name is refused, saying why. (A
# login name of escape sequences, which OpenSSH's client will not send, is
# tested with Go's client: TestRefusedLoginNamesReachTheLogDisarmed.)
if ssh -o LogLevel=INFO -i "$work/key" $ssh_opts -o BatchMode=yes teacher@127.0.0.1 true 2>"$work/teacher-err" </dev/null; then
  fail "a student's key logged in as the instructor"
fi
grep -q "is the instructor's, and only the instructor's keys" "$work/teacher-err" || fail "the refusal did not say why: $(cat "$work/teacher-err")"
if grep -q $'\e\[' "$work/err"; then
  fail "the log holds colour codes"
fi

# Quit: the sessions end and ssh exits 0.
for s in "$session" "$classmate"; do tmux send-keys -t "$s" q; done
for _ in $(seq 1 50); do
  [[ -s "$work/rc" && -s "$work/rc2" ]] && break
  sleep 0.1
done
[[ -s "$work/rc" && -s "$work/rc2" ]] || fail "the sessions did not end on q"
[[ "$(cat "$work/rc")" == 0 && "$(cat "$work/rc2")" == 0 ]] || fail "ssh exited with $(cat "$work/rc") and $(cat "$work/rc2"), want 0"
grep -q 'student connect' "$work/err" || fail "the classroom did not log the connection"
if grep -q 'ERROR' "$work/err"; then
  fail "the log reports an error for students' ordinary sessions: $(grep ERROR "$work/err")"
fi
echo "classroom-ssh: ok (two students on 127.0.0.1:$port, each in a process of their own; one killed with -9 was told why and came back at its step while the other ran the bucket lesson's first step; the instructor's name refused a student's key; no colour codes or errors in the log)"
