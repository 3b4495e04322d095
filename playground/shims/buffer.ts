// Node's global Buffer in the playground's bundle (the library reads and writes bytes with it):
// esbuild's inject puts this in place of every free `Buffer`.

export { Buffer } from 'buffer';

/** node:buffer's isUtf8 (Helm's .Files tell text from bytes with it): whether the bytes are valid UTF-8. */
export function isUtf8(input: ArrayBufferView | ArrayBuffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(input);
    return true;
  } catch {
    return false;
  }
}
