// The `yaml` package, loaded on first use. Inputs that the fast loader (fastload.ts) reads, and
// template output, never need it; loading its CommonJS build costs the CLI about 17 ms at start-up.

import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

type YamlModule = typeof Yaml;
let loaded: YamlModule | undefined;

/** The `yaml` module (its CommonJS build, required synchronously the first time). */
export function yamlLib(): YamlModule {
  loaded ??= createRequire(import.meta.url)('yaml') as YamlModule;
  return loaded;
}

export const isAlias = (n: unknown): n is Yaml.Alias => yamlLib().isAlias(n);
export const isYamlMap = (n: unknown): n is Yaml.YAMLMap => yamlLib().isMap(n);
export const isScalar = (n: unknown): n is Yaml.Scalar => yamlLib().isScalar(n);
export const isSeq = (n: unknown): n is Yaml.YAMLSeq => yamlLib().isSeq(n);
