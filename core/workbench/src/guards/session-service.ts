/**
 * The session (spec platform §7): the token and its expiry in local storage (sent as
 * `Authorization`), and local storage `userId`. The server also sets the `token` cookie on
 * sign-in, HttpOnly: scripts never read or write it; it only authenticates what the browser
 * fetches by itself (event streams, downloads, TensorBoard) and the server clears it on sign-out.
 */
import { TOKEN_EXPIRES_STORAGE_KEY, TOKEN_STORAGE_KEY, USER_ID_STORAGE_KEY } from '@decisio/domain';
import { Emitter, type SessionService, type SessionState } from '@decisio/sdk-plugin';

/** {@link SessionService} over `localStorage`. */
/** Local storage key of the "password must be changed first" mark of the session. */
export const MUST_CHANGE_PASSWORD_STORAGE_KEY = 'decisio.mustChangePassword';

export class SessionServiceImpl implements SessionService {
  private readonly didChange = new Emitter<SessionState>();
  readonly onDidChange = this.didChange.event;

  /**
   * @param onClear runs after the session is cleared (the workbench resets the api cache).
   * @param now the clock the token's expiry is read against.
   */
  constructor(
    private readonly storage: Storage = localStorage,
    private readonly onClear: () => void = () => {},
    private readonly now: () => number = Date.now,
  ) {}

  getState(): SessionState {
    return { token: this.token(), userId: this.storage.getItem(USER_ID_STORAGE_KEY) };
  }

  /** The kept token, or `null` when there is none or it has expired. */
  private token(): string | null {
    const token = this.storage.getItem(TOKEN_STORAGE_KEY);
    if (!token) return null;
    const expires = Date.parse(this.storage.getItem(TOKEN_EXPIRES_STORAGE_KEY) ?? '');
    return Number.isFinite(expires) && expires <= this.now() ? null : token;
  }

  isSignedIn(): boolean {
    return !!this.getState().token;
  }

  signIn(s: { accessToken: string; userId: string; expiresAt?: string; mustChangePassword?: boolean }): void {
    this.storage.setItem(TOKEN_STORAGE_KEY, s.accessToken);
    this.setMustChangePassword(!!s.mustChangePassword);
    if (s.expiresAt) this.storage.setItem(TOKEN_EXPIRES_STORAGE_KEY, s.expiresAt);
    else this.storage.removeItem(TOKEN_EXPIRES_STORAGE_KEY);
    this.storage.setItem(USER_ID_STORAGE_KEY, s.userId);
    this.didChange.fire(this.getState());
  }

  clear(): void {
    this.storage.removeItem(TOKEN_STORAGE_KEY);
    this.storage.removeItem(TOKEN_EXPIRES_STORAGE_KEY);
    this.storage.removeItem(USER_ID_STORAGE_KEY);
    this.storage.removeItem(MUST_CHANGE_PASSWORD_STORAGE_KEY);
    this.onClear();
    this.didChange.fire(this.getState());
  }

  /**
   * Whether the signed-in user must change their password before anything else (an administrator
   * set it: the sign-in answer, `user/getUser` or a `passwordChangeRequired` answer said so).
   */
  mustChangePassword(): boolean {
    return this.isSignedIn() && this.storage.getItem(MUST_CHANGE_PASSWORD_STORAGE_KEY) === '1';
  }

  /** Sets or lifts the mark of {@link mustChangePassword} (kept in local storage, for a reload). */
  setMustChangePassword(must: boolean): void {
    if (must) this.storage.setItem(MUST_CHANGE_PASSWORD_STORAGE_KEY, '1');
    else this.storage.removeItem(MUST_CHANGE_PASSWORD_STORAGE_KEY);
  }
}
