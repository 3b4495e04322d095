// @promptctl/go-template-js set up to render the benchmark templates: its Sprig subset, plus plain
// JavaScript stand-ins for the Istio functions case (a) calls (that package has none). toYaml uses
// sidecar-render's emitter so the output can be compared; the stand-ins are deliberately simple
// (no Go type conversions), which only favours go-template-js in the comparison.

import {
  createEngine,
  sprigConversions,
  sprigDefaults,
  sprigDicts,
  sprigHash,
  sprigLists,
  sprigMath,
  sprigRegex,
  sprigSemver,
  sprigStrings,
  sprigTypes,
} from '@promptctl/go-template-js';

const f = (fn, argTypes) => ({ fn, argTypes });

function sortedJson(v) {
  if (Array.isArray(v)) return `[${v.map(sortedJson).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${sortedJson(v[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

function containerPorts(cs, include) {
  const parts = [];
  for (const c of cs ?? []) {
    if (!include(c)) continue;
    for (const p of c.Ports ?? []) {
      if (p.Protocol === 'UDP' || p.Protocol === 'SCTP') continue;
      parts.push(String(p.ContainerPort));
    }
  }
  return parts.join(',');
}

function istioStandIns(jsonToYaml) {
  return {
    annotation: f((meta, name, dflt) => {
      const a = meta?.Annotations ?? {};
      return Object.prototype.hasOwnProperty.call(a, name) ? a[name] : String(dflt ?? '<nil>');
    }, ['value', 'string', 'value']),
    valueOrDefault: f((v, d) => (v === '' || v === null || v === undefined ? d : v), ['value', 'value']),
    toYaml: f((v) => jsonToYaml(sortedJson(v)), ['value']),
    indent: f((n, s) => s.split('\n').map((l, i) => (i > 0 ? ' '.repeat(n) + l : l)).join('\n'), ['int', 'string']),
    excludeInboundPort: f((port, excluded) => {
      const ps = String(port).trim();
      if (ps === '' || ps === '0') return excluded;
      const out = [];
      for (const p of excluded.split(',')) {
        if (p === ps) return excluded;
        if (p.trim()) out.push(p.trim());
      }
      out.push(ps);
      return out.join(',');
    }, ['value', 'string']),
    includeInboundPorts: f((cs) => containerPorts(cs, () => true), ['list']),
    applicationPorts: f((cs) => containerPorts(cs, (c) => c.Name !== 'istio-proxy'), ['list']),
    isset: f((m, k) => Object.prototype.hasOwnProperty.call(m ?? {}, k), ['value', 'string']),
    toJSON: f((m) => sortedJson(m ?? {}), ['value']),
    fromJSON: f((s) => JSON.parse(s), ['string']),
    structToJSON: f((v) => sortedJson(v), ['value']),
    strdict: f((...kv) => {
      const d = {};
      for (let i = 0; i < kv.length; i += 2) d[kv[i]] = kv[i + 1] ?? '';
      return d;
    }, ['string']),
    omit: f((m, ...keys) => {
      const d = {};
      for (const k of Object.keys(m ?? {})) if (!keys.includes(k)) d[k] = m[k];
      return d;
    }, ['value', 'string']),
    mergeMaps: f((...ms) => Object.assign({}, ...ms), ['value']),
    toJsonMap: f((...ms) => sortedJson(Object.assign({}, ...ms)), ['value']),
    contains: f((needle, haystack) => haystack.includes(needle), ['string', 'string']),
    toLower: f((s) => s.toLowerCase(), ['string']),
    env: f((_k, d) => d, ['string', 'string']),
    directory: f((p) => p.slice(0, p.lastIndexOf('/') + 1), ['string']),
  };
}

// Sprig's quote/squote take any value (Go formats it with %v); go-template-js's insist on strings.
const goQuote = (v) => JSON.stringify(String(v));
const lenient = {
  quote: f((...vs) => vs.filter((v) => v !== null && v !== undefined).map(goQuote).join(' '), ['value']),
  squote: f((...vs) => vs.filter((v) => v !== null && v !== undefined).map((v) => `'${v}'`).join(' '), ['value']),
};

/** An engine with the Sprig subset (and, for the istio set, the stand-ins above). */
export function gtjsEngine(set, jsonToYaml) {
  const funcs = {
    ...sprigDefaults(),
    ...sprigStrings(),
    ...sprigMath(),
    ...sprigLists(),
    ...sprigDicts(),
    ...sprigRegex(),
    ...sprigTypes(),
    ...sprigConversions(),
    ...sprigSemver(),
    ...sprigHash(),
    ...lenient,
    ...(set === 'istio' ? istioStandIns(jsonToYaml) : {}),
  };
  return createEngine({ fromString: (s) => s, funcs });
}

/** The data of case (a) as plain JavaScript: the typed Kubernetes parts with Go's field names. */
export function gtjsInjectionData(json) {
  const d = structuredClone(json);
  const m = d.ObjectMeta;
  d.ObjectMeta = { Name: m.name, Namespace: m.namespace, Labels: m.labels ?? {}, Annotations: m.annotations ?? {} };
  d.Containers = d.Containers.map((c) => ({
    Name: c.name,
    Image: c.image,
    Ports: (c.ports ?? []).map((p) => ({ Name: p.name ?? '', ContainerPort: p.containerPort, Protocol: p.protocol ?? '' })),
  }));
  return d;
}
