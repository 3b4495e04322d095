import { describe, expect, it } from 'vitest';
import { applySet, mergeValues, SetValuesError } from '../../src/helm/strvals.js';

const plain = (v: unknown) => JSON.parse(JSON.stringify(v));

describe('Helm --set', () => {
  const base = { global: { proxy: { statusPort: 15020, image: 'proxyv2' } } };

  it('sets dotted keys with typed values', () => {
    const out = plain(applySet(base, 'global.proxy.holdApplicationUntilProxyStarts=true,global.tag=1.7.0,global.n=5'));
    expect(out.global.proxy).toEqual({ statusPort: 15020, image: 'proxyv2', holdApplicationUntilProxyStarts: true });
    expect(out.global.tag).toBe('1.7.0');
    expect(out.global.n).toBe(5);
    expect(plain(base).global.proxy.holdApplicationUntilProxyStarts).toBeUndefined();
  });

  it('keeps leading-zero numbers, floats and --set-string values as strings', () => {
    expect(plain(applySet({}, 'a=007,b=1.5,c=0')).a).toBe('007');
    expect(plain(applySet({}, 'b=1.5')).b).toBe('1.5');
    expect(plain(applySet({}, 'c=0')).c).toBe(0);
    expect(plain(applySet({}, 'd=true', true)).d).toBe('true');
  });

  it('handles escapes, lists, indexes and null', () => {
    expect(plain(applySet({}, 'annotations.sidecar\\.istio\\.io/inject=false'))).toEqual({
      annotations: { 'sidecar.istio.io/inject': false },
    });
    expect(plain(applySet({}, 'l={a,b,3}'))).toEqual({ l: ['a', 'b', 3] });
    expect(plain(applySet({}, 'c[1].name=x'))).toEqual({ c: [null, { name: 'x' }] });
    expect(plain(applySet({ a: 1, b: 2 }, 'a=null'))).toEqual({ b: 2 });
    expect(plain(applySet({}, 'a=x\\,y'))).toEqual({ a: 'x,y' });
    expect(plain(applySet({}, 'a='))).toEqual({ a: '' });
  });

  it('rejects a key without a value', () => {
    expect(() => applySet({}, 'global.proxy')).toThrow(SetValuesError);
    expect(() => applySet({}, 'global.proxy')).toThrow('key "proxy" has no value');
    expect(() => applySet({}, 'a[-1]=x')).toThrow('negative');
  });
});

describe('values files', () => {
  it('merge maps deeply, replace lists, delete on null', () => {
    const out = plain(mergeValues({ a: { b: 1, c: [1, 2], d: 'x' } }, { a: { c: [3], d: null, e: true } }));
    expect(out).toEqual({ a: { b: 1, c: [3], e: true } });
  });
});
