import { TOKEN_COOKIE } from '@decisio/domain';
import type { AppContext } from './context';
import { isHttps } from './proxy';

/**
 * Sets the session cookie after a sign-in: HttpOnly (no script reads it; the workbench sends its
 * token as `Authorization`, the cookie authenticates what the browser fetches by itself: event
 * streams, downloads, TensorBoard), `SameSite=Lax` (not sent with cross-site posts), `Secure`
 * when the client came over https (a TLS socket or a trusted proxy's `X-Forwarded-Proto`).
 */
export function setSessionCookie(ctx: AppContext, token: string, expires: Date): void {
  const secure = isHttps(ctx);
  ctx.cookies.secure = secure;
  ctx.cookies.set(TOKEN_COOKIE, token, { httpOnly: true, sameSite: 'lax', secure, path: '/', expires, overwrite: true });
}

/** Clears the session cookie (sign-out), with the same attributes it was set with. */
export function clearSessionCookie(ctx: AppContext): void {
  const secure = isHttps(ctx);
  ctx.cookies.secure = secure;
  ctx.cookies.set(TOKEN_COOKIE, '', { httpOnly: true, sameSite: 'lax', secure, path: '/', expires: new Date(0), overwrite: true });
}
