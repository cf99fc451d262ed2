// Summarises a V8 CPU profile (`node --cpu-prof`): the functions with the most self time and the
// most inclusive time (a sample counts once for each function on its stack), as a share of the
// samples. `node bench/profile-summary.mjs FILE [--top N] [--filter TEXT]`: TEXT keeps the
// samples whose stack holds a function or file matching it (e.g. `inject` for the requests alone).
// `--requests N` (the requests the profile covers) adds µs per request.
// A sampling heap profile (`.heapprofile`, bench/me-inject.mjs BENCH_HEAP_PROFILE) is summarised the
// same way, in bytes allocated (per request when the profile says how many it covers).
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values: options, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    top: { type: 'string', default: '40' },
    filter: { type: 'string' },
    requests: { type: 'string' },
  },
});
const [file] = positionals;
if (!file) {
  console.error(
    'usage: node bench/profile-summary.mjs FILE [--top N] [--filter TEXT] [--requests N]',
  );
  process.exit(2);
}
const TOP = Number(options.top);
const { filter } = options;
// The requests the profile covers: the times are then also given in µs per request.
const REQUESTS = options.requests ? Number(options.requests) : null;
const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
if (profile.head) {
  summariseHeap(profile);
  process.exit(0);
}
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes)
  for (const child of node.children ?? []) parent.set(child, node.id);

const stackOf = (id) => {
  const stack = [];
  for (let at = id; at !== undefined; at = parent.get(at)) stack.push(nodes.get(at));
  return stack;
};

const self = new Map();
const inclusive = new Map();
let total = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  const stack = stackOf(id);
  if (filter && !stack.some((n) => label(n).includes(filter))) return;
  total += dt;
  const leaf = label(stack[0]);
  self.set(leaf, (self.get(leaf) ?? 0) + dt);
  for (const name of new Set(stack.map(label)))
    inclusive.set(name, (inclusive.get(name) ?? 0) + dt);
});

const print = (title, map) => {
  console.log(
    `\n${title} (of ${(total / 1000).toFixed(0)} ms sampled${filter ? `, stacks with "${filter}"` : ''})`,
  );
  for (const [name, dt] of [...map].sort((a, b) => b[1] - a[1]).slice(0, TOP)) {
    const each = REQUESTS ? `${(dt / REQUESTS).toFixed(2).padStart(7)} µs/req  ` : '';
    console.log(`${((dt / total) * 100).toFixed(1).padStart(6)} %  ${each}${name}`);
  }
};
print('self', self);
print('inclusive', inclusive);

function summariseHeap(heap) {
  const self = new Map();
  const inclusive = new Map();
  let total = 0;
  const walk = (node, stack) => {
    const here = [...stack, label(node)];
    const bytes = node.selfSize;
    if (bytes > 0 && (!filter || here.some((l) => l.includes(filter)))) {
      total += bytes;
      self.set(here.at(-1), (self.get(here.at(-1)) ?? 0) + bytes);
      for (const name of new Set(here)) inclusive.set(name, (inclusive.get(name) ?? 0) + bytes);
    }
    for (const child of node.children ?? []) walk(child, here);
  };
  walk(heap.head, []);
  const per = heap.requests
    ? ` = ${(total / heap.requests).toFixed(0)} bytes per request over ${heap.requests}`
    : '';
  const show = (title, map) => {
    console.log(`\n${title} (of ${(total / 1e6).toFixed(1)} MB allocated${per})`);
    for (const [name, bytes] of [...map].sort((a, b) => b[1] - a[1]).slice(0, TOP)) {
      const each = heap.requests ? `${(bytes / heap.requests).toFixed(0).padStart(6)} B/req` : '';
      console.log(`${((bytes / total) * 100).toFixed(1).padStart(6)} %  ${each}  ${name}`);
    }
  };
  show('self', self);
  show('inclusive', inclusive);
}

function label(node) {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url ? `${path.basename(url)}:${lineNumber + 1}` : '';
  return `${functionName || '(anonymous)'} ${where}`.trim();
}
