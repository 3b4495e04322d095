// Errors raised by the template engine. `message` is always Go's exact error text.
//
// Mirrors: go1.19 src/text/template/exec.go (ExecError, errorf); go1.19 src/text/template/funcs.go (safeCall)
// Proven by: test/vectors/template/exec-errors.jsonl, test/vectors/template/parse-errors.jsonl

/** Common base: the template whose source holds the error and the position (col is 0 when Go gives none). */
export class TemplateError extends Error {
  constructor(
    message: string,
    readonly templateName: string,
    readonly line: number,
    readonly col: number,
  ) {
    super(message);
    this.name = 'TemplateError';
  }
}

/** Raised by parse (Go: the error returned by Template.Parse). */
export class ParseError extends TemplateError {
  constructor(message: string, templateName: string, line: number, col = 0) {
    super(message, templateName, line, col);
    this.name = 'ParseError';
  }
}

/** Raised by execute (Go: template.ExecError); `output` is what had been written before the error. */
export class ExecError extends TemplateError {
  output = '';
  constructor(message: string, templateName: string, line: number, col: number) {
    super(message, templateName, line, col);
    this.name = 'ExecError';
  }
}

/**
 * A Go function panicked. Thrown by function implementations; the engine reports it the way Go's
 * safeCall does: `error calling NAME: <panic value>`.
 */
export class GoPanic extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GoPanic';
  }
}
