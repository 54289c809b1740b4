#!/bin/bash
# As in the official image: e.g. a health check,
#   /opt/kafka/bin/kafka-broker-api-versions.sh --bootstrap-server localhost:9092
exec java -Xmx128m -Dlog4j.configuration=file:/opt/kafka/config/log4j.properties -Dlog4j2.configurationFile=/opt/kafka/config/log4j2.properties -cp '/opt/kafka/libs/*' org.apache.kafka.tools.BrokerApiVersionsCommand "$@"
