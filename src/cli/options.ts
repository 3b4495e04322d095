// Option parsers the commands share.

/** A repeatable option: each use adds its value to the list (give it `[]` as the default). */
export function collect(v: string, prev: string[]): string[] {
  return [...prev, v];
}

/** A parser that takes only the listed values; anything else is a usage error naming the flag. */
export function oneOf<T extends string>(flag: string, allowed: readonly T[]): (v: string) => T {
  return (v: string): T => {
    if (!(allowed as readonly string[]).includes(v)) throw new Error(`${flag} must be one of ${allowed.join(', ')}, not "${v}"`);
    return v as T;
  };
}
