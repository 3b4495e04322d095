// Node's global Buffer in the playground's bundle (the library reads and writes bytes with it):
// esbuild's inject puts this in place of every free `Buffer`.

export { Buffer } from 'buffer';
