import { existsSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

const here = import.meta.dirname;
/** Every workspace package (a folder of packages/ with a package.json): one test project each. */
const PACKAGES = readdirSync(resolve(here, 'packages'))
  .filter((p) => existsSync(resolve(here, 'packages', p, 'package.json')))
  .sort();
const unit = (name: string, dir: string) => ({
  extends: true as const,
  test: { name, root: resolve(here, dir), include: ['src/**/*.test.ts'] },
});

export default defineConfig({
  // Workspace packages resolve to their TypeScript sources, so unit tests need no build.
  ssr: { resolve: { conditions: ['@maestro/source', ...defaultServerConditions] } },
  test: {
    testTimeout: 30_000,
    // Most tests spawn the CLI and wait on child processes, so two workers keep both cores busy.
    maxWorkers: 2,
    hookTimeout: 30_000,
    projects: [
      ...PACKAGES.map((p) => unit(`@maestro/${p}`, `packages/${p}`)),
      unit('@maestro/cli', 'apps/maestro'),
      { extends: true, test: { name: 'e2e', root: resolve(here, 'e2e'), include: ['**/*.test.ts'] } },
    ],
    coverage: {
      provider: 'v8',
      include: ['packages/*/src/**/*.ts', 'apps/*/src/**/*.ts'],
      exclude: ['**/*.test.ts'],
      reporter: ['text', 'json-summary'],
    },
  },
});
