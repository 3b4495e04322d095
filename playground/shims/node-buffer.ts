// node:buffer in the playground's bundle: the buffer package's Buffer, and isUtf8 by the browser's
// strict UTF-8 decoder (checked against Node's in test/playground/shims.test.ts).

export { Buffer } from 'buffer';

const strict = new TextDecoder('utf-8', { fatal: true });

export function isUtf8(input: ArrayBufferView | ArrayBuffer): boolean {
  try {
    strict.decode(input);
    return true;
  } catch {
    return false;
  }
}
