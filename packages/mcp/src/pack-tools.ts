import { PackCatalogOutput, PackResolveOutput, packCatalog, resolveContext } from '@maestro/packs';
import { z } from 'zod';
import { tool } from './tools.js';

export const packCatalogTool = tool({
  name: 'pack_catalog',
  title: 'Knowledge pack catalog',
  description:
    'The knowledge packs that can be activated (metadata only, as data): name, description, trust, how to use.',
  input: z.object({ budget: z.number().int().min(100).max(20_000).optional() }),
  output: PackCatalogOutput,
  readOnly: true,
  async run(env, a) {
    const out = packCatalog({ ...env.scopes, budget: a.budget ?? 2000 });
    return { data: out, text: out.context || 'no knowledge pack is available' };
  },
});

export const packResolveTool = tool({
  name: 'pack_resolve',
  title: 'Resolve pack context',
  description:
    'The smallest useful context from the packs a request activates (or the ones named), wrapped as data within a token budget. Draft, disputed and untrusted packs wait for the user.',
  input: z.object({
    query: z.string().min(1),
    packs: z.array(z.string().min(1)).optional().describe('pack names to select explicitly'),
    budget: z.number().int().min(100).max(20_000).optional(),
  }),
  output: PackResolveOutput,
  readOnly: true,
  async run(env, a) {
    const out = resolveContext({
      ...env.scopes,
      packs: [...(env.scopes.packs ?? []), ...(a.packs ?? [])],
      query: a.query,
      budget: a.budget ?? 2000,
    }).output;
    return { data: out, text: out.context || 'no pack matched this request' };
  },
});
