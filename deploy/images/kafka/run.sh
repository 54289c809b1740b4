#!/bin/bash
# Starts a single-node KRaft broker. Like the official apache/kafka image: every
# KAFKA_<NAME> environment variable becomes the property <name> (lower case,
# '_' -> '.', '__' -> '_', '___' -> '-'); with none given, a broker and
# controller on localhost:9092 / :9093. CLUSTER_ID names the cluster.
set -euo pipefail
config=/opt/kafka/config/runtime/server.properties
# JVM settings, not broker properties.
skip='^KAFKA_(HEAP_OPTS|OPTS|JVM_PERFORMANCE_OPTS|LOG4J_OPTS|GC_LOG_OPTS|JMX_OPTS|DEBUG)='
props=$(env | grep -E '^KAFKA_[A-Z0-9_]+=' | grep -Ev "$skip" || true)
if [[ -z "$props" ]]; then
  cat >"$config" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@localhost:9093
listeners=PLAINTEXT://:9092,CONTROLLER://:9093
advertised.listeners=PLAINTEXT://localhost:9092
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=/var/lib/kafka/data
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
PROPS
else
  : >"$config"
  while IFS= read -r line; do
    name=${line%%=*}
    value=${line#*=}
    key=${name#KAFKA_}
    key=${key//___/-}
    key=${key//__/@}
    key=${key//_/.}
    key=${key//@/_}
    echo "${key,,}=$value" >>"$config"
  done <<<"$props"
  grep -q '^log\.dirs=' "$config" || echo "log.dirs=/var/lib/kafka/data" >>"$config"
fi
java=(java ${KAFKA_HEAP_OPTS:--Xms256m -Xmx512m} -Djava.awt.headless=true -Dlog4j.configuration=file:/opt/kafka/config/log4j.properties -Dlog4j2.configurationFile=/opt/kafka/config/log4j2.properties -cp '/opt/kafka/libs/*')
"${java[@]}" kafka.tools.StorageTool format -t "${CLUSTER_ID:-5L6g3nShT-eMCtK--X86sw}" -c "$config" --ignore-formatted >/dev/null
exec "${java[@]}" kafka.Kafka "$config"
