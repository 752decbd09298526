// `@maestro/context/hook`: the prompt hook's entry, without the zod schemas (a hook runs on every prompt).
export type { HookAnswerOptions } from './hook.js';
export { answerHook } from './hook.js';
export type { PromptContextOptions } from './prompt-context.js';
export { promptContext } from './prompt-context.js';
