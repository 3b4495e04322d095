// The repository's templates/, values/ and examples/ files, bundled by build.mjs: path to text.
declare module 'playground:files' {
  const files: Readonly<Record<string, string>>;
  export default files;
}
