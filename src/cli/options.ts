// Option parsers the commands share.

/** A repeatable option: each use adds its value to the list (give it `[]` as the default). */
export function collect(v: string, prev: string[]): string[] {
  return [...prev, v];
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
