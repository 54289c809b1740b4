{{/*
Kafka over TLS and SASL (values kafka.tls, kafka.sasl): the services' environment, the mounted
Secret files it names, and the KEDA TriggerAuthentication of the Kafka triggers. Certificates,
keys and the password are mounted as files (KAFKA_*_FILE), never put in the environment.
*/}}

{{- define "pulseboard.kafkaCaDir" -}}/etc/pulseboard/kafka/ca{{- end -}}
{{- define "pulseboard.kafkaClientDir" -}}/etc/pulseboard/kafka/client{{- end -}}
{{- define "pulseboard.kafkaSaslDir" -}}/etc/pulseboard/kafka/sasl{{- end -}}
{{- define "pulseboard.kafkaTokenDir" -}}/var/run/secrets/pulseboard/kafka-token{{- end -}}

{{/* Refuses settings that cannot work, at render time rather than in a crash-looping pod. */}}
{{- define "pulseboard.kafkaCheck" -}}
{{- $tls := .Values.kafka.tls -}}
{{- $sasl := .Values.kafka.sasl -}}
{{- if and (not $tls.enabled) (or $tls.caSecret.name $tls.clientSecret.name) -}}
{{- fail "kafka.tls.caSecret / kafka.tls.clientSecret are set but kafka.tls.enabled is false" -}}
{{- end -}}
{{- if has $sasl.mechanism (list "plain" "scram-sha-256" "scram-sha-512") -}}
{{- if not $sasl.existingSecret -}}{{- fail (printf "kafka.sasl.existingSecret is required with kafka.sasl.mechanism=%s (the Secret holding the password)" $sasl.mechanism) -}}{{- end -}}
{{- if and (not $sasl.username) (not $sasl.usernameKey) -}}{{- fail (printf "kafka.sasl.username (or kafka.sasl.usernameKey) is required with kafka.sasl.mechanism=%s" $sasl.mechanism) -}}{{- end -}}
{{- else if eq $sasl.mechanism "oauthbearer" -}}
{{- if not $sasl.oauthbearer.tokenVolume -}}{{- fail "kafka.sasl.oauthbearer.tokenVolume is required with kafka.sasl.mechanism=oauthbearer (the volume holding the token)" -}}{{- end -}}
{{- end -}}
{{- end -}}

{{/* The KAFKA_SSL* / KAFKA_SASL_* environment entries of a service container. */}}
{{- define "pulseboard.kafkaEnv" -}}
{{- include "pulseboard.kafkaCheck" . -}}
{{- $tls := .Values.kafka.tls -}}
{{- $sasl := .Values.kafka.sasl -}}
{{- if $tls.enabled }}
- name: KAFKA_SSL
  value: "true"
- name: KAFKA_SSL_REJECT_UNAUTHORIZED
  value: {{ $tls.rejectUnauthorized | toString | quote }}
{{- if $tls.caSecret.name }}
- name: KAFKA_SSL_CA_FILE
  value: {{ printf "%s/%s" (include "pulseboard.kafkaCaDir" .) $tls.caSecret.key | quote }}
{{- end }}
{{- if $tls.clientSecret.name }}
- name: KAFKA_SSL_CERT_FILE
  value: {{ printf "%s/%s" (include "pulseboard.kafkaClientDir" .) $tls.clientSecret.certKey | quote }}
- name: KAFKA_SSL_KEY_FILE
  value: {{ printf "%s/%s" (include "pulseboard.kafkaClientDir" .) $tls.clientSecret.keyKey | quote }}
{{- end }}
{{- end }}
{{- if $sasl.mechanism }}
- name: KAFKA_SASL_MECHANISM
  value: {{ $sasl.mechanism | quote }}
{{- if eq $sasl.mechanism "oauthbearer" }}
- name: KAFKA_SASL_OAUTHBEARER_TOKEN_FILE
  value: {{ printf "%s/%s" (include "pulseboard.kafkaTokenDir" .) $sasl.oauthbearer.tokenFile | quote }}
{{- else }}
{{- if $sasl.usernameKey }}
- name: KAFKA_SASL_USERNAME
  valueFrom:
    secretKeyRef: { name: {{ $sasl.existingSecret }}, key: {{ $sasl.usernameKey }} }
{{- else }}
- name: KAFKA_SASL_USERNAME
  value: {{ $sasl.username | quote }}
{{- end }}
- name: KAFKA_SASL_PASSWORD_FILE
  value: {{ printf "%s/%s" (include "pulseboard.kafkaSaslDir" .) $sasl.passwordKey | quote }}
{{- end }}
{{- end }}
{{- end -}}

