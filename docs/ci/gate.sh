#!/bin/sh
# Maestro knowledge gate for any CI. Run from the project root:
#   sh docs/ci/gate.sh              # gate every session
#   sh docs/ci/gate.sh origin/main  # gate only the sessions changed since that ref
# Writes the JSON document (keep it as an artifact) and a Markdown report (post it as a summary),
# prints the report, and exits with the gate's own code: 0 passed, 1 refused, 2 bad input, 3 environment.
# MAESTRO overrides the command (e.g. MAESTRO="node /opt/maestro/apps/maestro/dist/main.js").
set -u
MAESTRO=${MAESTRO:-maestro}
GATE_JSON=${GATE_JSON:-knowledge-gate.json}
GATE_MARKDOWN=${GATE_MARKDOWN:-knowledge-gate.md}
if [ $# -gt 0 ] && [ -n "$1" ]; then
  set -- --changed-since "$1"
else
  set -- --all
fi
code=0
# shellcheck disable=SC2086 # MAESTRO may be a command with arguments
$MAESTRO knowledge gate "$@" --json > "$GATE_JSON" || code=$?
# shellcheck disable=SC2086
$MAESTRO knowledge gate "$@" --format markdown > "$GATE_MARKDOWN" || true
cat "$GATE_MARKDOWN"
if [ "$code" -ne 0 ]; then
  echo "knowledge gate failed (exit $code); the document is in $GATE_JSON" >&2
fi
exit "$code"
