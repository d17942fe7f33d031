{{/*
One in-cluster development dependency: a Deployment without persistence (one replica unless "replicas" says more) and
its Service, under the same pod security as wms itself. (dict "root" $ "name" "redis" "image" "redis:7" "uid" 999
"ports" (dict "redis" 6379) "args" (list ...) "env" "<env YAML>" "dirs" (dict "data" "/data")): each of `dirs` is a
writable emptyDir, and so is /tmp.
*/}}
{{- define "wms.dev.dependency" -}}
{{- $root := .root -}}
{{- $labels := dict "root" $root "component" .name "role" "dev" -}}
{{- $uid := .uid | default $root.Values.defaults.podSecurityContext.runAsUser -}}
{{- $dirs := merge (dict "tmp" "/tmp") (.dirs | default dict) -}}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "wms.fullname" $root }}-{{ .name }}
  labels:
    {{- include "wms.labels" $labels | nindent 4 }}
spec:
  replicas: {{ .replicas | default 1 }}
  strategy:
    type: Recreate
  selector:
    matchLabels:
      {{- include "wms.selectorLabels" $labels | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "wms.labels" $labels | nindent 8 }}
    spec:
      automountServiceAccountToken: false
      securityContext:
        {{- toYaml (merge (dict "runAsUser" $uid "runAsGroup" $uid "fsGroup" $uid) (omit $root.Values.defaults.podSecurityContext "runAsUser" "runAsGroup" "fsGroup")) | nindent 8 }}
      containers:
        - name: {{ .name }}
          image: {{ .image }}
          {{- with .args }}
          args:
            {{- toYaml . | nindent 12 }}
          {{- end }}
          {{- with .env }}
          env:
            {{- . | trim | nindent 12 }}
          {{- end }}
          ports:
            {{- range $portName, $port := .ports }}
            - name: {{ $portName }}
              containerPort: {{ $port }}
            {{- end }}
          readinessProbe:
            tcpSocket:
              port: {{ .probePort }}
            periodSeconds: 2
          securityContext:
            {{- toYaml $root.Values.defaults.containerSecurityContext | nindent 12 }}
          volumeMounts:
            {{- range $volume, $dir := $dirs }}
            - name: {{ $volume }}
              mountPath: {{ $dir }}
            {{- end }}
      volumes:
        {{- range $volume, $_ := $dirs }}
        - name: {{ $volume }}
          emptyDir: {}
        {{- end }}
---
apiVersion: v1
kind: Service
metadata:
  name: {{ include "wms.fullname" $root }}-{{ .name }}
  labels:
    {{- include "wms.labels" $labels | nindent 4 }}
spec:
  selector:
    {{- include "wms.selectorLabels" $labels | nindent 4 }}
  ports:
    {{- range $portName, $port := .ports }}
    - name: {{ $portName }}
      port: {{ $port }}
      targetPort: {{ $portName }}
    {{- end }}
{{- end -}}
