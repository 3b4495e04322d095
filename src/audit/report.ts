// Findings for people (text), for programs (JSON) and for code scanning (SARIF 2.1.0): one entry per
// workload and finding, or (byCause) one per cause, with the workloads it affects.

import { RULES } from './rules/index.js';
import { evidenceOf, SEVERITY_RANK, workloadLocationOf, type Finding, type Severity } from './types.js';
import { VERSION } from '../version.js';

const SEVERITY_COLOR: Record<Severity, string> = { error: '\x1b[31m', warning: '\x1b[33m', info: '\x1b[36m' };

export interface ReportOptions {
  color?: boolean;
  /** How many workloads were judged (text's last line). */
  workloads?: number;
  /**
   * One entry per cause instead of per workload and finding: the findings of one rule at one location
   * (the values line, the ConfigMap, the flag that caused them) are one, with the workloads it affects.
   */
  byCause?: boolean;
  /** Findings left out of the report (info, unless asked for): text's last line says how many. */
  hidden?: number;
}

/**
 * One cause: the findings of one rule, severity and container at one location. A finding whose
 * evidence is in a workload is its own cause; one whose evidence is shared (a line of injector values,
 * the mesh ConfigMap, a --set) is the cause of every finding that cites it.
 */
export interface FindingGroup {
  /** The first of its findings: rule, severity, container, message, fix and the cause's location. */
  first: Finding;
  findings: Finding[];
  /** The workloads it affects, in input order, each once. */
  workloads: string[];
}

export function groupByCause(findings: Finding[]): FindingGroup[] {
  const byKey = new Map<string, FindingGroup & { seen: Set<string> }>();
  for (const f of findings) {
    const key = `${f.rule}\0${f.severity}\0${f.container ?? ''}\0${f.location}`;
    let g = byKey.get(key);
    if (!g) byKey.set(key, (g = { first: f, findings: [], workloads: [], seen: new Set() }));
    g.findings.push(f);
    if (!g.seen.has(f.workload)) {
      g.seen.add(f.workload);
      g.workloads.push(f.workload);
    }
  }
  return [...byKey.values()].map(({ first, findings: fs, workloads }) => ({ first, findings: fs, workloads }));
}

export function formatText(findings: Finding[], opts: ReportOptions = {}): string {
  return [...textReport(findings, opts)].join('');
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** formatText's text piece by piece (a block of findings at a time), to be written as it is made. */
export function* textReport(findings: Finding[], opts: ReportOptions = {}): Generator<string> {
  if (opts.byCause) {
    yield* causeReport(findings, opts);
    return;
  }
  const c = (sev: Severity, s: string): string => (opts.color ? `${SEVERITY_COLOR[sev]}${s}\x1b[0m` : s);
  const dim = (s: string): string => (opts.color ? `\x1b[2m${s}\x1b[0m` : s);
  const bold = (s: string): string => (opts.color ? `\x1b[1m${s}\x1b[0m` : s);
  const groups = new Map<string, Finding[]>();
  const count: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const f of findings) {
    const g = groups.get(f.workload);
    if (g) g.push(f);
    else groups.set(f.workload, [f]);
    count[f.severity]++;
  }
  for (const [workload, fs] of groups) {
    let out = bold(workload) + '\n';
    for (const f of fs) {
      out += `  ${c(f.severity, f.severity.padEnd(7))} ${f.rule}${f.container ? ` [${f.container}]` : ''}\n`;
      out += `          ${f.message}\n`;
      out += `          ${dim('at')} ${f.location}${detail(f)}\n`;
      out += `          ${dim('fix')} ${f.fix}\n`;
    }
    yield out + '\n';
  }
  const total = findings.length;
  const scope = opts.workloads !== undefined ? ` in ${opts.workloads} workload${opts.workloads === 1 ? '' : 's'}` : '';
  yield (total === 0
    ? `No findings${scope}.`
    : `${total} finding${total === 1 ? '' : 's'}${scope}: ${count.error} error, ${count.warning} warning, ${count.info} info.`) + '\n';
}

/**
 * What a file position alone does not say: that the evidence is a container the injector adds
 * (the position is then the pod spec it is added to).
 */
