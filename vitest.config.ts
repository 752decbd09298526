import { existsSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { defaultServerConditions } from 'vite';
import { configDefaults, defineConfig } from 'vitest/config';

const here = import.meta.dirname;
/** `pnpm test:scenarios`: only the e2e scenario files (`*.scenario.test.ts`). */
const SCENARIOS = process.env.MAESTRO_TEST_SCENARIOS === '1';
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
      {
        extends: true,
        test: {
          name: 'e2e',
          root: resolve(here, 'e2e'),
          // Schema-checks the --json documents of the CLI runs in this process (see the file).
          setupFiles: ['./setup.ts'],
          // The slow store scenarios (equivalence with and without derived state, crashes, concurrency)
          // run with `pnpm test:scenarios`, which CI runs after `pnpm test`.
          include: SCENARIOS ? ['**/*.scenario.test.ts'] : ['**/*.test.ts'],
          exclude: SCENARIOS ? configDefaults.exclude : [...configDefaults.exclude, '**/*.scenario.test.ts'],
        },
      },
    ],
    coverage: {
      provider: 'v8',
      include: ['packages/*/src/**/*.ts', 'apps/*/src/**/*.ts'],
      exclude: ['**/*.test.ts'],
      reporter: ['text', 'json-summary'],
    },
  },
});
