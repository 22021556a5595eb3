#!/usr/bin/env bash
# System calls per drained item (issue 29): counts every system call of every thread of the packaged service
# while one POST /drain works through ITEMS dropped-in no-op items, and prints them per item.
#
#   bench/strace-drain.sh [CONCURRENCY [ITEMS]]      (defaults: 1 and 10000)
#
# Needs the packaged jar (./mvnw -B -q package -DskipTests; JAR=... to use another build), strace
# (/usr/bin/strace, run as root or with ptrace allowed), curl and a JDK. It starts the jar on a fresh spool under
# /tmp, a free port on 127.0.0.1, leasehold.drain.auto=false and the log handler at WARN (as the benchmarks do:
# items are no-ops), drops ITEMS items into pending/ (each written in tmp/, then renamed into pending/, as any
# producer does) and drains them once to warm the JIT, drops ITEMS more, attaches `strace -c -f` to every
# thread of the JVM, POSTs /drain, detaches, and prints strace's summary and the calls per item of each system
# call at 0.1 per item or more. The counts include what the JVM's other threads did in that window (the
# event loop, the census, GC and the JIT compiler): a second's pause before the POST and after it.
# Counts are counts: a busy machine changes the time column, not them. JAVA_HOME picks the JDK; JAVA_OPTS adds
# options or settings to the service's command (e.g. JAVA_OPTS=-Dleasehold.spool.linux-calls=false).
set -euo pipefail

CONCURRENCY="${1:-1}"
ITEMS="${2:-10000}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILT="the jar given in JAR"
if [ -z "${JAR:-}" ]; then
  BUILT="built from $(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo 'an unknown revision')"
  # Where the build says it put the jar (PackagedArtifact reads the same file).
  props="$ROOT/target/quarkus-artifact.properties"
  JAR="$ROOT/target/quarkus-app/quarkus-run.jar"
  if [ -f "$props" ] && grep -q '^type=jar' "$props"; then
    JAR="$ROOT/target/$(sed -n 's/^path=//p' "$props")"
  fi
fi
[ -f "$JAR" ] || { echo "no packaged jar at $JAR: run ./mvnw -B -q package -DskipTests first" >&2; exit 2; }
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"

WORK="$(mktemp -d /tmp/leasehold-strace.XXXXXX)"
SPOOL="$WORK/spool"
mkdir -p "$SPOOL/tmp" "$SPOOL/pending"
PID=""
STRACE=""
cleanup() {
  [ -n "$STRACE" ] && kill -INT "$STRACE" 2>/dev/null || true
  if [ -n "$PID" ]; then
    kill -TERM "$PID" 2>/dev/null || true
    wait "$PID" 2>/dev/null || true
  fi
  rm -rf "$SPOOL"
}
trap cleanup EXIT

# A free port: the kernel picks one for a socket bound to port 0.
cat > "$WORK/FreePort.java" <<'EOF'
public class FreePort {
    public static void main(String[] args) throws Exception {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            System.out.println(s.getLocalPort());
        }
    }
}
EOF
# The producer: ITEMS payloads as BenchSpool.payload makes them, each written in tmp/ and renamed into pending/.
cat > "$WORK/Drop.java" <<'EOF'
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
public class Drop {
    public static void main(String[] args) throws Exception {
        Path spool = Path.of(args[0]);
        String prefix = args[1];
        int n = Integer.parseInt(args[2]);
        for (int i = 0; i < n; i++) {
            String id = prefix + "-" + i;
            byte[] payload = ("{\"n\":" + i + ",\"note\":\"benchmark item, handled by the log handler as a no-op\"}")
                    .getBytes(StandardCharsets.UTF_8);
            Path tmp = spool.resolve("tmp").resolve(id);
            Files.write(tmp, payload);
            Files.move(tmp, spool.resolve("pending").resolve(id), StandardCopyOption.ATOMIC_MOVE);
        }
    }
}
EOF
PORT="$("$JAVA" "$WORK/FreePort.java")"
URL="http://127.0.0.1:$PORT"

# shellcheck disable=SC2086 # JAVA_OPTS is words
"$JAVA" -Xmx256m ${JAVA_OPTS:-} \
  -Dquarkus.http.host=127.0.0.1 -Dquarkus.http.port="$PORT" \
  -Dleasehold.spool.dir="$SPOOL" \
  -Dleasehold.drain.concurrency="$CONCURRENCY" -Dleasehold.drain.auto=false \
  '-Dquarkus.log.category."io.leasehold.handler.LogHandler".level=WARN' \
  -jar "$JAR" > "$WORK/service.log" 2>&1 &
PID=$!
for _ in $(seq 1 600); do
  kill -0 "$PID" 2>/dev/null || { echo "the service exited; see $WORK/service.log" >&2; exit 1; }
  [ "$(curl -s -o /dev/null -w '%{http_code}' "$URL/q/health/ready" || true)" = 200 ] && break
  sleep 0.1
done

drain() { # one POST /drain; checks that it settled all ITEMS
  local report
  report="$(curl -s -X POST "$URL/drain?budget=10m")"
  case "$report" in
    *"\"done\":$ITEMS"*'"idle":true'*|*'"idle":true'*"\"done\":$ITEMS"*) ;;
    *) echo "the drain did not settle $ITEMS items: $report" >&2; exit 1 ;;
  esac
}

"$JAVA" "$WORK/Drop.java" "$SPOOL" warm "$ITEMS"
drain # JIT warm-up: not counted
"$JAVA" "$WORK/Drop.java" "$SPOOL" counted "$ITEMS"

attach=()
for task in /proc/"$PID"/task/*; do attach+=(-p "${task##*/}"); done
strace -c -f -o "$WORK/strace.txt" "${attach[@]}" 2> "$WORK/strace.err" &
STRACE=$!
sleep 1 # let strace attach to every thread
drain
sleep 1
kill -INT "$STRACE"
wait "$STRACE" || true
STRACE=""
done_count="$(find "$SPOOL/done" -maxdepth 1 -type f | wc -l)"
[ "$done_count" -eq $((2 * ITEMS)) ] || { echo "done/ holds $done_count items, not $((2 * ITEMS))" >&2; exit 1; }

echo "# strace -c -f on the JVM's $(( ${#attach[@]} / 2 )) threads (and any it started), one POST /drain of $ITEMS items"
echo "# jar: $JAR ($BUILT, if packaged since the last change), concurrency $CONCURRENCY; logs in $WORK"
echo
cat "$WORK/strace.txt"
echo
echo "# calls per item (>= 0.1), errors per item beside them"
awk -v n="$ITEMS" '
  /^-+ / { rule++; next }
  rule == 1 && NF >= 5 {
    name = $NF; calls = $4; errors = (NF == 6 ? $5 : 0)
    if (calls / n >= 0.1) printf "%-20s %8.2f %8.2f\n", name, calls / n, errors / n
  }
  rule == 2 && $NF == "total" {
    calls = $4; errors = (NF == 6 ? $5 : 0)
    printf "%-20s %8.2f %8.2f\n", "total", calls / n, errors / n
  }
' "$WORK/strace.txt"
