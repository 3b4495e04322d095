// Findings for people (text grouped by workload), for programs (JSON) and for code scanning (SARIF 2.1.0).

import { RULES } from './rules/index.js';
import { evidenceOf, type Finding, type Severity } from './types.js';
import { VERSION } from '../version.js';

const SEVERITY_COLOR: Record<Severity, string> = { error: '\x1b[31m', warning: '\x1b[33m', info: '\x1b[36m' };

export function formatText(findings: Finding[], opts: { color?: boolean; workloads?: number } = {}): string {
  return [...textReport(findings, opts)].join('');
}

/** formatText's text piece by piece (a workload's findings at a time), to be written as it is made. */
export function* textReport(findings: Finding[], opts: { color?: boolean; workloads?: number } = {}): Generator<string> {
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
  // a flag or a default: the location is the workload's, the path says what it is
  if (!ev.line) return ev.path !== f.location ? ` (${ev.path.replace(/^[^:]*:/, '')})` : '';
  const m = /:([^:]*) \((as the injector would add it|as rendered|as injected)\)$/.exec(ev.path);
  return m ? ` (${m[1]}, ${m[2]})` : '';
}

export function formatJson(findings: Finding[]): string {
  return [...jsonReport(findings)].join('');
}

/**
 * formatJson's text piece by piece: JSON.stringify(rows, null, 2) written one row at a time (a row
 * stringified alone, each of its lines indented once more, is what it is inside the array).
 */
export function* jsonReport(findings: Finding[]): Generator<string> {
  if (findings.length === 0) {
    yield '[]\n';
    return;
  }
  let sep = '[\n  ';
  for (const f of findings) {
    const row = { rule: f.rule, severity: f.severity, workload: f.workload, container: f.container, message: f.message, location: f.location, fix: f.fix };
    yield sep + JSON.stringify(row, null, 2).replace(/\n/g, '\n  ');
    sep = ',\n  ';
  }
  yield '\n]\n';
}

const SARIF_LEVEL: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'note' };

/** SARIF 2.1.0: one run, the rule table as the driver's rules, one result per finding. */
export function formatSarif(findings: Finding[]): string {
  const ruleIndex = new Map(RULES.map((r, i) => [r.id, i]));
  const results = findings.map((f) => {
    const m = /^(.*):(\d+):(\d+)$/.exec(f.location);
    const result: Record<string, unknown> = {
      ruleId: f.rule,
      ruleIndex: ruleIndex.get(f.rule),
      level: SARIF_LEVEL[f.severity],
      message: { text: `${f.message} Fix: ${f.fix}` },
      locations: [
        m && m[1] !== '' && !m[1]!.startsWith('<')
          ? {
              physicalLocation: {
                artifactLocation: { uri: toUri(m[1]!) },
                region: { startLine: Number(m[2]), startColumn: Number(m[3]) },
              },
              logicalLocations: [{ fullyQualifiedName: logical(f), kind: 'object' }],
            }
          : { logicalLocations: [{ fullyQualifiedName: logical(f), kind: 'object' }] },
      ],
      partialFingerprints: { workloadRule: `${f.workload}/${f.container ?? ''}/${f.rule}` },
      properties: { workload: f.workload, container: f.container, fix: f.fix, location: f.location },
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
