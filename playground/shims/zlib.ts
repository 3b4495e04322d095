// node:zlib in the playground's bundle: only a chart's .tgz is inflated, and the page takes no chart.

export const constants = { Z_SYNC_FLUSH: 2 };

/** Not in the browser: the archive reader checks the gzip trailer with its own CRC-32. */
export const crc32 = undefined;

export function inflateRawSync(): never {
  throw new Error('a .tgz chart cannot be read in the browser');
}
