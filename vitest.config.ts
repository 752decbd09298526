import { resolve } from 'node:path';
import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

const here = import.meta.dirname;
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
      ...[
        'core',
        'lexicon',
        'fs',
        'spec',
        'ledger',
        'packs',
        'reconcile',
        'search',
        'graph',
        'memory',
        'promote',
        'audit',
        'gate',
        'skills',
        'review-server',
        'git',
        'hooks',
        'context',
        'mcp',
      ].map((p) => unit(`@maestro/${p}`, `packages/${p}`)),
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
