// Preloaded (node --import) into a CLI run by bench/run.js: on exit, write the process's peak resident
// set size (KiB) and its CPU time (µs, user and system) as JSON to the file named by BENCH_USAGE_FILE.
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_USAGE_FILE;
if (file) {
  process.on('exit', () => {
    const u = process.resourceUsage();
    writeFileSync(file, JSON.stringify({ maxRSS: u.maxRSS, user: u.userCPUTime, system: u.systemCPUTime }));
  });
}
