// node:net in the playground's bundle: isIP, isIPv4 and isIPv6 with Node's answers (dotted decimal
// without leading zeros; IPv6 with one `::` at most, an IPv4 tail and a zone after `%`), checked
// against Node's own in test/playground/shims.test.ts.

const OCTET = /^(?:0|[1-9]\d{0,2})$/;
const GROUP = /^[0-9a-fA-F]{1,4}$/;
const ZONE = /^[0-9a-zA-Z\-.:]+$/;

export function isIPv4(s: string): boolean {
  const parts = s.split('.');
  return parts.length === 4 && parts.every((p) => OCTET.test(p) && Number(p) <= 255);
}

/** How many 16-bit groups a side of `::` holds, or -1 when it is not one. */
function groups(side: string, last: boolean): number {
  if (side === '') return 0;
  const parts = side.split(':');
  let n = 0;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (GROUP.test(p)) n++;
    else if (last && i === parts.length - 1 && isIPv4(p)) n += 2;
    else return -1;
  }
  return n;
}

export function isIPv6(s: string): boolean {
  const pct = s.indexOf('%');
  if (pct >= 0 && !ZONE.test(s.slice(pct + 1))) return false;
  const addr = pct >= 0 ? s.slice(0, pct) : s;
  const gap = addr.indexOf('::');
  if (gap < 0) return groups(addr, true) === 8;
  const left = addr.slice(0, gap);
  const right = addr.slice(gap + 2);
  if (right.includes('::')) return false;
  const l = groups(left, false);
  const r = groups(right, true);
  return l >= 0 && r >= 0 && l + r <= 7;
}

export function isIP(s: string): 0 | 4 | 6 {
  return isIPv4(s) ? 4 : isIPv6(s) ? 6 : 0;
}
