#!/usr/bin/env bash
# run-demo.sh: what `make run` runs. It copies this repository (the files git
# tracks, as they are in the working tree) to a scratch directory, makes it a
# git repository, and plays examples/demo.jsonl there with the replay model:
# offline, no API key, a few seconds. Your checkout is never touched.
#
# Environment: AGENTCORE_BIN (default bin/agentcore-external),
# SCENARIO (default examples/demo.jsonl; relative to the repository, or
# absolute), MODE (the permission mode,
# default bypassPermissions), KEEP=1 keeps the scratch copy.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
bin=${AGENTCORE_BIN:-$root/bin/agentcore-external}
scenario=${SCENARIO:-examples/demo.jsonl}
case $bin in /*) ;; *) bin=$root/$bin ;; esac

if [[ ! -x $bin ]]; then
	echo "run-demo: $bin not found; build it with: make bin/agentcore-external" >&2
	exit 1
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/agentcore-demo.XXXXXX")
if [[ ${KEEP:-} != 1 ]]; then
	trap 'rm -rf "$scratch"' EXIT
fi

# Copy the tracked files (a fresh clone's content, plus local edits); from
# an unpacked archive without .git, everything but bin/.
if git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
	(cd "$root" && git ls-files -z | tar --null -T - --ignore-failed-read -cf - 2>/dev/null) | tar -xf - -C "$scratch"
else
	(cd "$root" && tar --exclude=./bin -cf - .) | tar -xf - -C "$scratch"
fi
# The scratch repository commits as "agentcore demo" (the tour commits),
# whatever git identity this machine has or lacks.
(cd "$scratch" && git init -q && git config user.name "agentcore demo" && git config user.email demo@localhost &&
	git add -A && git commit -qm "scratch copy" >/dev/null)

if [[ $scenario == /* ]]; then
	: # a scenario outside the repository is played where it is
elif [[ ! -f $scratch/$scenario ]]; then
	cp "$root/$scenario" "$scratch/$scenario" 2>/dev/null || { echo "run-demo: no scenario $scenario" >&2; exit 1; }
fi

echo "agentcore demo: the offline replay model (--model replay:$scenario, a script, no API key) at work on a scratch copy of this repo ($scratch)"
echo
cd "$scratch"
# Not exec: the EXIT trap removes the scratch copy when agentcore ends,
# Ctrl+C included.
status=0
"$bin" run --model "replay:$scenario" \
	--permission-mode "${MODE:-bypassPermissions}" --disallowedTools "Bash(rm:*)" "$@" || status=$?
exit "$status"
