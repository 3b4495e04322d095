// node:zlib in the playground's bundle: only a chart's .tgz is gunzipped, and the page takes no chart.

export function gunzipSync(): never {
  throw new Error('a .tgz chart cannot be read in the browser');
}
