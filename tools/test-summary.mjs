// Prints the closing line of `npm test` in the plain form CI systems read: "tests: N passed, M failed".
// Reads the JSON report vitest wrote beside its own output.
import { readFileSync } from 'node:fs';

const file = process.argv[2] ?? 'node_modules/.vitest-results.json';
const r = JSON.parse(readFileSync(file, 'utf8'));
const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
console.log(`tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exitCode = r.numFailedTests > 0 || r.numTotalTests === 0 ? 1 : 0;
