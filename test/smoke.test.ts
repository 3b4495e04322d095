import { describe, expect, it } from 'vitest';
import { isTrue, T, def, typeOf, withType, SLICE_STRING } from '../src/template/value.js';

describe('value model', () => {
  it('knows Go truth', () => {
    expect(isTrue('')).toBe(false);
    expect(isTrue(0n)).toBe(false);
    expect(isTrue([1])).toBe(true);
  });
  it('parses signatures', () => {
    const f = def('x', 'func(string, ...interface {}) (string, error)', () => '');
    expect(f.variadic).toBe(true);
    expect(f.results).toBe(2);
    expect(f.params[0]).toBe(T.string);
    expect(typeOf(withType(['a'], SLICE_STRING))!.name).toBe('[]string');
  });
});
