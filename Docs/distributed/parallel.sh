#!/usr/bin/env bash
# Spreads the jobs of a reel chunk plan over the machines in HOSTS with GNU parallel: the
# source and the plan are copied once to each machine (--basefile), each job's chunk directory
# comes back (--return) and the remote copies are removed (--cleanup). Run it in the directory
# holding film.mov and plan.json:
#   HOSTS=hosts.txt JOBS=9 parallel.sh
set -euo pipefail
: "${HOSTS:?set HOSTS to an --sshloginfile: one ssh login per line, a colon for this machine}"
: "${JOBS:?set JOBS to the number of jobs in the plan}"
seq 0 $((JOBS - 1)) | parallel --sshloginfile "$HOSTS" --basefile film.mov --basefile plan.json \
  --return 'chunks-{}' --cleanup --halt now,fail=1 \
  "${REEL:-reel}" encode-chunk plan.json --index {} -o 'chunks-{}' --source film.mov --quiet
mkdir -p chunks
for index in $(seq 0 $((JOBS - 1))); do mv chunks-"$index"/* chunks/ && rm -rf chunks-"$index"; done
"${REEL:-reel}" assemble plan.json --chunks chunks -o film.mp4 --overwrite --quiet
