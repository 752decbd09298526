import { z } from 'zod';

const agent = z.enum(['claude', 'codex']);
const scope = z.enum(['project', 'user']);

export const HooksOutput = z
  .object({
    command: z.enum(['install', 'uninstall']),
    agent,
    scope,
    file: z.string().describe('the agent hook file written (or left alone)'),
    changed: z.boolean(),
    events: z.array(z.string()).describe('install: events added; uninstall: events removed'),
    how: z
      .enum(['added', 'unchanged', 'restored', 'edited', 'absent'])
      .describe('restored: original bytes back; edited: only our entries removed; absent: no file'),
  })
  .describe('maestro hooks install|uninstall --json');

export const HooksStatusOutput = z
  .object({
    hooks: z.array(
      z.object({
        agent,
        scope,
        file: z.string(),
        exists: z.boolean(),
        installed: z.array(z.string()),
        missing: z.array(z.string()),
        others: z.record(z.string(), z.number().int()).describe('hooks of other tools kept, per event'),
        error: z.string().nullable().describe('why the file could not be read (malformed), else null'),
      }),
    ),
  })
  .describe('maestro hooks status --json');

export const jsonSchemas = { 'hooks-output': HooksOutput, 'hooks-status-output': HooksStatusOutput };
