// Option parsers the commands share.

/** Lists these parsers made, which they may add to in place (never the default commander passes first:
 *  copying the list at every use made 20,000 `--set` flags take seconds). */
const grown = new WeakSet<string[]>();

function append(prev: string[], values: string[]): string[] {
  const out = grown.has(prev) ? prev : [...prev];
  grown.add(out);
  for (const v of values) out.push(v);
  return out;
}

/** A repeatable option: each use adds its value to the list (give it `[]` as the default). */
export function collect(v: string, prev: string[]): string[] {
  return append(prev, [v]);
}

/**
 * A repeatable option whose every value is also a comma-separated list, as pflag's StringSlice reads it
 * (Helm's -f and --api-versions): one CSV record, so `"a,b",c` is two values and a quote inside an
 * unquoted value is an error.
 */
export function csvList(flag: string): (v: string, prev: string[]) => string[] {
  return (v, prev) => append(prev, readCsvRecord(v, flag));
}

function readCsvRecord(v: string, flag: string): string[] {
  if (v === '') return [];
  const out: string[] = [];
  let i = 0;
  const bad = (why: string): never => {
    throw new Error(`invalid argument "${v}" for "${flag}" flag: parse error on line 1, column ${i + 1}: ${why}`);
  };
  for (;;) {
    let field = '';
    if (v[i] === '"') {
      i++;
      for (;;) {
        if (i >= v.length) bad('extraneous or missing " in quoted-field');
        if (v[i] === '"') {
          if (v[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += v[i++];
      }
      if (i < v.length && v[i] !== ',' && v[i] !== '\n') bad('extraneous or missing " in quoted-field');
    } else {
      while (i < v.length && v[i] !== ',' && v[i] !== '\n') {
        if (v[i] === '"') bad('bare " in non-quoted-field');
        field += v[i++];
      }
    }
    out.push(field.endsWith('\r') ? field.slice(0, -1) : field);
    if (i >= v.length || v[i] === '\n') return out;
    i++;
  }
}

/** A parser that takes only the listed values; anything else is a usage error naming the flag. The
 *  values ride on the parser as `choices`, so that shell completion offers them (completion.ts). */
export function oneOf<T extends string>(flag: string, allowed: readonly T[]): ((v: string) => T) & { choices: readonly T[] } {
  const parse = (v: string): T => {
    if (!(allowed as readonly string[]).includes(v)) throw new Error(`${flag} must be one of ${allowed.join(', ')}, not "${v}"`);
    return v as T;
  };
  return Object.assign(parse, { choices: allowed });
}

/** The values an option takes when they are a fixed list: commander's choices, or oneOf's. */
export function choicesOf(o: { argChoices?: readonly string[]; parseArg?: unknown }): readonly string[] | undefined {
  return o.argChoices ?? (o.parseArg as { choices?: readonly string[] } | undefined)?.choices;
}
