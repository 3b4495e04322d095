// yaml.v2 (libyaml) does not check indentation inside quoted scalars and flow collections: a line
// that continues `key: "abc` or `key: [a,` may start at any column, even 0, where YAML 1.2 (and so
// the `yaml` package) wants it indented past its parent. The line's leading white space is dropped
// by folding either way, so indenting such lines changes no value: the readers parse the text again
// with them indented when the first parse fails. Lines that are document markers (`---`, `...` at
// column 0) are left alone, as yaml.v2 stops there too.
//
// Upstream: none (lets the yaml package read quoted and flow lines that libyaml takes at any indentation)

/** Text with continuation lines of quoted scalars and flow collections indented to the column where
 *  their node starts, and the spaces added per 1-based line; undefined when no line needed it.
 *  `marker` is the first line that is a document marker inside a quoted scalar, where yaml.v2 stops
 *  with "found unexpected document indicator". */
export function indentFlowContinuations(text: string): { text: string; added: Map<number, number>; marker?: number } | undefined {
  const lines = text.split('\n');
  const added = new Map<number, number>();
  let quote: '"' | "'" | undefined;
  let flow = 0;
  /** Column where the open quoted scalar or outermost flow collection starts. */
  let nodeCol = 0;
  /** Inside a block scalar: its content is the lines indented past this. */
  let blockParent: number | undefined;
  let marker: number | undefined;

  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!.endsWith('\r') ? lines[n]!.slice(0, -1) : lines[n]!;
    let indent = 0;
    while (line[indent] === ' ') indent++;
    const blank = /^[ \t]*$/.test(line);
    const continuing = quote !== undefined || flow > 0;

    if (blockParent !== undefined) {
      if (blank || indent > blockParent) continue;
      blockParent = undefined;
    }
    const isMarker = /^(?:---|\.\.\.)(?:[ \t]|$)/.test(line);
    if (isMarker && quote !== undefined) marker ??= n + 1;
    if (continuing && !blank && indent < nodeCol && !isMarker) added.set(n + 1, nodeCol - indent);

    let i = indent;
    let expect = true; // a node may start here
    const lineIndent = indent;
    while (i < line.length) {
      if (quote === '"') {
        const c = line[i]!;
        if (c === '\\') i += 2;
        else if (c === '"') {
          quote = undefined;
          expect = false;
          i++;
        } else i++;
        continue;
      }
      if (quote === "'") {
        if (line[i] === "'") {
          if (line[i + 1] === "'") i += 2;
          else {
            quote = undefined;
            expect = false;
            i++;
          }
        } else i++;
        continue;
      }
      const c = line[i]!;
      const next = line[i + 1];
      const spaceAfter = next === undefined || next === ' ' || next === '\t';
      if (c === ' ' || c === '\t') {
        i++;
        continue;
      }
      if (c === '#' && (i === 0 || line[i - 1] === ' ' || line[i - 1] === '\t')) break;
      if (c === '"' || c === "'") {
        if (expect) {
          if (flow === 0) nodeCol = i;
          quote = c;
          i++;
          continue;
        }
      } else if (c === '[' || c === '{') {
        if (expect || flow > 0) {
          if (flow === 0) nodeCol = i;
          flow++;
          expect = true;
          i++;
          continue;
        }
      } else if (flow > 0 && (c === ']' || c === '}')) {
        flow--;
        expect = flow > 0;
        i++;
        continue;
      } else if (flow > 0 && c === ',') {
        expect = true;
        i++;
        continue;
      } else if (c === ':' && (spaceAfter || flow > 0)) {
        expect = true;
        i++;
        continue;
      } else if (flow === 0 && expect && (c === '-' || c === '?') && spaceAfter) {
        i++;
        continue;
      } else if (flow === 0 && expect && (c === '|' || c === '>')) {
        blockParent = lineIndent;
        break;
      } else if (expect && (c === '&' || c === '!')) {
        while (i < line.length && line[i] !== ' ' && line[i] !== '\t') i++;
        continue;
      }
      // a plain scalar (or alias): up to what ends it in this context
      expect = false;
      i++;
      while (i < line.length) {
        const d = line[i]!;
        if ((d === ' ' || d === '\t') && line[i + 1] === '#') break;
        if (d === ':' && (line[i + 1] === undefined || line[i + 1] === ' ' || line[i + 1] === '\t' || (flow > 0 && ',[]{}'.includes(line[i + 1]!)))) break;
        if (flow > 0 && ',[]{}'.includes(d)) break;
        i++;
      }
    }
  }
  if (added.size === 0 && marker === undefined) return undefined;
  const out = lines.map((l, k) => {
    const pad = added.get(k + 1);
    return pad ? ' '.repeat(pad) + l : l;
  });
  return { text: out.join('\n'), added, marker };
}
