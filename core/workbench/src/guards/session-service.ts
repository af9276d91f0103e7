/**
 * The session: the `token` cookie and local storage `userId` (spec platform §7).
 */
import { TOKEN_COOKIE, USER_ID_STORAGE_KEY } from '@decisio/domain';
import { Emitter, type SessionService, type SessionState } from '@decisio/sdk-plugin';

/** Reads one cookie by name from a `document.cookie` string. */
export function readCookie(cookies: string, name: string): string | null {
  for (const part of cookies.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return null;
}

/** {@link SessionService} over `document.cookie` and `localStorage`. */
export class SessionServiceImpl implements SessionService {
  private readonly didChange = new Emitter<SessionState>();
  readonly onDidChange = this.didChange.event;

  /** @param onClear runs after the session is cleared (the workbench resets the api cache). */
  constructor(
    private readonly doc: Pick<Document, 'cookie'> = document,
    private readonly storage: Storage = localStorage,
    private readonly onClear: () => void = () => {},
  ) {}

  getState(): SessionState {
    return { token: readCookie(this.doc.cookie, TOKEN_COOKIE), userId: this.storage.getItem(USER_ID_STORAGE_KEY) };
  }

  isSignedIn(): boolean {
    return !!this.getState().token;
  }

  signIn(s: { accessToken: string; userId: string; expiresAt?: string }): void {
    const expires = s.expiresAt ? `; expires=${new Date(s.expiresAt).toUTCString()}` : '';
    this.doc.cookie = `${TOKEN_COOKIE}=${encodeURIComponent(s.accessToken)}; path=/; SameSite=Lax${expires}`;
    this.storage.setItem(USER_ID_STORAGE_KEY, s.userId);
    this.didChange.fire(this.getState());
  }

  clear(): void {
    this.doc.cookie = `${TOKEN_COOKIE}=; path=/; SameSite=Lax; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
    this.storage.removeItem(USER_ID_STORAGE_KEY);
    this.onClear();
    this.didChange.fire(this.getState());
  }
}
