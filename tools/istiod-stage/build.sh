#!/usr/bin/env bash
# Build tools/istiod-stage/istiod-stage: this folder's sources plus the Istio function set of
# tools/gorender/istio.go and its timing loop (benchloop.go), compiled together in a scratch
# GOPATH-mode package.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$here"/*.go "$work/"
cp "$root/tools/gorender/istio.go" "$root/tools/gorender/benchloop.go" "$work/"
# istio.go registers itself with gorender's tables; give it empty ones.
cat >"$work/zz_gorender_stub.go" <<'GO'
package main

import "text/template"

var istioFuncs func() template.FuncMap
var fixtures = map[string]func() interface{}{}
GO
(cd "$work" && GOPATH="${GORENDER_GOPATH:-/usr/share/gocode}" GO111MODULE=off GOFLAGS= go build -o "$here/istiod-stage" .)
