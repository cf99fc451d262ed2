// postinstall: checks that the SQLite addon loads in the Node.js pinned in package.json (the `node`
// dev dependency, first on the PATH of every npm script), which may be newer than the Node.js that
// ran `npm install`. better-sqlite3 ships Node-API builds for the common platforms, so this
// usually does nothing; elsewhere it compiles the addon once, against the pinned runtime's headers.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const root = path.resolve(import.meta.dirname, '..');
const require = createRequire(path.join(root, 'apps/server/package.json'));

function loads() {
  const probe = spawnSync(
    process.execPath,
    ['-e', "new (require('better-sqlite3'))(':memory:').prepare('select 1').get()"],
    { cwd: path.join(root, 'apps/server'), encoding: 'utf8' },
  );
  return probe.status === 0;
}

let addonDir;
try {
  addonDir = path.dirname(require.resolve('better-sqlite3/package.json'));
} catch {
  process.exit(0); // not installed (e.g. a partial install): nothing to rebuild
}

if (!loads()) {
  // The headers ship with the runtime: the `node` package keeps the platform's build (with its
  // include/node) in its own node_modules; a system Node.js has them beside bin/node.
  const prefix = path.resolve(fs.realpathSync(process.execPath), '..', '..');
  const nodedir = [
    path.join(prefix, 'node_modules', `node-${process.platform}-${process.arch}`),
    prefix,
  ].find((dir) => fs.existsSync(path.join(dir, 'include', 'node', 'node.h')));
  console.log(`Rebuilding better-sqlite3 for Node.js ${process.version}…`);
  // npm tells its lifecycle scripts where its own node-gyp is.
  const gyp = process.env.npm_config_node_gyp ?? require.resolve('node-gyp/bin/node-gyp.js');
  const build = spawnSync(
    process.execPath,
    [gyp, 'rebuild', '--release', ...(nodedir ? [`--nodedir=${nodedir}`] : [])],
    // node-gyp lets npm's environment (npm_config_nodedir) override its arguments.
    {
      cwd: addonDir,
      stdio: 'inherit',
      env: { ...process.env, ...(nodedir ? { npm_config_nodedir: nodedir } : {}) },
    },
  );
  if (build.status !== 0 || !loads()) {
    console.error('better-sqlite3 could not be built for this Node.js (needs python3, make, g++).');
    process.exit(1);
  }
}
