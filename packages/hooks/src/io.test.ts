import { describe, expect, it } from 'vitest';
import { hookOutput, parseHookInput } from './io.js';

describe('hook input and output', () => {
  it('reads the prompt from the event JSON, whatever it contains and however long it is', () => {
    const prompt = `--help ${'x'.repeat(200_000)}`;
    const raw = JSON.stringify({ hook_event_name: 'UserPromptSubmit', prompt, cwd: '/p', session_id: 's1', extra: 1 });
    expect(parseHookInput(raw)).toEqual({ event: 'UserPromptSubmit', prompt, cwd: '/p', sessionId: 's1' });
  });

  it('refuses what is not an agent event', () => {
    expect(() => parseHookInput('not json')).toThrow(/invalid JSON/);
    expect(() => parseHookInput('[]')).toThrow(/hook_event_name/);
    expect(() => parseHookInput('{"prompt":"x"}')).toThrow(/hook_event_name/);
  });

  it('answers in the documented shapes, and nothing when there is nothing to say', () => {
    expect(JSON.parse(hookOutput('claude', 'UserPromptSubmit', 'ctx'))).toEqual({
      hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'ctx' },
    });
    expect(JSON.parse(hookOutput('codex', 'SessionStart', 'c'))).toEqual({
      hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'c' },
    });
    expect(JSON.parse(hookOutput('claude', 'Stop', 'stage it'))).toEqual({ systemMessage: 'stage it' });
    expect(hookOutput('claude', 'UserPromptSubmit', '')).toBe('');
  });
});
