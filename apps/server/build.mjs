// Bundles the server (with the workspace's domain package) into dist/; npm dependencies stay external.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/server.ts', 'src/cli.ts'],
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node24',
  format: 'esm',
  sourcemap: true,
  packages: 'external',
  alias: { '@hygie/domain': '../../packages/domain/src/index.ts' },
  logLevel: 'warning',
});
