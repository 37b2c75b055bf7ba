#!/usr/bin/env bash
# The steps of examples/github-actions/yolo.yml, run against the recorded example session instead of a model,
# everything except the pull request: yolo on the "issue" text with --ci --json --branch, the markdown report to
# the job summary, the JUnit report, the logs. Fails unless every step exits as it should. Keep the two in step.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
example="$repo/examples/add-numbers"
yolo() { node "$repo/bin/yolo.js" "$@"; }
fail() { echo "ci-example: $*" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
RUNNER_TEMP="$work/runner-temp"
GITHUB_STEP_SUMMARY="$RUNNER_TEMP/summary.md"
mkdir -p "$work/repo" "$RUNNER_TEMP"
cp -R "$example/project/." "$work/repo/"
cd "$work/repo"
git init -q
git add -A
git -c user.name=ci -c user.email=ci@localhost commit -qm "add-numbers: tests for add(a, b)"

# "Sandbox for yolo's commands": installing bubblewrap and the sysctl are the runner's business here (.ci/run);
# with it working the run is YOLO_SANDBOX=required, as in the workflow. Under CI it must work.
if bwrap --ro-bind / / --dev /dev --unshare-pid --unshare-net --proc /proc true 2>/dev/null; then
  export YOLO_SANDBOX=required
elif [ -n "${CI:-}" ]; then
  fail "bubblewrap does not work here, and the workflow requires it"
fi

# "Install the project": the example has no dependencies.
# "Run yolo on the issue" (offline: --replay instead of OPENAI_API_KEY, and no model configured at all).
git config user.name "yolo"
git config user.email "yolo@localhost"
ISSUE_TITLE="$(cat "$example/requirement.txt")"
set +e
(unset OPENAI_API_KEY OPENAI_BASE_URL; yolo run --ci --json --branch --replay "$example/session.jsonl" "$ISSUE_TITLE") > "$RUNNER_TEMP/yolo-events.jsonl"
code=$?
set -e
thread=$(head -n 1 "$RUNNER_TEMP/yolo-events.jsonl" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{try{process.stdout.write(JSON.parse(s).thread)}catch{}})')
[ "$code" -eq 0 ] || fail "yolo run exited $code, expected 0 (see $RUNNER_TEMP/yolo-events.jsonl)"
[ -n "$thread" ] || fail "no thread id in the first event"
if [ -n "${YOLO_SANDBOX:-}" ]; then
  head -n 1 "$RUNNER_TEMP/yolo-events.jsonl" | grep -q '"sandbox":{"kind":"bwrap"}' || fail "run.started does not say the run is sandboxed in bwrap"
fi
last=$(tail -n 1 "$RUNNER_TEMP/yolo-events.jsonl")
case "$last" in *'"type":"run.completed"'*'"exitCode":0'*) ;; *) fail "the last event is not run.completed with exitCode 0: $last" ;; esac

# "Report"
yolo report "$thread" --format markdown >> "$GITHUB_STEP_SUMMARY"
yolo report "$thread" --format markdown --output "$RUNNER_TEMP/yolo-report.md"
yolo report "$thread" --format junit --output "$RUNNER_TEMP/yolo-junit.xml"
grep -q "yolo passed" "$GITHUB_STEP_SUMMARY" || fail "the job summary does not say the run passed"
grep -q '<testsuites ' "$RUNNER_TEMP/yolo-junit.xml" || fail "no JUnit testsuites"
grep -q 'failures="0"' "$RUNNER_TEMP/yolo-junit.xml" || fail "JUnit reports failures"

# "Upload logs and gate results": what the artifact would hold exists.
[ -s ".yolo/logs/$thread.log" ] || fail "no log file .yolo/logs/$thread.log"

# "Open a pull request" is not run here; what it would push is checked instead.
[ "$(git branch --show-current)" = "yolo/$thread" ] || fail "not on the branch yolo/$thread"
git log --format=%s -1 | grep -q "^yolo($thread): " || fail "no yolo commit on yolo/$thread"
[ -z "$(git status --porcelain)" ] || fail "the work tree is not clean after the run: $(git status --porcelain)"

echo "ci-example: ok (thread $thread, exit $code; report, JUnit, logs and branch yolo/$thread checked)"