{{- define "pulseboard.kafkaVolumeMounts" -}}
{{- $tls := .Values.kafka.tls -}}
{{- $sasl := .Values.kafka.sasl -}}
{{- if and $tls.enabled $tls.caSecret.name }}
- name: kafka-ca
  mountPath: {{ include "pulseboard.kafkaCaDir" . }}
  readOnly: true
{{- end }}
{{- if and $tls.enabled $tls.clientSecret.name }}
- name: kafka-client
  mountPath: {{ include "pulseboard.kafkaClientDir" . }}
  readOnly: true
{{- end }}
{{- if has $sasl.mechanism (list "plain" "scram-sha-256" "scram-sha-512") }}
- name: kafka-sasl
  mountPath: {{ include "pulseboard.kafkaSaslDir" . }}
  readOnly: true
{{- else if eq $sasl.mechanism "oauthbearer" }}
- name: kafka-token
  mountPath: {{ include "pulseboard.kafkaTokenDir" . }}
  readOnly: true
{{- end }}
{{- end -}}

{{/* Only the keys named are mounted (mode 0440: the pods' group, fsGroup, reads them). */}}
{{- define "pulseboard.kafkaVolumes" -}}
{{- $tls := .Values.kafka.tls -}}
{{- $sasl := .Values.kafka.sasl -}}
{{- if and $tls.enabled $tls.caSecret.name }}
- name: kafka-ca
  secret:
    secretName: {{ $tls.caSecret.name }}
    defaultMode: 0440
    items: [{ key: {{ $tls.caSecret.key }}, path: {{ $tls.caSecret.key }} }]
{{- end }}
{{- if and $tls.enabled $tls.clientSecret.name }}
- name: kafka-client
  secret:
    secretName: {{ $tls.clientSecret.name }}
    defaultMode: 0440
    items:
      - { key: {{ $tls.clientSecret.certKey }}, path: {{ $tls.clientSecret.certKey }} }
      - { key: {{ $tls.clientSecret.keyKey }}, path: {{ $tls.clientSecret.keyKey }} }
{{- end }}
{{- if has $sasl.mechanism (list "plain" "scram-sha-256" "scram-sha-512") }}
- name: kafka-sasl
  secret:
    secretName: {{ $sasl.existingSecret }}
    defaultMode: 0440
    items: [{ key: {{ $sasl.passwordKey }}, path: {{ $sasl.passwordKey }} }]
{{- else if eq $sasl.mechanism "oauthbearer" }}
- name: kafka-token
  {{- toYaml $sasl.oauthbearer.tokenVolume | nindent 2 }}
{{- end }}
{{- end -}}

{{/* The name of the TriggerAuthentication the Kafka triggers use; empty when the cluster needs none. */}}
{{- define "pulseboard.kafkaTriggerAuthentication" -}}
{{- if .Values.kafka.keda.authenticationRef -}}
{{ .Values.kafka.keda.authenticationRef }}
{{- else if or .Values.kafka.tls.enabled .Values.kafka.sasl.mechanism -}}
{{ include "pulseboard.fullname" . }}-kafka
{{- end -}}
{{- end -}}

{{/* KEDA's names of the SASL mechanisms (its Kafka scaler's `sasl` parameter). */}}
{{- define "pulseboard.kedaSasl" -}}
{{- $names := dict "" "none" "plain" "plaintext" "scram-sha-256" "scram_sha256" "scram-sha-512" "scram_sha512" "oauthbearer" "oauthbearer" -}}
{{- index $names .Values.kafka.sasl.mechanism -}}
{{- end -}}
