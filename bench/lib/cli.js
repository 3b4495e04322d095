// bin/sidecar-render.cjs for the build in SIDECAR_RENDER_DIST (bench/run.js uses it when that is set).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const { main } = await import(pathToFileURL(join(process.env.SIDECAR_RENDER_DIST, 'cli', 'index.js')).href);
process.exitCode = await main(process.argv);
