import { spawnSync } from 'node:child_process';
import { CLI_BIN } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';

// A resolve hook that reports every module the CLI imports, so the test can prove that
// --help and --version never load zod, yaml or the workspace packages.
const HOOK = `
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(\`
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  process.stderr.write('LOADED ' + r.url + '\\\\n');
  return r;
}\`));
`;

function loaded(args: string[]): string[] {
  const r = spawnSync(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(HOOK)}`, CLI_BIN, ...args],
    {
      encoding: 'utf8',
    },
  );
  expect(r.status).toBe(0);
  return r.stderr
    .split('\n')
    .filter((l) => l.startsWith('LOADED '))
    .map((l) => l.slice(7));
}

describe('start-up stays lean', () => {
  for (const flag of ['--help', '--version']) {
    it(`maestro ${flag} loads no zod, yaml or package code`, () => {
      const urls = loaded([flag]);
      expect(urls.some((u) => u.endsWith('/main.js'))).toBe(true);
      expect(urls.filter((u) => /node_modules|\/packages\//.test(u))).toEqual([]);
    });
  }
});
