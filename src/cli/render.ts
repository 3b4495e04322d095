// `sidecar-render render`: the sidecar istiod would inject into each workload — the template stage
// output (byte for byte, for one workload without -o), or with --merged the workload after the output
// is merged into its pod, every other document given back; with --mode kube-inject --merged, the file
// as istioctl kube-inject prints it (-o json: the same objects as JSON). Flags follow istioctl
// kube-inject (aliases) and Helm (--set, values files).
// Each workload that fails is reported on stderr by name and the rest still render; the exit code is
// then 1. Bad inputs (unreadable files, invalid YAML, templates that do not parse, pods Kubernetes would
// refuse) stop the run with one line and exit code 2. Output is written as each workload is rendered;
// --output-file goes to a temporary sibling renamed over the file only when the run completes; its
// folder must exist (refused before anything is rendered, never created).

import { Option, type Command } from 'commander';
import { type RenderRequest } from '../inputs/resolve.js';
import { renderStream } from '../output/render.js';
import { addLimitOptions, limitsFromFlags, type LimitFlags } from './limits.js';
import { addInputOptions, inputsFromFlags, readStdin, type InputFlags } from './inputs.js';
import { AtomicWriter } from '../guard/fs.js';
import { printable } from '../output/escape.js';

type RenderFlags = LimitFlags &
  InputFlags & {
    merged?: boolean;
    output?: 'yaml' | 'json';
    outputFile?: string;
    progress?: boolean;
  };

/** The request the flags describe (exported for tests). */
export function requestFromFlags(flags: RenderFlags): RenderRequest {
  const inputs = inputsFromFlags(flags);
  if (!inputs.filename || (Array.isArray(inputs.filename) && inputs.filename.length === 0)) throw new Error('render: give the workloads with -f FILE (or a directory, or -f - for stdin)');
  const req: RenderRequest = { ...inputs };
  if (flags.merged) req.merged = true;
  if (flags.output) req.output = flags.output;
  req.limits = limitsFromFlags(flags);
  return req;
}

/** The progress line is redrawn every this many workloads. */
const PROGRESS_EVERY = 100;

export function renderCommand(program: Command): void {
  const cmd = program
    .command('render')
    .description('render the sidecar istiod would inject into each workload: the template stage output, the pod istiod admits (--merged), or the file istioctl kube-inject prints (--mode kube-inject --merged)');
  addInputOptions(cmd, { workloads: true, mode: true })
    .option('--merged', 'print each workload with the sidecar merged into its pod, as istiod admits it')
    .addOption(new Option('-o, --output <format>', 'print parsed YAML or JSON instead of the raw template output (kube-inject --merged: yaml as istioctl prints it, json the same objects as kubectl -o json prints them)').choices(['yaml', 'json']))
    .option('--output-file <file>', 'write the result to a file (atomically) instead of stdout; its folder must exist')
    .option('--no-progress', 'no progress line on a terminal');
  addLimitOptions(cmd).addHelpText(
    'after',
    `
What it prints:
  render                              the template stage output istiod produces, for each workload
  render --merged                     the pod istiod admits: each workload with the sidecar merged into
                                      its pod (every other document of the input given back)
  render --mode kube-inject --merged  the file as istioctl kube-inject prints it; -o json: the same
                                      objects as JSON, several documents as a kind: List
  render --mode kube-inject           the template stage output for the pod as written, with
                                      istioctl's config

Exit codes: 0 every workload rendered (or was skipped by the injection policy); 1 some workloads failed
(each named on stderr, the others still printed) - a template execution error, a missing template, a
bad proxy.istio.io/config annotation, or a limit (the message names the limit and the flag raising it);
2 bad input, one line naming FILE:LINE:COL: unreadable or invalid files, a template that does not parse,
a pod without containers, a file without workloads (with --merged, an empty file; other documents are
printed back).
`,
  );
  cmd.action(async (flags: RenderFlags) => {
    const req = requestFromFlags(flags);
    if ((req.filename as string[]).includes('-')) req.stdin = await readStdin(true);
    const out = flags.outputFile ? new AtomicFile(flags.outputFile) : new Stdout();
    // progress only where someone watches it, and not over the output itself
    const progress = !flags.quiet && flags.progress !== false && process.stderr.isTTY === true && (flags.outputFile !== undefined || process.stdout.isTTY !== true);
    let shown = false;
    let done = 0;
    let results = 0;
    let summary: { failed: number; total: number };
    try {
      const events = renderStream(req);
      let yielded = Date.now();
      for (;;) {
        // Between workloads, let a SIGINT or SIGTERM in, so the temporary output file is removed
        // (a render itself is synchronous).
        if (Date.now() - yielded > 25) {
          await new Promise((r) => setImmediate(r));
          yielded = Date.now();
        }
        const ev = events.next();
        if (ev.done) {
          summary = ev.value;
          break;
        }
        const e = ev.value;
        if (e.type === 'text') out.write(e.text);
        else if (e.type === 'assumptions') {
          if (!flags.quiet) process.stderr.write(`sidecar-render: ${e.text}\n`);
        } else if (e.type === 'message') process.stderr.write(`${shown ? '\r\x1b[K' : ''}${printable(e.text)}\n`);
        else if (e.type === 'result') {
          // let the event loop run now and then: a reader gone away (| head) is noticed and ends the run
          if (++results % 64 === 0) await new Promise<void>((resolve) => setImmediate(resolve));
          if (!progress) continue;
          done++;
          if (done % PROGRESS_EVERY === 0) {
            shown = true;
            process.stderr.write(`\rrender: ${done} workloads rendered`);
          }
        }
      }
      out.close();
    } catch (e) {
      out.abort();
      if (shown) process.stderr.write('\n');
      throw e;
    }
    if (shown) process.stderr.write(`\rrender: ${done} workloads rendered\n`);
    if (summary.failed > 0) {
      process.stderr.write(`${summary.failed} of ${summary.total} workloads failed\n`);
      process.exitCode = 1;
    }
  });
}

/** Output in chunks of about 64 KiB, so 10,000 workloads are not 10,000 writes. */
class Stdout {
  protected buf = '';
  write(text: string): void {
    this.buf += text;
    if (this.buf.length >= 65536) this.flush();
  }
  protected flush(): void {
    if (this.buf) process.stdout.write(this.buf);
    this.buf = '';
  }
  close(): void {
    this.flush();
  }
  abort(): void {
    // what was rendered before the error stays printed, as a stream
    this.flush();
  }
}

/** --output-file: written as it goes through an AtomicWriter (a temporary sibling renamed at the end). */
class AtomicFile extends Stdout {
  private readonly w: AtomicWriter;
  constructor(file: string) {
    super();
    this.w = new AtomicWriter(file);
  }
  protected override flush(): void {
    if (this.buf) this.w.write(this.buf);
    this.buf = '';
  }
  override close(): void {
    this.flush();
    this.w.close();
  }
  override abort(): void {
    this.buf = '';
    this.w.abort();
  }
}
