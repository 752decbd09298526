import type { Runtime } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
import type { PackScopeOptions } from '@maestro/packs';
import type { SkillRoots } from '@maestro/skills';
import type { z } from 'zod';

/** What every tool handler gets: the project, the clock and the pack scopes of this server. */
export interface ToolEnv {
  layout: WorkflowLayout;
  runtime: Runtime;
  scopes: PackScopeOptions;
  /** Where skills are discovered (workspace `.agents/skills`, user `~/.agents/skills`). */
  skills: SkillRoots;
}

/** One MCP tool: zod in and out, a handler returning the data and its short text rendering. */
export interface ToolSpec<I extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: z.ZodObject;
  readOnly: boolean;
  run(env: ToolEnv, args: z.infer<I>): Promise<{ data: unknown; text: string }>;
}

export const tool = <I extends z.ZodObject>(spec: ToolSpec<I>): ToolSpec => spec as unknown as ToolSpec;
