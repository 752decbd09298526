// `@maestro/hooks/io`: what a running hook needs (event in, answer out, failure log), without zod or
// the settings editor.
export type { Agent } from './agents.js';
export type { HookInput } from './io.js';
export { hookOutput, parseHookInput } from './io.js';
export { hookLogPath, logHookFailure } from './log.js';
