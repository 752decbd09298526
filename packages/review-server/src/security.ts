import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * The page's defences, as data plus pure checks (the server applies them in this order):
 * Host allow-list (DNS rebinding), a one-time URL token exchanged for an HttpOnly SameSite=Strict
 * cookie, an Origin allow-list on every POST, and a CSRF token in every form.
 */
/** Cookies are not per port: each server names its own, so two pages on 127.0.0.1 do not log each other out. */
export const cookieName = (port: number) => `maestro_review_${port}`;

export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  // Not no-referrer: with it browsers send `Origin: null` on POST, and the Origin check needs the real one.
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

export interface Secrets {
  /** In the printed URL; good for exactly one exchange. */
  urlToken: string;
  urlTokenUsed: boolean;
  /** The cookie's value. */
  session: string;
  /** The hidden field of every form. */
  csrf: string;
}

const random = () => randomBytes(32).toString('base64url');

export function newSecrets(): Secrets {
  return { urlToken: random(), urlTokenUsed: false, session: random(), csrf: random() };
}

export function same(a: string | undefined | null, b: string): boolean {
  if (typeof a !== 'string') return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export const allowedHosts = (port: number) => [`127.0.0.1:${port}`, `localhost:${port}`];
export const allowedOrigins = (port: number) => allowedHosts(port).map((h) => `http://${h}`);

export function hostAllowed(req: IncomingMessage, port: number): boolean {
  return allowedHosts(port).includes((req.headers.host ?? '').toLowerCase());
}

/** A POST must carry the page's own Origin (browsers always send it on form posts). */
export function originAllowed(req: IncomingMessage, port: number): boolean {
  const origin = req.headers.origin;
  return typeof origin === 'string' && allowedOrigins(port).includes(origin.toLowerCase());
}

export function cookieValue(req: IncomingMessage, name: string): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return null;
}

export function sessionCookie(name: string, value: string): string {
  return `${name}=${value}; HttpOnly; SameSite=Strict; Path=/`;
}
