export { toolError, toolResult } from './result.js';
export { serveStdio } from './serve.js';
export { createMaestroServer, INSTRUCTIONS, TOOLS } from './server.js';
export type { ToolEnv, ToolSpec } from './tools.js';