function detail(f: Finding): string {
  const ev = evidenceOf.get(f);
  if (!ev) return '';
  // a flag is the location: the path it set follows
  if (ev.flag && f.location === ev.flag) return ev.path.startsWith(`${ev.flag}:`) ? ` (${ev.path.slice(ev.flag.length + 1)})` : '';
  // a flag or a default: the location is the workload's, the path says what it is
  if (!ev.line) return ev.path !== f.location ? ` (${ev.path.replace(/^[^:]*:/, '')})` : '';
  const m = /:([^:]*) \((as the injector would add it|as rendered|as injected)\)$/.exec(ev.path);
  return m ? ` (${m[1]}, ${m[2]})` : '';
}

/**
 * Text by cause: a block per set of workloads (one workload, or the workloads a shared cause
 * affects), each finding as in the per-workload report, then the count of causes.
 */
function* causeReport(findings: Finding[], opts: ReportOptions): Generator<string> {
  const c = (sev: Severity, s: string): string => (opts.color ? `${SEVERITY_COLOR[sev]}${s}\x1b[0m` : s);
  const dim = (s: string): string => (opts.color ? `\x1b[2m${s}\x1b[0m` : s);
  const bold = (s: string): string => (opts.color ? `\x1b[1m${s}\x1b[0m` : s);
  const causes = groupByCause(findings);
  // causes that affect the same workloads share a block (two lines of values behind the same pods)
  const blocks = new Map<string, FindingGroup[]>();
  for (const g of causes) {
    const key = g.workloads.join('\n');
    const b = blocks.get(key);
    if (b) b.push(g);
    else blocks.set(key, [g]);
  }
  const count: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  const affected = new Set<string>();
  for (const g of causes) {
    count[g.first.severity]++;
    for (const w of g.workloads) affected.add(w);
  }
  for (const gs of blocks.values()) {
    const ws = gs[0]!.workloads;
    const shown = ws.slice(0, 5).join(', ');
    let out = bold(ws.length === 1 ? ws[0]! : `affects ${ws.length} workloads: ${shown}${ws.length > 5 ? `, and ${ws.length - 5} more (-o json lists them all)` : ''}`) + '\n';
    for (const g of [...gs].sort((a, b) => SEVERITY_RANK[b.first.severity] - SEVERITY_RANK[a.first.severity])) {
      const f = g.first;
      const differs = g.findings.some((x) => x.message !== f.message);
      out += `  ${c(f.severity, f.severity.padEnd(7))} ${f.rule}${f.container ? ` [${f.container}]` : ''}\n`;
      out += `          ${f.message}${differs ? ` ${dim(`(as for ${f.workload}; the message differs by workload, --per-workload shows each)`)}` : ''}\n`;
      out += `          ${dim('at')} ${f.location}${detail(f)}\n`;
      out += `          ${dim('fix')} ${f.fix}\n`;
    }
    yield out + '\n';
  }
  const scope = opts.workloads !== undefined ? ` in ${plural(opts.workloads, 'workload')}` : '';
  const hidden = opts.hidden ? `; ${plural(opts.hidden, 'info finding')} not shown (--info shows ${opts.hidden === 1 ? 'it' : 'them'})` : '';
  if (causes.length === 0) {
    yield `No findings${scope}${hidden ? ` (${hidden.slice(2)})` : ''}.\n`;
    return;
  }
  const spread = findings.length > causes.length ? ` (one per cause: ${plural(findings.length, 'workload finding')}, ${plural(affected.size, 'workload')} affected)` : '';
  yield `${plural(causes.length, 'finding')}${scope}${spread}: ${count.error} error, ${count.warning} warning, ${count.info} info${hidden}.\n`;
}

export function formatJson(findings: Finding[], opts: Pick<ReportOptions, 'byCause'> = {}): string {
  return [...jsonReport(findings, opts)].join('');
}

/**
 * formatJson's text piece by piece: JSON.stringify(rows, null, 2) written one row at a time (a row
 * stringified alone, each of its lines indented once more, is what it is inside the array).
 */
export function* jsonReport(findings: Finding[], opts: Pick<ReportOptions, 'byCause'> = {}): Generator<string> {
  if (findings.length === 0) {
    yield '[]\n';
    return;
  }
  let sep = '[\n  ';
  const rows: Iterable<object> = opts.byCause ? groupByCause(findings).map(causeRow) : findings.map(workloadRow);
  for (const row of rows) {
    yield sep + JSON.stringify(row, null, 2).replace(/\n/g, '\n  ');
    sep = ',\n  ';
  }
  yield '\n]\n';
}

