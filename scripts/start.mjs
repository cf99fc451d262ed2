// `npm start`: builds what is missing (the web client and the server bundle), then serves.
import { spawnSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function build(workspace, marker) {
  if (fs.existsSync(path.join(root, marker))) return;
  console.log(`Building ${workspace}…`);
  const result = spawnSync(npm, ['run', 'build', '-w', workspace], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// The renderer of the server-drawn pages is built last: its presence says the client is complete.
build('@hygie/web', 'apps/web/dist-ssr/server-render.js');
build('@hygie/server', 'apps/server/dist/server.js');

const server = spawn(process.execPath, ['--enable-source-maps', 'apps/server/dist/server.js'], {
  cwd: root,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
