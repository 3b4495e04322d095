// A chart directory packed as `helm package` packs it (ustar entries under CHARTNAME/, gzipped), for
// tests of chart archives.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

function header(name: string, size: number): Buffer {
  const h = Buffer.alloc(512);
  h.write(name, 0, 100, 'utf8');
  h.write('0000644\0', 100, 'ascii');
  h.write('0000000\0', 108, 'ascii');
  h.write('0000000\0', 116, 'ascii');
  h.write(size.toString(8).padStart(11, '0') + '\0', 124, 'ascii');
  h.write('00000000000\0', 136, 'ascii');
  h.write('        ', 148, 'ascii');
  h.write('0', 156, 'ascii');
  h.write('ustar\0', 257, 'ascii');
  h.write('00', 263, 'ascii');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 'ascii');
  return h;
}

/** Every file below dir, as entries named `${top}/${relative path}`. */
export function packChart(dir: string, top: string): Buffer {
  const parts: Buffer[] = [];
  const walk = (d: string, rel: string): void => {
    for (const name of readdirSync(d).sort()) {
      const full = join(d, name);
      const r = rel ? `${rel}/${name}` : name;
      if (statSync(full).isDirectory()) walk(full, r);
      else {
        const data = readFileSync(full);
        parts.push(header(`${top}/${r}`, data.length), data, Buffer.alloc((512 - (data.length % 512)) % 512));
      }
    }
  };
  walk(dir, '');
  parts.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(parts));
}
