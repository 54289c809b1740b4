#!/usr/bin/env bash
# Single-node KRaft Kafka for dev and CI, run straight from Maven Central jars
# (no Docker, no release tarball on this machine).
# Usage: deploy/kafka.sh start|stop|status|restart|jars
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# The pom is the single source of truth for the version, so the jar cache
# follows a version bump automatically.
version="$(sed -n 's:.*<kafka.version>\(.*\)</kafka.version>.*:\1:p' "$here/kafka/pom.xml")"
state="${PULSEBOARD_STATE_DIR:-$HOME/.cache/pulseboard}/kafka"
# Jars can be shared between brokers of different state dirs (tests run a second broker).
lib="${KAFKA_LIB_DIR:-$state/lib-$version}"
data="$state/data"
log="$state/kafka.log"
pidfile="$state/kafka.pid"
host=127.0.0.1
port="${KAFKA_PORT:-9092}"
cport="${KAFKA_CONTROLLER_PORT:-9093}"
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"

# A pid file can outlive a reboot and its pid be reused: only trust it when
# that process really is a Kafka broker.
pid_alive() {
  local pid
  pid="$(cat "$pidfile" 2>/dev/null)" || return 1
  [[ -n "$pid" ]] && grep -qa 'kafka\.Kafka' "/proc/$pid/cmdline" 2>/dev/null
}

# The broker this script just launched, while it starts: alive while its
# process is (not a zombie). Not pid_alive: right after the fork, /proc/PID/cmdline
# still shows this shell (or nothing, mid-exec) until setsid has exec'd java, so
# on a busy machine the cmdline test reported a starting broker as dead ("kafka
# died during startup" with an empty log) and left it running unowned.
launched_alive() {
  local stat
  stat="$(cat "/proc/$1/stat" 2>/dev/null)" || return 1
  stat="${stat##*) }"
  [[ "${stat:0:1}" != Z ]]
}

port_open() { timeout 1 bash -c "exec 3<>/dev/tcp/$host/$1" 2>/dev/null; }

resolve_jars() {
  [[ -f "$lib/.complete" ]] && return 0
  echo "resolving kafka $version jars with maven..."
  # Download into a temp dir and rename, so an interrupted run never leaves a
  # half-filled lib dir that looks usable.
  rm -rf "$lib.tmp"
  (cd "$here/kafka" && mvn -q -B dependency:copy-dependencies \
    -DoutputDirectory="$lib.tmp" -DincludeScope=runtime)
  touch "$lib.tmp/.complete"
  rm -rf "$lib" && mv "$lib.tmp" "$lib"
}

write_config() {
  # Regenerated every start so KAFKA_PORT / KAFKA_CONTROLLER_PORT changes apply.
  cat >"$state/server.properties" <<EOF
node.id=1
process.roles=broker,controller
listeners=PLAINTEXT://$host:$port,CONTROLLER://$host:$cport
advertised.listeners=PLAINTEXT://$host:$port
controller.quorum.voters=1@$host:$cport
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$data
num.partitions=3
# Request threads (Kafka's defaults: 3 network, 8 I/O). Each request is handed from a network
# thread to an I/O thread and back; on a small machine fewer threads mean fewer of those hand-offs
# landing on a sleeping thread. KAFKA_NUM_NETWORK_THREADS / KAFKA_NUM_IO_THREADS set them.
num.network.threads=${KAFKA_NUM_NETWORK_THREADS:-3}
num.io.threads=${KAFKA_NUM_IO_THREADS:-8}
default.replication.factor=1
min.insync.replicas=1
offsets.topic.replication.factor=1
# fewer internal partitions = noticeably faster first consumer-group join
offsets.topic.num.partitions=10
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
# single consumer in tests: no point waiting 3 s for more members
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=true
delete.topic.enable=true
log.retention.hours=24
log.segment.bytes=67108864
EOF
  # Everything goes to stdout, which start() sends to kafka.log: one file then
  # also holds JVM-level failures (bad classpath, OOM) that log4j never sees.
  cat >"$state/log4j.properties" <<EOF
log4j.rootLogger=INFO, stdout
log4j.appender.stdout=org.apache.log4j.ConsoleAppender
log4j.appender.stdout.layout=org.apache.log4j.PatternLayout
log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.org.apache.kafka.clients=WARN
log4j.logger.org.apache.kafka.common.utils.AppInfoParser=WARN
log4j.logger.kafka.log.LogCleaner=WARN
log4j.logger.state.change.logger=WARN
log4j.logger.kafka.request.logger=WARN
log4j.logger.kafka.coordinator=WARN
log4j.logger.org.apache.kafka.coordinator=WARN
log4j.logger.org.apache.kafka.storage.internals=WARN
log4j.logger.kafka.log=WARN
EOF
  # Kafka 4 also loads log4j2 (log4j-core is on its classpath) for the few classes that
  # use it directly; without a configuration it prints an error at every start.
  cat >"$state/log4j2.properties" <<EOF
status=error
appender.stdout.type=Console
appender.stdout.name=STDOUT
appender.stdout.layout.type=PatternLayout
appender.stdout.layout.pattern=[%d] %p %m (%c)%n
rootLogger.level=warn
rootLogger.appenderRef.stdout.ref=STDOUT
EOF
}

