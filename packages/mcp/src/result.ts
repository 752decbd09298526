import type { CallToolResult } from '@modelcontextprotocol/server';

/** A tool's success: the structured data (checked against the tool's output schema) plus a short text. */
export function toolResult(data: unknown, text: string): CallToolResult {
  return {
    content: [{ type: 'text', text: text || '(nothing)' }],
    structuredContent: JSON.parse(JSON.stringify(data)) as Record<string, unknown>,
  };
}

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  hint?: unknown;
  exitCode?: unknown;
}

/**
 * A failure as a tool error the model can act on: the Maestro error code, the message and the
 * fix. Bad input, a refused rule and a damaged file all come back this way (never as a protocol
 * error), so the model can correct its arguments or tell the user what to repair.
 */
export function toolError(err: unknown): CallToolResult {
  const e = (err ?? {}) as ErrorLike;
  const known = typeof e.code === 'string' && typeof e.exitCode === 'number';
  const code = known ? (e.code as string) : 'INTERNAL';
  const message = typeof e.message === 'string' ? e.message : String(err);
  const hint = typeof e.hint === 'string' ? e.hint : known ? null : 'this is a bug in maestro; report it';
  return {
    isError: true,
    content: [{ type: 'text', text: `${code}: ${message}${hint ? `\nfix: ${hint}` : ''}` }],
  };
}
