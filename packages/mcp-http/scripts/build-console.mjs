// Bundles the operator console's front end into dist/console-ui (no CDN, nothing fetched at run time).
import { copyFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const app = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(app, 'dist', 'console-ui');
await mkdir(out, { recursive: true });
await build({
  entryPoints: [join(app, 'console', 'src', 'main.ts')],
  outfile: join(out, 'console.js'),
  bundle: true,
  format: 'esm',
  target: 'es2022',
  minify: true,
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
});
for (const file of ['index.html', 'console.css']) {
  await copyFile(join(app, 'console', file), join(out, file));
}
