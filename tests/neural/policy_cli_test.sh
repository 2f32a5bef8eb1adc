#!/usr/bin/env bash
# The search policy from the command line, as a user runs it: policy-data, train-policy, then
# search --policy on a bundled problem (solved); a missing policy file and --policy with GP are
# refused with exit 2 and a message naming the file or the rule.
# usage: policy_cli_test.sh GPUSYNTH SOURCE_DIR WORK_DIR
set -euo pipefail
gpusynth=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
"$gpusynth" policy-data -o "$work/data.jsonl" -n 300 --budget 5000 -q
"$gpusynth" train-policy --data "$work/data.jsonl" -o "$work/policy.pt" --steps 60 --batch 32 --hidden 32 \
  > "$work/train.log"
grep -q "wrote $work/policy.pt" "$work/train.log"
problem=$src/problems/listfunctions/listfunctions-c002.json
"$gpusynth" search -p "$problem" -g enumerate --budget 300000 --policy "$work/policy.pt" -q > "$work/search.log" 2>&1
grep -q "listfunctions-c002: solved" "$work/search.log" || { cat "$work/search.log"; exit 1; }
set +e
"$gpusynth" search -p "$problem" -g enumerate --budget 1000 --policy "$work/none.pt" -q > "$work/none.log" 2>&1
status=$?
set -e
[ "$status" = 2 ] && grep -q "none.pt: no such policy file" "$work/none.log" || { cat "$work/none.log"; exit 1; }
set +e
"$gpusynth" search -p "$problem" -g gp --budget 1000 --policy "$work/policy.pt" -q > "$work/gp.log" 2>&1
status=$?
set -e
[ "$status" = 2 ] && grep -q "goes with --generator enumerate or portfolio" "$work/gp.log" || { cat "$work/gp.log"; exit 1; }
echo "policy_cli_test: ok"
