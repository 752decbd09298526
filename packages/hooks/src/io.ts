import { inputError, parseJsonText } from '@maestro/core';
import type { Agent, HookEvent } from './agents.js';

/** What Maestro reads from the agent's hook event (stdin JSON); everything else is ignored. */
export interface HookInput {
  event: HookEvent | string;
  /** UserPromptSubmit: the prompt as typed, any size, never parsed as options. */
  prompt: string;
  cwd: string | null;
  sessionId: string | null;
}

/**
 * Parses the event both agents send on stdin: `{ hook_event_name, prompt?, cwd?, session_id? }`
 * (Claude Code's and Codex's documented hook input). Throws an input error for anything else;
 * the hook runner turns that into silence (fail open).
 */
export function parseHookInput(raw: string): HookInput {
  const doc = parseJsonText(raw, 'hook input (stdin)') as Record<string, unknown> | null;
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc) || typeof doc.hook_event_name !== 'string') {
    throw inputError('HOOK_INPUT', 'hook input must be a JSON object with a string hook_event_name', {
      hint: 'run it from the agent hook (maestro hooks install), which sends the event on stdin',
    });
  }
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  return {
    event: doc.hook_event_name,
    prompt: str(doc.prompt) ?? '',
    cwd: str(doc.cwd),
    sessionId: str(doc.session_id),
  };
}

/**
 * What the hook prints on stdout: nothing when there is nothing to say; for SessionStart and
 * UserPromptSubmit `{ hookSpecificOutput: { hookEventName, additionalContext } }` (added to the
 * model's context by both agents); for Stop `{ systemMessage }`, shown to the user, which never
 * blocks the agent from stopping nor stages anything.
 */
export function hookOutput(_agent: Agent, event: string, text: string): string {
  if (!text) return '';
  if (event === 'Stop') return `${JSON.stringify({ systemMessage: text })}\n`;
  return `${JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: text } })}\n`;
}
