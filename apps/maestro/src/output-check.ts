import { jsonSchemas as audit } from '@maestro/audit';
import { jsonSchemas as context } from '@maestro/context';
import { environmentError } from '@maestro/core';
import { jsonSchemas as gate } from '@maestro/gate';
import { jsonSchemas as git } from '@maestro/git';
import { jsonSchemas as graph } from '@maestro/graph';
import { jsonSchemas as hooks } from '@maestro/hooks';
import { jsonSchemas as ledger } from '@maestro/ledger';
import { jsonSchemas as memory } from '@maestro/memory';
import { jsonSchemas as packs } from '@maestro/packs';
import { jsonSchemas as promote } from '@maestro/promote';
import { jsonSchemas as reconcile } from '@maestro/reconcile';
import { jsonSchemas as review } from '@maestro/review-server';
import { jsonSchemas as search } from '@maestro/search';
import { jsonSchemas as skills } from '@maestro/skills';
import { jsonSchemas as spec } from '@maestro/spec';
import type { z } from 'zod';
import { OUTPUT_SCHEMAS } from './outputs.js';
import { jsonSchemas as cli } from './schemas.js';

/** Every published zod schema by its schemas/ file name. */
export const PUBLISHED: Readonly<Record<string, z.ZodType>> = {
  ...spec,
  ...ledger,
  ...packs,
  ...reconcile,
  ...search,
  ...memory,
  ...graph,
  ...promote,
  ...audit,
  ...gate,
  ...skills,
  ...review,
  ...git,
  ...hooks,
  ...context,
  ...cli,
};

/**
 * Checks a `--json` document against the command's published schema (or the error schema).
 * Used when `MAESTRO_CHECK_OUTPUT=1` (the test harness sets it), so every end-to-end test
 * validates the JSON it reads; a mismatch is an internal error (exit 3) naming the first problems.
 */
export function checkOutput(command: string | null, doc: unknown): void {
  const names = command === null ? ['error-output'] : OUTPUT_SCHEMAS[command];
  if (!names) throw environmentError('OUTPUT_SCHEMA_MISSING', `no output schema is declared for "maestro ${command}"`);
  const problems: string[] = [];
  for (const name of names) {
    const schema = PUBLISHED[name];
    if (!schema) throw environmentError('OUTPUT_SCHEMA_MISSING', `schema ${name} is not published`);
    const parsed = schema.safeParse(doc);
    if (parsed.success) return;
    problems.push(
      `${name}: ${parsed.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
        .join('; ')}`,
    );
  }
  throw environmentError('OUTPUT_SCHEMA_MISMATCH', `--json output does not match its schema: ${problems.join(' | ')}`, {
    hint: 'fix the command or its zod schema, then run `pnpm schemas`',
  });
}
