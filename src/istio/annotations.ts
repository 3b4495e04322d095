// istiod's validateAnnotations: the pod annotations it checks before running the templates. A bad
// value fails the injection (the webhook refuses the pod, kube-inject stops) with
// "invalid value 'V' for annotation 'NAME': REASON".
//
// Public API
//   podAnnotationError(annotations)   the first problem (annotations in sorted order), or undefined
//
// Mirrors: istio.io/istio pkg/kube/inject/validate.go
// Proven by: test/istio/kube-inject.test.ts

import { nodeNet } from '../guard/builtins.js';

type Check = (value: string) => string | undefined;

const UINT = /^[0-9]+$/;

function parseUint(s: string, bits: 16 | 32): string | undefined {
  if (!UINT.test(s)) return `strconv.ParseUint: parsing ${JSON.stringify(s)}: invalid syntax`;
  if (BigInt(s) >= 1n << BigInt(bits)) return `strconv.ParseUint: parsing ${JSON.stringify(s)}: value out of range`;
  return undefined;
}

function portError(p: string): string | undefined {
  const e = parseUint(p.trim(), 16);
  return e && `failed parsing port '${p}': ${e}`;
}

function portList(name: string): Check {
  return (v) => {
    const s = v.trim();
    if (s === '') return undefined;
    for (const p of s.split(',')) {
      const e = portError(p);
      if (e) return `${name} invalid: ${e}`;
    }
    return undefined;
  };
}

/** netip.ParsePrefix: an IPv4 or IPv6 address (no zone), `/`, decimal bits without leading zeros, in range. */
function prefixError(cidr: string): string | undefined {
  const slash = cidr.lastIndexOf('/');
  if (slash < 0) return `netip.ParsePrefix(${JSON.stringify(cidr)}): no '/'`;
  const addr = cidr.slice(0, slash);
  const bits = cidr.slice(slash + 1);
  const family = addr.includes('%') ? 0 : nodeNet().isIP(addr);
  if (family === 0 || (family === 4 && /(^|\.)0\d/.test(addr))) return `netip.ParsePrefix(${JSON.stringify(cidr)}): ParseAddr(${JSON.stringify(addr)}): unable to parse IP`;
  if (!/^(0|[1-9][0-9]*)$/.test(bits) || Number(bits) > (family === 4 ? 32 : 128)) return `netip.ParsePrefix(${JSON.stringify(cidr)}): bad bits after slash: ${JSON.stringify(bits)}`;
  return undefined;
}

function cidrList(name: string, star: boolean): Check {
  return (v) => {
    if (star && v === '*') return undefined;
    if (v === '') return undefined;
    for (const c of v.split(',')) {
      const e = prefixError(c);
      if (e) return `${name} invalid: failed parsing cidr '${c}': ${e}`;
    }
    return undefined;
  };
}

const CHECKS: Record<string, Check> = {
  'sidecar.istio.io/interceptionMode': (v) => (['REDIRECT', 'TPROXY', 'NONE'].includes(v) ? undefined : `interceptionMode invalid, use REDIRECT,TPROXY,NONE: ${v}`),
  'status.sidecar.istio.io/port': (v) => {
    const e = portError(v);
    return e && `excludeInboundPorts invalid: ${e}`;
  },
  'readiness.status.sidecar.istio.io/initialDelaySeconds': (v) => parseUint(v, 32),
  'readiness.status.sidecar.istio.io/periodSeconds': (v) => parseUint(v, 32),
  'readiness.status.sidecar.istio.io/failureThreshold': (v) => parseUint(v, 32),
  'traffic.sidecar.istio.io/includeOutboundIPRanges': cidrList('includeIPRanges', true),
  'traffic.sidecar.istio.io/excludeOutboundIPRanges': cidrList('excludeIPRanges', false),
  'traffic.sidecar.istio.io/includeInboundPorts': (v) => (v === '*' ? undefined : portList('includeInboundPorts')(v)),
  'traffic.sidecar.istio.io/excludeInboundPorts': portList('excludeInboundPorts'),
  'traffic.sidecar.istio.io/excludeOutboundPorts': portList('excludeOutboundPorts'),
};

/** The first annotation istiod would refuse, as its error line; undefined when all are valid. */
export function podAnnotationError(annotations: Record<string, string>): string | undefined {
  for (const name of Object.keys(annotations).sort()) {
    const check = CHECKS[name];
    const e = check ? check(annotations[name]!) : undefined;
    if (e !== undefined) return `invalid value '${annotations[name]}' for annotation '${name}': ${e}`;
  }
  return undefined;
}
