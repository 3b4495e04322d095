// The command line as it ran before the bundle: dist/cli/index.js and the modules it imports, each
// resolved, read and compiled in the process (for the cold-start comparison of bench/run.js case e).
import { main } from '../../dist/cli/index.js';

main(process.argv).then((code) => {
  process.exitCode = code;
});
