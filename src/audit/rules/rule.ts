// The shape every rule has: an id, a default severity, a one-line description, and a check.

import type { Subject } from '../subject.js';
import type { Evidence, Severity } from '../types.js';

export interface RawFinding {
  severity?: Severity;
  /** The container the finding is about, if any. */
  container?: string | null;
  message: string;
  evidence: Evidence;
  fix: string;
}

export interface Rule {
  id: string;
  severity: Severity;
  /** One sentence: what the rule looks for (SARIF shortDescription, `--list-rules`). */
  summary: string;
  /** Why it matters (SARIF fullDescription). */
  description: string;
  check(s: Subject, report: (f: RawFinding) => void): void;
}
