// A page that is not cross-origin isolated has no SharedArrayBuffer. The library makes one as it loads,
// for the Atomics.wait pause of a file read that must wait (src/guard/fs.ts), which the page never does:
// an ArrayBuffer stands in, through esbuild's inject, in place of every free `SharedArrayBuffer`.

const given = (globalThis as { SharedArrayBuffer?: SharedArrayBufferConstructor }).SharedArrayBuffer;
const SharedArrayBufferOrNot = given ?? (ArrayBuffer as unknown as SharedArrayBufferConstructor);
export { SharedArrayBufferOrNot as SharedArrayBuffer };
