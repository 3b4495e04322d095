#!/usr/bin/env bash
# Regenerate every test/vectors/**/<topic>.expected.jsonl from <topic>.jsonl with the real Go
# text/template (tools/gorender). Go 1.19 and the Debian Go libraries (Sprig, sigs.k8s.io/yaml) are
# expected under GORENDER_GOPATH, by default Debian's /usr/share/gocode.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
tool="$root/tools/gorender/gorender"

(
  cd "$root/tools/gorender"
  GOPATH="${GORENDER_GOPATH:-/usr/share/gocode}" GO111MODULE=off GOFLAGS= go build -o "$tool" .
)

cd "$root"
count=0
while IFS= read -r -d '' input; do
  expected="${input%.jsonl}.expected.jsonl"
  tmp="$expected.tmp"
  if ! "$tool" -vectors <"$input" >"$tmp"; then
    rm -f "$tmp"
    echo "gen-vectors: failed on $input" >&2
    exit 1
  fi
  mv "$tmp" "$expected"
  count=$((count + 1))
done < <(find test/vectors -name '*.jsonl' ! -name '*.expected.jsonl' -print0 | LC_ALL=C sort -z)

# Raw YAML inputs as sigs.k8s.io/yaml reads them (test/yaml/v2-inputs.test.ts).
(
  cd "$root/tools/yamlcheck"
  GOPATH="${GORENDER_GOPATH:-/usr/share/gocode}" GO111MODULE=off GOFLAGS= go build -o "$root/tools/yamlcheck/yamlcheck" .
)
find test/yaml/v2-inputs -name '*.yaml' -print0 | LC_ALL=C sort -z | xargs -0 tools/yamlcheck/yamlcheck >test/yaml/v2-inputs/expected.jsonl
# Template outputs as istiod decodes them into a Pod (test/istio/overlay-types.test.ts).
find test/istio/overlay-types -name '*.yaml' -print0 | LC_ALL=C sort -z | xargs -0 tools/yamlcheck/yamlcheck -pod-overlay >test/istio/overlay-types/expected.jsonl

# Lines that are not well-formed cases, answered by the protocol itself (test/hardening/batch-lines.test.ts).
"$tool" <test/hardening/batch-lines.jsonl >test/hardening/batch-lines.expected.jsonl

# Templates and data nested as deep as Go runs them (test/hardening/deep-go.test.ts).
node tools/deep-cases.mjs test/hardening/deep-go.json | "$tool" >test/hardening/deep-go.expected.jsonl

echo "gen-vectors: $count vector files regenerated"
