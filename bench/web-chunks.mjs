// What the login page's first load is made of: builds the web client with source maps and a
// manifest (into a temporary directory, dist/ is left alone), follows the static imports of the
// scripts the page the server draws loads and preloads (the built index.html's, but those marked
// for the whole client, which the login page's island fetches at the first interaction: the entry
// and the island), adds the first screens' translations in one language, and attributes each chunk's bytes to the modules
// its source map names — by package for dependencies, by folder for the portal's own code.
// Complements web.mjs (what the browser fetched, and when) with why.
//
//   npm run bench:web-chunks -w @hygie/bench
//   BENCH_WEB_LANGUAGE=ar …
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { root } from './portal.mjs';

const LANGUAGE = process.env.BENCH_WEB_LANGUAGE ?? 'fr';
const web = path.join(root, 'apps', 'web');
const out = fs.mkdtempSync(path.join(os.tmpdir(), 'hygie-web-chunks-'));

execFileSync(
  path.join(root, 'node_modules', '.bin', 'vite'),
  ['build', '--sourcemap', '--manifest', '--emptyOutDir', '--outDir', out, '--logLevel', 'warn'],
  { cwd: web, stdio: 'inherit' },
);

const manifest = JSON.parse(fs.readFileSync(path.join(out, '.vite', 'manifest.json'), 'utf8'));
const byFile = new Map(Object.values(manifest).map((entry) => [entry.file, entry]));
const files = new Set();
function follow(file) {
  if (files.has(file)) return;
  files.add(file);
  for (const imported of byFile.get(file)?.imports ?? []) follow(manifest[imported].file);
}
// What the page the server draws loads: the entry's script and every module the built index.html
// preloads but the whole client's (marked data-client="whole", apps/web/route-preload.ts; the
// server drops them), with their static imports.
const html = fs.readFileSync(path.join(out, 'index.html'), 'utf8');
for (const [tag, href] of html.matchAll(
  /<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="\/([^"]+\.js)"[^>]*>/g,
)) {
  if (!tag.includes('data-client="whole"')) follow(href);
}
// The first screens' translations: one chunk per language (apps/web/vite.config.ts).
for (const entry of Object.values(manifest)) {
  if (entry.name === `locales-${LANGUAGE}`) follow(entry.file);
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Each mapping segment's generated column and source index, line by line (source map v3). */
function* segments(mappings) {
  let source = 0;
  for (const line of mappings.split(';')) {
    let column = 0;
    const decoded = [];
    for (const segment of line.split(',')) {
      if (!segment) continue;
      const fields = [];
      let value = 0;
      let shift = 0;
      for (const char of segment) {
        const digit = BASE64.indexOf(char);
        value += (digit & 31) << shift;
        if (digit & 32) {
          shift += 5;
        } else {
          fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      column += fields[0];
      if (fields.length > 1) source += fields[1];
      decoded.push({ column, source: fields.length > 1 ? source : -1 });
    }
    yield decoded;
  }
}

/** A dependency's package name, or the portal's folder (app, lib, features/auth…). */
function owner(source) {
  const modules = source.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const parts = source.slice(modules + 'node_modules/'.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  const own = /(apps\/web\/src|packages\/domain\/src)\/(.*)$/.exec(source);
  if (!own) return '(bundler)';
  const folders = own[2].split('/').slice(0, -1);
  const where = own[1].startsWith('packages') ? 'domain' : 'web';
  return `${where}:${folders.slice(0, 2).join('/') || '.'}`;
}

const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
const totals = new Map();
const chunks = [];
for (const file of files) {
  if (!file.endsWith('.js')) continue;
  const code = fs.readFileSync(path.join(out, file), 'utf8');
  // The bundler's own runtime chunk has no source map: all of it is the bundler's.
  const mapFile = path.join(out, `${file}.map`);
  const map = fs.existsSync(mapFile)
    ? JSON.parse(fs.readFileSync(mapFile, 'utf8'))
    : { sources: ['(bundler)'], mappings: 'AAAA' };
  const lines = code.split('\n');
  const bytes = new Map();
  let index = 0;
  for (const decoded of segments(map.mappings)) {
    const length = lines[index]?.length ?? 0;
    decoded.forEach((segment, i) => {
      const end = decoded[i + 1]?.column ?? length;
      const name = segment.source >= 0 ? owner(map.sources[segment.source]) : '(bundler)';
      bytes.set(name, (bytes.get(name) ?? 0) + end - segment.column);
    });
    index++;
  }
  // What no mapping covers (the translations' JSON modules carry none), in characters as above.
  const mapped = [...bytes.values()].reduce((sum, size) => sum + size, 0);
  const unmapped = code.length - lines.length + 1 - mapped;
  if (unmapped > 0) bytes.set('(unmapped)', unmapped);
  for (const [name, size] of bytes) totals.set(name, (totals.get(name) ?? 0) + size);
  chunks.push({
    file,
    raw: Buffer.byteLength(code),
    gzip: zlib.gzipSync(code, { level: 9 }).length,
    top: [...bytes]
      .filter(([, size]) => size >= 50)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5),
  });
}

chunks.sort((a, b) => b.gzip - a.gzip);
console.log(`The login page's first load (${LANGUAGE}), ${chunks.length} scripts:`);
for (const chunk of chunks) {
  const top = chunk.top.map(([name, size]) => `${name} ${kB(size)}`).join(', ');
  console.log(
    `  ${chunk.file.padEnd(44)} ${kB(chunk.raw).padStart(9)} ${kB(chunk.gzip).padStart(9)} gzip  ${top}`,
  );
}
const raw = chunks.reduce((sum, chunk) => sum + chunk.raw, 0);
const gzip = chunks.reduce((sum, chunk) => sum + chunk.gzip, 0);
console.log(`  ${'total'.padEnd(44)} ${kB(raw).padStart(9)} ${kB(gzip).padStart(9)} gzip`);
console.log('By package or folder (raw, minified):');
for (const [name, size] of [...totals].sort((a, b) => b[1] - a[1])) {
  if (size >= 500) console.log(`  ${name.padEnd(44)} ${kB(size).padStart(9)}`);
}
fs.rmSync(out, { recursive: true, force: true });
