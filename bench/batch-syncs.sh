#!/usr/bin/env bash
# POST /items/batch with a batch's payloads synced by one syncfs against an fsync each (issue 29): two services
# in turn, leasehold.spool.linux-calls=true then false, each on a new spool, ROUNDS times. Each service takes
# BATCHES batches of 1,000 items (the first a warm-up), and before each batch a bare durable enqueue of 1,000
# items (write, fsync, link into pending/, unlink, fsync of pending/: Python, one thread) runs on the same
# filesystem, so both rates meet the same load. Prints items/s per batch and per bare loop, and their medians.
#
#   bench/batch-syncs.sh [ROUNDS [BATCHES]]       (defaults: 2 and 8)
#
# Needs the packaged jar (./mvnw -B -q package -DskipTests; JAR=... for another build), a JDK of 22 or later
# (JAVA_HOME; syncfs needs the foreign-function API), curl and python3. Nothing is deleted while it runs (ext4
# makes inodes freed in the last seconds costly to allocate again): the work folder is removed at the end.
set -euo pipefail
ROUNDS="${1:-2}"
BATCHES="${2:-8}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
JAR="${JAR:-$ROOT/target/quarkus-app/quarkus-run.jar}"
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
[ -f "$JAR" ] || { echo "no packaged jar at $JAR: run ./mvnw -B -q package -DskipTests first" >&2; exit 2; }
WORK="$(mktemp -d "${TMPDIR:-/tmp}/leasehold-batch.XXXXXX")"
PID=""
cleanup() {
  if [ -n "$PID" ]; then kill -TERM "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

cat > "$WORK/bare.py" <<'PY'
import os, sys, time
d = sys.argv[1]
os.makedirs(d + '/tmp'); os.makedirs(d + '/pending')
folder = os.open(d + '/pending', os.O_RDONLY | os.O_DIRECTORY)
start = time.monotonic()
for i in range(1000):
    p = '%s/tmp/x%d' % (d, i)
    fd = os.open(p, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    os.write(fd, b'{"n":%d,"note":"benchmark item"}' % i)
    os.fsync(fd); os.close(fd)
    os.link(p, '%s/pending/x%d' % (d, i)); os.unlink(p); os.fsync(folder)
print(int(1000 / (time.monotonic() - start)))
PY
cat > "$WORK/batch.py" <<'PY'
import base64, sys
for i in range(1000):
    payload = base64.b64encode(b'{"n":%d,"note":"benchmark item"}' % i).decode()
    print('{"id":"%s-%d","payloadBase64":"%s"}' % (sys.argv[1], i, payload))
PY
PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2))}'; }

for round in $(seq 1 "$ROUNDS"); do
  for calls in true false; do
    RUN="$WORK/r$round-$calls"
    mkdir -p "$RUN/spool"
    "$JAVA" -Xmx256m -Dquarkus.http.host=127.0.0.1 -Dquarkus.http.port="$PORT" -Dleasehold.spool.dir="$RUN/spool" \
      -Dleasehold.spool.linux-calls="$calls" -Dleasehold.drain.auto=false -jar "$JAR" > "$RUN/service.log" 2>&1 &
    PID=$!
    for _ in $(seq 1 300); do
      [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/q/health/ready" || true)" = 200 ] && break
      sleep 0.1
    done
    way="$(grep -o 'batches synced [a-z ]*' "$RUN/service.log" || echo 'batches synced ?')"
    bare=""; batch=""
    for b in $(seq 0 $((BATCHES - 1))); do
      python3 "$WORK/batch.py" "b$b" > "$RUN/b$b.ndjson"
      rate="$(python3 "$WORK/bare.py" "$RUN/bare$b")"
      t="$(curl -s -o "$RUN/answer" -w '%{http_code} %{time_total}' -X POST -H 'Content-Type: application/x-ndjson' \
        --data-binary @"$RUN/b$b.ndjson" "http://127.0.0.1:$PORT/items/batch")"
      [ "${t%% *}" = 201 ] || { echo "the batch was answered ${t%% *}: $(cat "$RUN/answer")" >&2; exit 1; }
      [ "$b" -eq 0 ] && continue # the warm-up batch
      bare="$bare $rate"; batch="$batch $(python3 -c "print(int(1000 / ${t#* }))")"
    done
    kill -TERM "$PID"; wait "$PID" 2>/dev/null || true; PID=""
    echo "round $round, linux-calls=$calls ($way): bare$bare (median $(echo $bare | median)); batch$batch" \
      "(median $(echo $batch | median)); load $(cut -d' ' -f1 /proc/loadavg)"
  done
done
