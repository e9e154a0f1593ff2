#!/usr/bin/env bash
# Counts, with uprobes on the Swift runtime, the tasks a workload creates and how many of them
# were given an executor preference record (`AsyncTask::pushInitialTaskExecutorPreference`). A
# query task should get none: the record costs an allocation, the task's status lock at every
# switch and run, and its removal at the end, and no API shows it (see `_startImmediately` in
# Sources/SuspenseKit/Internal/Queries/StarterSlot.swift).
#
#     bash Benchmarks/scripts/task-records.sh [SuspenseBench binary] [items]
#
# Needs root and `perf` (linux-perf); prints one line per workload: tasks created, records made.
set -euo pipefail
cd "$(dirname "$0")/.."
bench="${1:-.build/release/SuspenseBench}"
items="${2:-1000}"
runtime="$(ldd "$bench" | awk '/libswift_Concurrency/ { print $3 }')"
symbol="$(nm "$runtime" | awk '/pushInitialTaskExecutorPreference.*Eb$/ && !/callback/ && !found { print $1; found = 1 }')"
remove() { perf probe -d 'probe_libswift_Concurrency:task*' >/dev/null 2>&1 || true; }
remove
trap remove EXIT
perf probe -x "$runtime" -a "taskrecord=0x$symbol" >/dev/null 2>&1
perf probe -x "$runtime" -a "taskcreate=swift_task_create_common" >/dev/null 2>&1
for workload in suspending yielding sleeping slow immediate-floor yielding-floor; do
    counts="$(perf stat -x, -e probe_libswift_Concurrency:taskcreate -e probe_libswift_Concurrency:taskrecord \
        "$bench" --profile "$workload" "$items" 1 2>&1 >/dev/null | awk -F, '/probe/ { printf "%s ", $1 }')"
    read -r created records <<<"$counts"
    echo "$workload $items: $created tasks created, $records executor preference records"
done
