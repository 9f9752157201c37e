#!/usr/bin/env bash
# Renders the chart with deploy/helm/render (Go's text/template + Sprig from Debian's packages; see
# docs/adr/0009-chart-validation.md) and writes the plain manifests deploy/kubernetes/*.yaml.
#   bash deploy/helm/render.sh            write them
#   bash deploy/helm/render.sh --print    print the default render only
# Needs Debian's golang-go golang-github-masterminds-sprig-dev golang-gopkg-yaml.v2-dev (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/../.."
out="${TMPDIR:-/tmp}/gatehouse-chart-render"
mkdir -p "$out"
(cd deploy/helm/render && GOPATH=/usr/share/gocode GO111MODULE=off GOFLAGS= GOCACHE="$out/cache" go build -o "$out/render" .)
render() { "$out/render" -chart deploy/helm/gatehouse -name gatehouse -namespace gatehouse "$@"; }
if [ "${1:-}" = "--print" ]; then render; exit 0; fi
header='# Rendered from deploy/helm/gatehouse by `bash deploy/helm/render.sh` (release gatehouse, namespace
# gatehouse): kubectl apply -n gatehouse -f <this file>. Do not edit: change the chart and render again
# (deploy/helm/chart.test.ts fails when this file and the chart disagree).'
{ echo "$header"; echo "# Values: the chart's defaults (values.yaml)."; render; } > deploy/kubernetes/gatehouse.yaml
{ echo "$header"; echo "# Values: values.yaml with values-ha.yaml."; render -f deploy/helm/gatehouse/values-ha.yaml; } > deploy/kubernetes/gatehouse-ha.yaml
echo "wrote deploy/kubernetes/gatehouse.yaml and deploy/kubernetes/gatehouse-ha.yaml"
