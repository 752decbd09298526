import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { createMaestroServer } from './server.js';
import type { ToolEnv } from './tools.js';

/**
 * Serves the Maestro tools over this process's stdin/stdout until the client closes stdin.
 * stdout is the protocol channel: nothing else may write there (diagnostics go to stderr).
 */
export async function serveStdio(env: ToolEnv, version: string): Promise<void> {
  const server = createMaestroServer(env, version);
  const transport = new StdioServerTransport();
  await server.connect(transport);
  // connect() installs the server's own onclose; chain after it so the server closes first.
  await new Promise<void>((resolve) => {
    const theirs = transport.onclose;
    transport.onclose = () => {
      theirs?.();
      resolve();
    };
  });
}
