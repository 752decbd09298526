import { join } from 'node:path';
import { CLI_BIN, tmpDir, tmpProject } from '@maestro/test-utils';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';

const SPEC =
  '<spec-entry category="coding" keywords="retry,backoff" date="2026-01-01" sid="S-20260101-rtry" title="Retry with backoff">\n\n' +
  '### Retry with backoff\n\nEvery fetch retries three times with exponential backoff.\n\n</spec-entry>\n';

describe('maestro mcp over stdio (the built binary)', () => {
  it('serves the tools to the SDK client and exits when the client closes', async () => {
    const root = tmpProject({ '.workflow/specs/coding-conventions.md': SPEC });
    const home = tmpDir('maestro-home-');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI_BIN, 'mcp', '--workflow-root', root],
      env: { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, '.config') },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'e2e', version: '1.0.0' });
    await client.connect(transport);
    expect(client.getServerVersion()?.name).toBe('maestro');
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(10);
    const r = await client.callTool({ name: 'knowledge_search', arguments: { query: 'retry backoff' } });
    expect(r.isError).toBeFalsy();
    expect((r.structuredContent as { results: { id: string }[] }).results.map((h) => h.id)).toEqual([
      'S-20260101-rtry',
    ]);
    const bad = await client.callTool({ name: 'knowledge_load', arguments: { ids: [] } });
    expect(bad.isError).toBe(true);
    await client.close();
  });
});
