#!/usr/bin/env bash
# The search policy from the command line, as a user runs it: policy-data, train-policy, then
# search --policy on a bundled problem (solved); a campaign's solutions as data (policy-data
# --from-run) teaching the policy more (train-policy --init); a missing policy file, --policy
# with GP, a run without a ledger and a run of another suite are refused with exit 2 and a
# message naming the file or the rule.
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
# --policy in a --config file: gpusynth hands the command line to gpusynth-neural too (which reads
# the file: the policy guides the search); under another command's section it does not apply.
printf '# guided\n[campaign]\npolicy = %s\n[search]\npolicy = %s  # this one\ngenerator = enumerate\n' \
  "$work/none.pt" "$work/policy.pt" > "$work/search.ini"
"$gpusynth" search -p "$problem" --budget 300000 --config "$work/search.ini" > "$work/ini.log" 2>&1 ||
  { cat "$work/ini.log"; exit 1; }
grep -q "listfunctions-c002: solved" "$work/ini.log" || { cat "$work/ini.log"; exit 1; }
set +e
"$gpusynth" search -p "$problem" -g random --budget 1000 --policy "$work/policy.pt" -q > "$work/random.log" 2>&1
status=$?
set -e
[ "$status" = 2 ] && grep -q "goes with --generator enumerate, gp or portfolio" "$work/random.log" ||
  { cat "$work/random.log"; exit 1; }
# GP guided by the policy: its mutations draw from it (search/gp_guide.h); the search runs its budget.
"$gpusynth" search -p "$problem" -g gp --budget 3000 --policy "$work/policy.pt" > "$work/gp.log" 2>&1 ||
  { cat "$work/gp.log"; exit 1; }
grep -q "listfunctions-c002: " "$work/gp.log" || { cat "$work/gp.log"; exit 1; }
mkdir -p "$work/suite"
# c009 and c015: answers whose uses name productions of the policy's vocabulary (fold_mul, ...)
cp "$src/problems/listfunctions/listfunctions-c009.json" "$src/problems/listfunctions/listfunctions-c015.json" "$work/suite/"
"$gpusynth" campaign --suite "$work/suite" --out "$work/run" -g enumerate --budget 100000 --policy "$work/policy.pt" -q \
  > "$work/campaign.log" 2>&1
grep -q '"uses"' "$work/run/campaign.jsonl" || { cat "$work/run/campaign.jsonl"; exit 1; }
"$gpusynth" policy-data --from-run "$work/run" --suite "$work/suite" -o "$work/learned.jsonl" > "$work/from-run.log"
[ "$(wc -l < "$work/learned.jsonl")" -ge 1 ] || { cat "$work/from-run.log"; exit 1; }
"$gpusynth" train-policy --init "$work/policy.pt" --data "$work/learned.jsonl" -o "$work/policy2.pt" --steps 5 \
  > "$work/train2.log"
grep -q "from $work/policy.pt (step 60)" "$work/train2.log" || { cat "$work/train2.log"; exit 1; }
"$gpusynth" search -p "$problem" -g enumerate --budget 300000 --policy "$work/policy2.pt" -q > "$work/search2.log" 2>&1
grep -q "listfunctions-c002: solved" "$work/search2.log" || { cat "$work/search2.log"; exit 1; }
for bad in "--from-run $work/none --suite $work/suite" "--from-run $work/run --suite $src/problems/psb1"; do
  set +e
  # shellcheck disable=SC2086
  "$gpusynth" policy-data -o "$work/bad.jsonl" $bad > "$work/bad.log" 2>&1
  status=$?
  set -e
  [ "$status" = 2 ] && grep -q "campaign.jsonl" "$work/bad.log" || { cat "$work/bad.log"; exit 1; }
done
set +e
"$gpusynth" policy-data -o "$work/bad.jsonl" --from-run "$work/run" --suite "$work/suite" -n 5 > "$work/bad.log" 2>&1
status=$?
set -e
[ "$status" = 2 ] && grep -q -- "--examples makes self-play problems" "$work/bad.log" || { cat "$work/bad.log"; exit 1; }
echo "policy_cli_test: ok"
