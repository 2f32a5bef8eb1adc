#!/usr/bin/env bash
# A campaign whose search policy learns as it goes (campaign --policy --learn-every), as a user runs
# it: on one process and, when MPIRUN is given, on two ranks. Each round's problems are searched
# with the policy of that round (the ledger and the records name it, step by step), the policy
# is written to RUN/policy.pt after each round, the two ranks learn the same steps as one
# process, a finished campaign run again learns nothing more, a resumed one starts from
# RUN/policy.pt with the ledger's solutions, and --learn-every without --policy is refused.
# usage: learning_campaign_test.sh GPUSYNTH SOURCE_DIR WORK_DIR [MPIRUN]
set -euo pipefail
gpusynth=$1 src=$2 work=$3 mpirun=${4:-}
rm -rf "$work" && mkdir -p "$work/suite"
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
"$gpusynth" policy-data -o "$work/data.jsonl" -n 300 --budget 5000 -q
"$gpusynth" train-policy --data "$work/data.jsonl" -o "$work/policy.pt" --steps 60 --batch 32 --hidden 32 \
  > "$work/train.log"
for c in c002 c003 c004 c006 c007 c008; do cp "$src/problems/listfunctions/listfunctions-$c.json" "$work/suite/"; done
options=(--suite "$work/suite" -g enumerate --budget 50000 --threads 1 --policy "$work/policy.pt" --learn-every 2
  --learn-steps 5)

# Round r (problems 2r, 2r+1 of the suite) searched with the policy at step 60 + 5 r.
check_rounds() {
  python3 - "$1" "$work/suite" <<'EOF' || fail "$1/campaign.jsonl: a problem searched with another round's policy"
import json, os, re, sys
run, suite = sys.argv[1], sys.argv[2]
names = sorted(f[:-5] for f in os.listdir(suite))
lines = [json.loads(l) for l in open(os.path.join(run, "campaign.jsonl"))]
assert len(lines) == len(names), lines
for l in lines:
    r = names.index(l["problem"]) // 2
    step = int(re.search(r"step (\d+)", l["policy"]).group(1))
    assert step == 60 + 5 * r, (l["problem"], l["policy"])
    assert (r == 0) == ("learnt in this campaign" not in l["policy"]), l["policy"]
EOF
}

"$gpusynth" campaign "${options[@]}" --out "$work/run" > "$work/campaign.log" 2>&1 || { cat "$work/campaign.log"; fail "campaign"; }
[ "$(grep -c "learnt from" "$work/campaign.log")" = 3 ] || { cat "$work/campaign.log"; fail "three rounds of learning"; }
grep -q "now step 75, .* -> $work/run/policy.pt" "$work/campaign.log" || { cat "$work/campaign.log"; fail "the last round"; }
check_rounds "$work/run"
cp "$work/run/policy.pt" "$work/policy-end.pt"

# Run again: nothing to search, nothing learnt.
"$gpusynth" campaign "${options[@]}" --out "$work/run" > "$work/again.log" 2>&1 || { cat "$work/again.log"; fail "again"; }
grep -q "6 already done" "$work/again.log" && ! grep -q "learnt from" "$work/again.log" || { cat "$work/again.log"; fail "again learnt"; }
cmp -s "$work/run/policy.pt" "$work/policy-end.pt" || fail "a finished campaign run again changed its policy"

# Resumed with its last two problems unfinished: from RUN/policy.pt, with the ledger's solutions.
cp -r "$work/run" "$work/resumed"
head -n 4 "$work/run/campaign.jsonl" > "$work/resumed/campaign.jsonl"
"$gpusynth" campaign "${options[@]}" --out "$work/resumed" > "$work/resumed.log" 2>&1 || { cat "$work/resumed.log"; fail "resume"; }
grep -q "learning every 2 problems from $work/resumed/policy.pt ([0-9] solved problems of the ledger" "$work/resumed.log" &&
  grep -q "now step 80" "$work/resumed.log" || { cat "$work/resumed.log"; fail "the resumed campaign"; }

# Two ranks learn as one: the same rounds, the same problems learnt from, the same losses.
if [ -n "$mpirun" ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
  timeout 300 "$mpirun" -np 2 "$gpusynth" campaign "${options[@]}" --out "$work/ranks" > "$work/ranks.log" 2>&1 ||
    { cat "$work/ranks.log"; fail "two ranks"; }
  check_rounds "$work/ranks"
  diff <(grep -o "learnt from .* steps" "$work/campaign.log" | sed 's/loss \([0-9.]*[0-9]\{3\}\)[0-9]*/loss \1/') \
    <(grep -o "learnt from .* steps" "$work/ranks.log" | sed 's/loss \([0-9.]*[0-9]\{3\}\)[0-9]*/loss \1/') ||
    fail "two ranks learnt otherwise than one process"
fi

set +e
"$gpusynth" campaign --suite "$work/suite" --out "$work/bad" -g enumerate --budget 1000 --learn-every 2 > "$work/bad.log" 2>&1
status=$?
set -e
[ "$status" = 2 ] && grep -q "give --policy FILE" "$work/bad.log" || { cat "$work/bad.log"; fail "--learn-every without --policy"; }
echo "learning_campaign_test: ok"
