// Go's net.ParseIP: an address in dotted decimal (no leading zeros) or IPv6 text (one `::` at most, an
// IPv4 tail, no zone), as the bytes Go keeps of it. Sprig's certificate functions write these bytes;
// values.schema.json's ipv4, ipv6 and email formats ask only whether it parses.
//
// Mirrors: go1.19 src/net/ip.go (ParseIP, To4)
// Proven by: test/vectors/sprig/certs.jsonl, test/helm/schema-hostile.test.ts

import { nodeNet } from '../../guard/builtins.js';

/** Go's net.ParseIP as the bytes x509 writes: 4 for an IPv4 address (also one written as IPv6), else 16. */
export function parseIP(s: string): Buffer | undefined {
  if (nodeNet().isIPv4(s)) return /(^|\.)0\d/.test(s) ? undefined : Buffer.from(s.split('.').map(Number));
  if (!nodeNet().isIPv6(s) || s.includes('%')) return undefined;
  let text = s;
  const tail: number[] = [];
  const v4 = /:(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    if (/(^|\.)0\d/.test(v4[1]!)) return undefined;
    tail.push(...v4[1]!.split('.').map(Number));
    text = text.slice(0, v4.index + 1) + '0:0';
  }
  const [head, rest] = text.includes('::') ? text.split('::') : [text, undefined];
  const groups = (p: string | undefined) => (p ? p.split(':').filter((x) => x !== '') : []);
  const h = groups(head);
  const r = groups(rest);
  const all = rest === undefined ? h : [...h, ...Array(8 - h.length - r.length).fill('0'), ...r];
  const out = Buffer.alloc(16);
  all.forEach((g, i) => out.writeUInt16BE(parseInt(g, 16), i * 2));
  if (tail.length) out.set(tail, 12);
  const mapped = out.subarray(0, 10).every((b) => b === 0) && out[10] === 0xff && out[11] === 0xff;
  return mapped ? Buffer.from(out.subarray(12)) : out;
}