log_opts() { echo "-Dlog4j.configuration=file:$state/log4j.properties -Dlog4j2.configurationFile=$state/log4j2.properties"; }
# shellcheck disable=SC2046
kjava() { "$java" $(log_opts) -cp "$lib/*" "$@"; }

format_storage() {
  [[ -f "$data/meta.properties" ]] && return 0
  # The cluster id is kept so a re-format (e.g. data dir wiped) stays the same cluster.
  [[ -s "$state/cluster.id" ]] || kjava kafka.tools.StorageTool random-uuid | tail -n1 >"$state/cluster.id"
  kjava kafka.tools.StorageTool format --ignore-formatted \
    -t "$(cat "$state/cluster.id")" -c "$state/server.properties" >/dev/null
}

start() {
  local t0=$SECONDS
  mkdir -p "$state"
  if pid_alive && port_open "$port"; then echo "kafka already running"; return 0; fi
  local launched=""
  if ! pid_alive; then
    # Both: a taken controller port kills the broker at start-up ("Address already in use").
    local p; for p in "$port" "$cport"; do
      if port_open "$p"; then
        echo "port $p is taken by another process:" >&2; ss -Hltnp "sport = :$p" >&2 2>/dev/null || true; return 1
      fi
    done
    resolve_jars
    write_config
    format_storage
    [[ -f "$log" ]] && mv -f "$log" "$log.1"   # readiness below greps only this run's log
    # setsid: own session, so the broker outlives the calling shell / CI step
    # and gets no SIGHUP; no terminal fds are inherited.
    # shellcheck disable=SC2086
    setsid "$java" ${KAFKA_HEAP_OPTS:--Xms256m -Xmx512m} -Djava.awt.headless=true \
      $(log_opts) -cp "$lib/*" kafka.Kafka "$state/server.properties" \
      </dev/null >>"$log" 2>&1 &
    launched=$!
    echo "$launched" >"$pidfile"
  fi
  # The port opens before the broker is unfenced; "Kafka Server started" is
  # logged only once it is. Polling that is cheap; then one real client
  # round-trip (metadata + ApiVersions) proves clients can use it (kafka-tools' command).
  # KAFKA_START_TIMEOUT_S: room for a machine so loaded that a JVM takes a minute to start.
  local timeout="${KAFKA_START_TIMEOUT_S:-90}"
  local deadline=$((SECONDS + timeout))   # excludes a cold Maven download
  while (( SECONDS < deadline )); do
    if { [[ -n "$launched" ]] && ! launched_alive "$launched"; } || { [[ -z "$launched" ]] && ! pid_alive; }; then
      local why="" rc=0
      if [[ -n "$launched" ]]; then wait "$launched" || rc=$?; why=" (exit status $rc)"; fi
      echo "kafka died during startup$why; last 40 lines of $log:" >&2
      tail -n 40 "$log" >&2; rm -f "$pidfile"; return 1
    fi
    if grep -q 'Kafka Server started' "$log" 2>/dev/null && port_open "$port" &&
      kjava org.apache.kafka.tools.BrokerApiVersionsCommand --bootstrap-server "$host:$port" >/dev/null 2>&1; then
      echo "kafka started in $((SECONDS - t0)) s on $host:$port"; return 0
    fi
    sleep 0.25
  done
  # Which of the two it was waiting for: the broker itself, or a client round trip to it.
  local seen="it has not logged 'Kafka Server started'"
  grep -q 'Kafka Server started' "$log" 2>/dev/null && seen="it logged 'Kafka Server started' but no client round trip succeeded"
  echo "kafka did not become ready within $timeout s (KAFKA_START_TIMEOUT_S): $seen; it is left running (stop it with: $0 stop); last 40 lines of $log:" >&2
  tail -n 40 "$log" >&2; return 1
}

stop() {
  if ! pid_alive; then rm -f "$pidfile"; echo "kafka not running"; return 0; fi
  local pid; pid="$(cat "$pidfile")"
  kill -TERM "$pid"
  # SIGTERM = controlled shutdown (flushes logs, clean restart next time).
  for _ in $(seq 1 120); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
  if kill -0 "$pid" 2>/dev/null; then
    echo "kafka ignored SIGTERM for 30 s, killing" >&2; kill -KILL "$pid"
    # Gone before we return: a restart must not find its data dir still locked.
    for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
  fi
  rm -f "$pidfile"; echo "kafka stopped"
}

status() {
  if pid_alive && port_open "$port"; then echo "running"; else echo "stopped"; return 1; fi
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  restart) stop; start ;;
  # The broker's jars (resolved once), for images built from them: prints their directory.
  jars) resolve_jars >&2; echo "$lib" ;;
  *) echo "usage: $0 start|stop|status|restart|jars" >&2; exit 2 ;;
esac
