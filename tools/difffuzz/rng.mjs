// A small seeded PRNG (mulberry32) so every run is reproducible from its seed.
export class Rng {
  constructor(seed) {
    this.s = seed >>> 0;
  }
  next() {
    let t = (this.s = (this.s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n) {
    return Math.floor(this.next() * n);
  }
  range(lo, hi) {
    return lo + this.int(hi - lo + 1);
  }
  chance(p) {
    return this.next() < p;
  }
  pick(a) {
    return a[this.int(a.length)];
  }
  /** pick from [[weight, value], ...] */
  weighted(pairs) {
    let total = 0;
    for (const [w] of pairs) total += w;
    let x = this.next() * total;
    for (const [w, v] of pairs) {
      if ((x -= w) < 0) return v;
    }
    return pairs[pairs.length - 1][1];
  }
}
