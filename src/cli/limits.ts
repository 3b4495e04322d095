// Execution limits on the command line: the same flags for render, template and golden, each mapped to
// the engine's ExecLimits. A breach names the limit and the flag that raises it.

import type { Command } from 'commander';
import type { ExecOptions } from '../go/text/template/template.js';

export interface LimitFlags {
  timeout?: string;
  maxOutput?: string;
  maxDepth?: string;
  maxIterations?: string;
  maxValue?: string;
  maxList?: string;
  maxBuilt?: string;
}

/** Default wall time per template execution. */
export const DEFAULT_TIMEOUT_MS = 60_000;

export function addLimitOptions(cmd: Command): Command {
  return cmd
    .option('--timeout <duration>', 'wall time per template execution, e.g. 60s, 500ms, 2m (default 60s; 0 = none)')
    .option('--max-output <bytes>', 'largest output of one execution, e.g. 256Mi (default 256Mi)')
    .option('--max-depth <n>', 'deepest nesting of {{template}}/include calls (default 100000, as Go)')
    .option('--max-iterations <n>', 'range iterations per execution (default 100000000)')
    .option('--max-value <bytes>', 'largest string or printed value a function may build, e.g. 64Mi (default 64Mi)')
    .option('--max-list <n>', 'longest list a function may build: until, untilStep, seq, append, prepend, concat (default 1000000)')
    .option('--max-built <bytes>', 'total bytes functions may build in one execution (default 1Gi)');
}

const UNITS: Record<string, number> = { '': 1, k: 1e3, K: 1e3, Ki: 1024, M: 1e6, Mi: 1024 ** 2, G: 1e9, Gi: 1024 ** 3, B: 1 };

function count(flag: string, v: string, sizes: boolean): number {
  const m = (sizes ? /^(\d+(?:\.\d+)?)\s*(|k|K|Ki|M|Mi|G|Gi|B)$/ : /^(\d+)()$/).exec(v.trim());
  const n = m ? Number(m[1]) * UNITS[m[2]!]! : NaN;
  if (!Number.isFinite(n) || n < 1) {
    throw new Error(`${flag} wants ${sizes ? 'a size in bytes like 1048576, 64Ki or 256Mi' : 'a positive whole number'}, not "${v}"`);
  }
  return Math.floor(n);
}

/** "60s", "500ms", "2m", "1h", or a number of seconds; 0 turns the limit off. */
function duration(v: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|)$/.exec(v.trim());
  if (!m) throw new Error(`--timeout wants a duration like 60s, 500ms or 2m, not "${v}"`);
  const ms = Number(m[1]) * { ms: 1, s: 1000, '': 1000, m: 60_000, h: 3_600_000 }[m[2] as 'ms' | 's' | '' | 'm' | 'h'];
  return ms === 0 ? undefined : ms;
}

/** The ExecLimits the flags ask for (the timeout defaults to 60 s). Throws a one-line usage error. */
export function limitsFromFlags(f: LimitFlags): ExecOptions {
  const out: ExecOptions = {};
  const timeout = f.timeout === undefined ? DEFAULT_TIMEOUT_MS : duration(f.timeout);
  if (timeout !== undefined) out.timeoutMs = timeout;
  if (f.maxOutput !== undefined) out.maxOutputBytes = count('--max-output', f.maxOutput, true);
  if (f.maxDepth !== undefined) out.maxTemplateDepth = count('--max-depth', f.maxDepth, false);
  if (f.maxIterations !== undefined) out.maxRangeIterations = count('--max-iterations', f.maxIterations, false);
  if (f.maxValue !== undefined) out.maxValueBytes = count('--max-value', f.maxValue, true);
  if (f.maxList !== undefined) out.maxListLength = count('--max-list', f.maxList, false);
  if (f.maxBuilt !== undefined) out.maxBuiltBytes = count('--max-built', f.maxBuilt, true);
  return out;
}