function workloadRow(f: Finding): object {
  return { rule: f.rule, severity: f.severity, workload: f.workload, container: f.container, message: f.message, location: f.location, fix: f.fix };
}

/**
 * A cause as JSON: the per-workload row of its first finding (the same keys, in the same order), then
 * `affects` (how many workloads) and `workloads` (each with its container and where it is in the
 * input; its message and fix where they differ from the first's).
 */
function causeRow(g: FindingGroup): object {
  const f = g.first;
  const workloads = g.findings.map((x) => ({
    workload: x.workload,
    container: x.container,
    location: workloadLocationOf.get(x) ?? x.workload,
    ...(x.message !== f.message ? { message: x.message } : {}),
    ...(x.fix !== f.fix ? { fix: x.fix } : {}),
  }));
  return { ...workloadRow(f), affects: g.workloads.length, workloads };
}

const SARIF_LEVEL: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'note' };

/** A SARIF location: physical where `where` is file:line:col in a file, logical (the workload) always. */
function sarifLocation(where: string, name: string): Record<string, unknown> {
  const m = /^(.*):(\d+):(\d+)$/.exec(where);
  const logicalLocations = [{ fullyQualifiedName: name, kind: 'object' }];
  if (!m || m[1] === '' || m[1]!.startsWith('<') || m[1]!.startsWith('--')) return { logicalLocations };
  return { physicalLocation: { artifactLocation: { uri: toUri(m[1]!) }, region: { startLine: Number(m[2]), startColumn: Number(m[3]) } }, logicalLocations };
}

/**
 * SARIF 2.1.0: one run, the rule table as the driver's rules, one result per finding; byCause, one
 * result per cause, at the cause's location, with each workload it affects as a related location.
 */
export function formatSarif(findings: Finding[], opts: Pick<ReportOptions, 'byCause'> = {}): string {
  const ruleIndex = new Map(RULES.map((r, i) => [r.id, i]));
  const results = (opts.byCause ? groupByCause(findings) : findings.map((f) => ({ first: f, findings: [f], workloads: [f.workload] }))).map((g) => {
    const f = g.first;
    const shared = g.workloads.length > 1;
    const result: Record<string, unknown> = {
      ruleId: f.rule,
      ruleIndex: ruleIndex.get(f.rule),
      level: SARIF_LEVEL[f.severity],
      message: { text: `${f.message} Fix: ${f.fix}${shared ? ` Affects ${g.workloads.length} workloads: ${g.workloads.join(', ')}.` : ''}` },
      locations: [sarifLocation(f.location, shared ? f.location : logical(f))],
      ...(shared
        ? {
            relatedLocations: g.findings.map((x, id) => ({
              id,
              ...sarifLocation(workloadLocationOf.get(x) ?? x.workload, logical(x)),
              message: { text: `affected: ${logical(x)}` },
            })),
          }
        : {}),
      partialFingerprints: shared ? { causeRule: `${f.rule}@${f.location}/${f.container ?? ''}` } : { workloadRule: `${f.workload}/${f.container ?? ''}/${f.rule}` },
      properties: { workload: f.workload, container: f.container, fix: f.fix, location: f.location, ...(opts.byCause ? { affects: g.workloads.length, workloads: g.workloads } : {}) },
    };
    return result;
  });
  const sarif = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'sidecar-render audit',
            version: VERSION,
            rules: RULES.map((r) => ({
              id: r.id,
              name: r.id.replace(/(^|-)([a-z])/g, (_m, _d, ch: string) => ch.toUpperCase()),
              shortDescription: { text: r.summary },
              fullDescription: { text: r.description },
              defaultConfiguration: { level: SARIF_LEVEL[r.severity] },
              help: { text: r.description },
            })),
          },
        },
        results,
      },
    ],
  };
  return JSON.stringify(sarif, null, 2) + '\n';
}

function logical(f: Finding): string {
  return f.container ? `${f.workload}/${f.container}` : f.workload;
}

/** Relative paths stay relative (code scanning resolves them against the checkout). */
function toUri(file: string): string {
  if (/^\//.test(file)) return 'file://' + file.split('/').map((p) => encodeURIComponent(p)).join('/');
  if (/^[A-Za-z]:[\\/]/.test(file)) return 'file:///' + file.split(/[\\/]/).map((p, i) => (i === 0 ? p : encodeURIComponent(p))).join('/');
  return file
    .split(/[\\/]/)
    .map((p) => encodeURIComponent(p))
    .join('/');
}
