// Writes schemas/<name>.schema.json (JSON Schema draft 2020-12) for every zod schema the packages
// publish through their `jsonSchemas` export. With --check, fails when schemas/ is out of date.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';

const root = resolve(import.meta.dirname, '../..');
// Every workspace package (a folder of packages/ with a package.json), then the CLI.
const sources = [
  ...readdirSync(join(root, 'packages'))
    .filter((p) => existsSync(join(root, 'packages', p, 'package.json')))
    .sort()
    .map((p) => `packages/${p}`),
  'apps/maestro',
];
const check = process.argv.includes('--check');
const dir = join(root, 'schemas');
const wanted = new Map();
for (const src of sources) {
  const entry = join(root, src, 'dist/index.js');
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`pnpm build\` first`);
  const mod = await import(pathToFileURL(entry).href);
  for (const [name, schema] of Object.entries(mod.jsonSchemas ?? {})) {
    if (wanted.has(name)) throw new Error(`schema ${name} is published twice (second time by ${src})`);
    const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'output', unrepresentable: 'any' });
    json.$id = `https://maestro.dev/schemas/${name}.schema.json`;
    json.title ??= name;
    wanted.set(`${name}.schema.json`, `${JSON.stringify(json, null, 2)}\n`);
  }
}
mkdirSync(dir, { recursive: true });
const present = new Set(readdirSync(dir).filter((f) => f.endsWith('.schema.json')));
const drift = [];
for (const [file, text] of wanted) {
  const path = join(dir, file);
  const current = existsSync(path) ? readFileSync(path, 'utf8') : null;
  if (current !== text) {
    drift.push(current === null ? `missing ${file}` : `changed ${file}`);
    if (!check) writeFileSync(path, text);
  }
  present.delete(file);
}
for (const file of present) drift.push(`stale ${file} (no zod schema publishes it)`);
if (check) {
  if (drift.length) {
    console.error(`schemas/ is out of date:\n  ${drift.join('\n  ')}\nrun \`pnpm schemas\` and commit the result`);
    process.exitCode = 1;
  } else console.log(`schemas/ is up to date (${wanted.size} schemas)`);
} else
  console.log(
    `wrote ${drift.length} of ${wanted.size} schemas${present.size ? `; remove stale: ${[...present].join(', ')}` : ''}`,
  );
