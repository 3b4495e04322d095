// node:fs in the playground's bundle. The page gives every input as {name, text}, so the render, audit
// and diff paths it calls never read a file; what still reaches for one (a time zone's TZif file, a chart
// folder) gets the error a missing file gives, which those callers already handle.

function noFiles(name: string): never {
  throw Object.assign(new Error(`${name}: there is no file system in the browser`), { code: 'ENOENT' });
}

export const readFileSync = (p: unknown): never => noFiles(String(p));
export const statSync = (p: unknown): never => noFiles(String(p));
export const lstatSync = (p: unknown): never => noFiles(String(p));
export const readdirSync = (p: unknown): never => noFiles(String(p));
export const existsSync = (): boolean => false;
export const realpathSync = (p: unknown): never => noFiles(String(p));
export const readlinkSync = (p: unknown): never => noFiles(String(p));
export const openSync = (p: unknown): never => noFiles(String(p));
export const readSync = (): never => noFiles('read');
export const fstatSync = (): never => noFiles('fstat');
export const closeSync = (): void => undefined;
export const writeSync = (): never => noFiles('write');
export const mkdirSync = (p: unknown): never => noFiles(String(p));
export const renameSync = (p: unknown): never => noFiles(String(p));
export const rmSync = (p: unknown): never => noFiles(String(p));
export const fchmodSync = (): never => noFiles('fchmod');
export class Stats {}
export class Dirent {}
