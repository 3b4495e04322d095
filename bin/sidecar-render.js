#!/usr/bin/env node
import { main } from '../dist/cli/index.js';

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`sidecar-render: ${err && err.message ? err.message : String(err)}\n`);
    process.exitCode = 2;
  },
);
