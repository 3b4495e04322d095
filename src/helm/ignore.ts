// .helmignore, as Helm's pkg/ignore reads and applies it: one filepath.Match pattern a line, blank lines
// and `#` comments skipped; `**` and a malformed pattern fail the chart. Rules are tried in order and
// the first to decide wins: a rule that matches ignores the path; a `!` rule ignores every path it
// does NOT match (Helm's own reading of negation, so `!keep.txt` ignores Chart.yaml too); a trailing
// `/` limits a rule to directories (a `!dir/` rule ignores every file); a rule without '/' matches the
// base name, one with '/' the whole path, a leading '/' is cut off. Helm always ignores dotfiles in
// templates/ (its default rule, tried last).
//
// Each rule is compiled once for the chart. A .helmignore has at most MAX_IGNORE_RULES rules, so
// rules × paths stays bounded (Helm has no bound).
//
// Mirrors: helm.sh/helm/v3 v3.17 pkg/ignore/rules.go, pkg/chart/loader/directory.go
// Proven by: test/helm/glob-hostile.test.ts

import { InputError } from '../yaml/load.js';
import { trimSpace } from '../sprig/strings.js';
import { FilepathPattern, takeFilepathSteps } from './match.js';

export const MAX_IGNORE_RULES = 10_000;
/** Steps (bytes compared) matching a chart's paths against its rules may take in all. */
export const MAX_IGNORE_STEPS = 500_000_000;
/** bufio.Scanner's largest token: a longer line fails Helm's reading of the file. */
const MAX_LINE_BYTES = 64 * 1024;

interface Rule {
  negate: boolean;
  mustDir: boolean;
  /** what the pattern is matched against */
  subject: 'path' | 'base';
  pattern: FilepathPattern;
  /**
   * Leading slashes of a rule that starts with '/'. Helm cuts one off each time the rule is tried (its
   * closure trims the captured rule), so `//a` can match only from its second use on; until then the
   * pattern starts with '/' and no path does.
   */
  slashes: number;
  tries: number;
}

/** A path and its base name, each encoded once however many rules test it. */
class Name {
  readonly base: string;
  private rb: Uint8Array | undefined;
  private bb: Uint8Array | undefined;
  constructor(readonly rel: string) {
    this.base = rel.slice(rel.lastIndexOf('/') + 1);
  }
  readonly relBytes = (): Uint8Array => (this.rb ??= Buffer.from(this.rel));
  // '/' is one byte in UTF-8: the base name's bytes follow the last one
  readonly baseBytes = (): Uint8Array => (this.bb ??= this.relBytes().subarray(this.relBytes().lastIndexOf(0x2f) + 1));
}

export class IgnoreRules {
  private readonly rules: Rule[] = [];
  private steps = 0;
  private file = '';

  /** The rules of a .helmignore (bytes as read), followed by Helm's default; `file` names it in errors. */
  static parse(data: Buffer, file: string): IgnoreRules {
    const out = new IgnoreRules();
    out.file = file;
    let start = 0;
    if (data.length >= 3 && data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) start = 3;
    let lineNo = 0;
    while (start < data.length) {
      let end = data.indexOf(0x0a, start);
      const next = end < 0 ? data.length : end + 1;
      if (end < 0) end = data.length;
      lineNo++;
      if (end - start >= MAX_LINE_BYTES) throw new InputError('bufio.Scanner: token too long (a line of 64 KiB or more)', file, lineNo);
      if (end > start && data[end - 1] === 0x0d) end--;
      out.add(data.toString('utf8', start, end), file, lineNo);
      start = next;
    }
    out.add('templates/.?*', file, 0, true);
    return out;
  }

  /** Helm's parseRule. */
  private add(line: string, file: string, lineNo: number, byHelm = false): void {
    let rule = trimSpace(line);
    if (rule === '' || rule.startsWith('#')) return;
    if (!byHelm && this.rules.length >= MAX_IGNORE_RULES) {
      throw new InputError(`more than ${MAX_IGNORE_RULES} rules: a .helmignore is read to ${MAX_IGNORE_RULES} rules`, file, lineNo);
    }
    if (rule.includes('**')) throw new InputError('double-star (**) syntax is not supported', file, lineNo);
    if (!new FilepathPattern(rule).valid) throw new InputError('syntax error in pattern', file, lineNo);
    const negate = rule.startsWith('!');
    if (negate) rule = rule.slice(1);
    const mustDir = rule.endsWith('/');
    if (mustDir) rule = rule.slice(0, -1);
    let slashes = 0;
    while (rule[slashes] === '/') slashes++;
    const subject = slashes > 0 || rule.includes('/') ? 'path' : 'base';
    this.rules.push({ negate, mustDir, subject, pattern: new FilepathPattern(rule.slice(slashes)), slashes, tries: 0 });
  }

  private matches(r: Rule, name: Name): boolean {
    if (r.slashes > 0 && r.tries < r.slashes) {
      r.tries++;
      if (r.tries < r.slashes) return false;
    }
    if (r.subject === 'path') return r.pattern.test(name.rel, name.relBytes);
    return r.pattern.test(name.base, name.baseBytes);
  }

  /** Helm's Rules.Ignore for the chart-relative, '/'-separated path of a file or directory. */
  ignore(rel: string, isDir: boolean): boolean {
    if (rel === '' || rel === '.' || rel === './') return false;
    const name = new Name(rel);
    try {
      for (const r of this.rules) {
        if (r.negate) {
          if (r.mustDir && !isDir) return true;
          if (!this.matches(r, name)) return true;
          continue;
        }
        if (r.mustDir && !isDir) continue;
        if (this.matches(r, name)) return true;
      }
      return false;
    } finally {
      this.steps += takeFilepathSteps();
      if (this.steps > MAX_IGNORE_STEPS) {
        throw new InputError(`matching the rules takes more than ${MAX_IGNORE_STEPS.toLocaleString('en-US')} steps: a chart's .helmignore is matched no further`, this.file);
      }
    }
  }
}
