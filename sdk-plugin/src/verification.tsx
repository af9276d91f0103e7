/**
 * The verification-code field shared by the screens that prove an e-mail or mobile number (sign
 * up, password reset, contact change, student certification): a server-drawn captcha picture with
 * its answer, the code input and a "send code" button with a resend countdown. The captcha is used
 * up by every send, so a fresh picture loads after each one. {@link useCaptcha} keeps a picture and
 * the answer typed for it together (also used by the sign-in screen).
 *
 * Texts come from the calling plugin's namespace, keys `verify.*`: `captcha`, `captchaRefresh`,
 * `code`, `send`, `resend` (`{{seconds}}` placeholder), `sent` (`{{to}}`), `codeHelpEmail`,
 * `codeHelpSms`.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { Button, FormGroup, InputGroup } from '@blueprintjs/core';
import { CODE_LIMITS, messageOf, type CaptchaAnswer, type CaptchaImageResponse, type CodeChannel, type GenerateCodeResponse } from '@decisio/domain';
import { isApiError } from './api';
import { useFocusBackWhenDone, useLocale, useService } from './react';
import { localeServiceRef } from './services';

/** A captcha picture on screen and the answer typed for it ({@link useCaptcha}). */
export interface CaptchaField {
  /** Whether a picture has been asked for (the sign-in screen shows the field from then on). */
  active: boolean;
  /** The picture on screen; `null` before the first one and while a replacing one loads. */
  picture: CaptchaImageResponse | null;
  /** What was typed for `picture`; emptied whenever the picture goes or changes. */
  answer: string;
  setAnswer(answer: string): void;
  /** The answer to send: the id of the picture on screen with what was typed for it; `null` without a picture. */
  solved: CaptchaAnswer | null;
  /** The picture expired on screen with an answer typed: a new one replaced it (say so). Cleared by typing. */
  expired: boolean;
  /** Message of the last failed load, or `null`. */
  loadError: string | null;
  /**
   * Replaces the picture: the refresh button, after a send (a picture answers once) or a failed
   * attempt. The old picture and its answer go at once; only the newest load is shown.
   */
  renew(): void;
}

/**
 * A server-drawn captcha whose picture, id and answer change together, and only when the caller
 * renews it (refresh, a send, a failed attempt) or when the picture expires on screen (at its
 * `expiresAt`, at most {@link CODE_LIMITS}`.captchaTtlSeconds` after it arrived, whatever the
 * clocks say). So the answer sent always belongs to the picture the user saw: a load still running
 * when a newer one was asked (a double click, React's double mount in development) is dropped,
 * and anything typed while no picture is shown is cleared when the next one appears.
 * @param load fetches a picture (`captcha/captchaImage`).
 * @param options `loadNow` (default true): load the first picture on mount; else on `renew()`.
 */
export function useCaptcha(load: () => Promise<CaptchaImageResponse>, options: { loadNow?: boolean } = {}): CaptchaField {
  const loadNow = options.loadNow ?? true;
  const loadRef = useRef(load);
  loadRef.current = load;
  const [state, setState] = useState<{ active: boolean; picture: CaptchaImageResponse | null; answer: string; expired: boolean }>({ active: loadNow, picture: null, answer: '', expired: false });
  const [loadError, setLoadError] = useState<string | null>(null);
  /** Number of the newest load; an older one's picture is never shown. */
  const latest = useRef(0);

  const replace = useCallback((expired: boolean) => {
    const ticket = ++latest.current;
    setState((s) => ({ active: true, picture: null, answer: '', expired: expired && s.answer.trim() !== '' }));
    setLoadError(null);
    loadRef.current().then(
      (picture) => {
        if (ticket === latest.current) setState((s) => ({ ...s, picture, answer: '' }));
      },
      (err: unknown) => {
        if (ticket === latest.current) setLoadError(isApiError(err) ? err.message : String(err));
      },
    );
  }, []);
  const renew = useCallback(() => replace(false), [replace]);

  useEffect(() => {
    if (loadNow) replace(false);
    return () => {
      // A load still running when the field goes is never shown.
      latest.current++;
    };
    // The first picture only; later ones come from `renew` and the expiry below.
  }, []);

  // The picture is replaced when it expires on screen, never earlier.
  const picture = state.picture;
  useEffect(() => {
    if (!picture) return;
    const ttl = CODE_LIMITS.captchaTtlSeconds * 1000;
    const left = Date.parse(picture.expiresAt) - Date.now();
    const timeout = setTimeout(() => replace(true), Number.isFinite(left) ? Math.max(0, Math.min(left, ttl)) : ttl);
    return () => clearTimeout(timeout);
  }, [picture, replace]);

  const setAnswer = useCallback((answer: string) => setState((s) => ({ ...s, answer, expired: false })), []);
  const solved = picture ? { captchaId: picture.captchaId, captchaCode: state.answer.trim() } : null;
  return { active: state.active, picture, answer: state.answer, setAnswer, solved, expired: state.expired, loadError, renew };
}

/** Props of {@link VerificationCodeField}. */
export interface VerificationCodeFieldProps {
  /** Translation namespace of the calling plugin (its locale files hold the `verify.*` keys). */
  ns: string;
  channel: CodeChannel;
  /** False while the recipient is not a valid address: sending is disabled. */
  canSend: boolean;
  code: string;
  onCodeChange(code: string): void;
  /** Fetches a captcha picture (`captcha/captchaImage`). */
  loadCaptcha(): Promise<CaptchaImageResponse>;
  /** Sends a code with the solved captcha (`index/generateEmailCode` / `generateSmsCode`). */
  send(captcha: CaptchaAnswer): Promise<GenerateCodeResponse>;
  /** Error of the code input (a translated message). */
  error?: string;
  /** Prefix of the `data-testid`s: `<prefix>-captcha`, `-captcha-image`, `-code`, `-send`, `-sent`. */
  testId: string;
  /**
   * Seconds before the recipient may get another code (`index/expirationTime`), asked once the
   * address is valid (and again when it changes), so that a countdown started before a reload
   * goes on instead of a send the server would refuse. Optional; errors are ignored.
   */
  resendIn?(): Promise<number>;
  /** The address `resendIn` is about (a change asks again). */
  recipient?: string;
}

/** Pause after the last keystroke before `resendIn` is asked. */
const RESEND_ASK_DELAY_MS = 400;

/** Captcha + code input + send button with countdown. */
export function VerificationCodeField(props: VerificationCodeFieldProps) {
  const { ns, channel, canSend, code, onCodeChange, loadCaptcha, send, error, testId, resendIn, recipient } = props;
  const i18n = useService(localeServiceRef);
  const t = (key: string, params?: Record<string, unknown>) => i18n.t(`${ns}:verify.${key}`, params);
  const locale = useLocale();
  const captcha = useCaptcha(loadCaptcha);
  const [captchaError, setCaptchaError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [wait, setWait] = useState(0);
  const [busy, setBusy] = useState(false);
  const timer = useRef<ReturnType<typeof setInterval> | null>(null);
  // The busy Send drops the focus to the page (in a dialog, Escape is lost), and stays disabled
  // while it counts down: the focus goes to the code once one is sent, else back to the captcha.
  const captchaInput = useRef<HTMLInputElement>(null);
  const codeInput = useRef<HTMLInputElement>(null);
  const sentOne = useRef(false);
  useFocusBackWhenDone(busy, () => (sentOne.current ? codeInput : captchaInput).current);

  useEffect(
    () => () => {
      if (timer.current) clearInterval(timer.current);
    },
    [],
  );

  const countdown = (seconds: number) => {
    setWait(seconds);
    if (timer.current) clearInterval(timer.current);
    timer.current = setInterval(() => {
      setWait((w) => {
        if (w <= 1 && timer.current) clearInterval(timer.current);
        return Math.max(0, w - 1);
      });
    }, 1000);
  };

  // A countdown that outlived the page (sent, then reloaded) is asked for once the address is valid.
  const resendInRef = useRef(resendIn);
  resendInRef.current = resendIn;
  useEffect(() => {
    const ask = resendInRef.current;
    if (!canSend || !ask) return;
    let gone = false;
    const timeout = setTimeout(() => {
      ask().then(
        (seconds) => {
          if (!gone && seconds > 0) countdown(seconds);
        },
        () => undefined,
      );
    }, RESEND_ASK_DELAY_MS);
    return () => {
      gone = true;
      clearTimeout(timeout);
    };
  }, [canSend, recipient]);

  const onSend = async () => {
    const solved = captcha.solved;
    if (!solved) return;
    if (!solved.captchaCode) {
      setCaptchaError(t('captchaMissing'));
      return;
    }
    setBusy(true);
    setCaptchaError(null);
    sentOne.current = false;
    try {
      const res = await send(solved);
      sentOne.current = true;
      setSentTo(res.sentTo);
      countdown(res.resendSeconds);
    } catch (err) {
      // A wrong or expired picture: the server's message, beside the new picture.
      if (!isApiError(err) || !err.handled) setCaptchaError(isApiError(err) ? err.message : String(err));
    } finally {
      setBusy(false);
      // A captcha answers one send, right or wrong.
      captcha.renew();
    }
  };
  const shownError = captchaError ?? captcha.loadError ?? (captcha.expired ? messageOf('captchaExpired', locale) : null);

  return (
    <>
      <FormGroup label={t('captcha')} labelFor={`${testId}-captcha`} intent={shownError ? 'danger' : 'none'} helperText={shownError ? <span data-testid={`${testId}-captcha-error`}>{shownError}</span> : undefined}>
        <div className="dc-row-between" style={{ gap: 8 }}>
          <InputGroup
            inputRef={captchaInput}
            id={`${testId}-captcha`}
            value={captcha.answer}
            maxLength={8}
            autoComplete="off"
            intent={shownError ? 'danger' : 'none'}
            onValueChange={(v) => (captcha.setAnswer(v), setCaptchaError(null))}
            data-testid={`${testId}-captcha`}
            data-captcha-id={captcha.picture?.captchaId ?? ''}
          />
          <CaptchaPicture picture={captcha.picture} onRenew={captcha.renew} label={t('captcha')} refreshLabel={t('captchaRefresh')} testId={`${testId}-captcha-image`} />
        </div>
      </FormGroup>
      <FormGroup
        label={t('code')}
        labelFor={`${testId}-code`}
        intent={error ? 'danger' : 'none'}
        helperText={
          <>
            {error && <span data-testid={`${testId}-code-error`}>{error}</span>}
            {error && sentTo ? ' · ' : null}
            {sentTo ? <span data-testid={`${testId}-sent`}>{t('sent', { to: sentTo })}</span> : !error && t(channel === 'sms' ? 'codeHelpSms' : 'codeHelpEmail')}
          </>
        }
      >
        <InputGroup
          inputRef={codeInput}
          id={`${testId}-code`}
          value={code}
          maxLength={6}
          autoComplete="one-time-code"
          intent={error ? 'danger' : 'none'}
          onValueChange={onCodeChange}
          data-testid={`${testId}-code`}
          rightElement={
            <Button variant="minimal" intent="primary" disabled={!canSend || wait > 0 || !captcha.picture} loading={busy} onClick={() => void onSend()} data-testid={`${testId}-send`}>
              {wait > 0 ? t('resend', { seconds: wait }) : t('send')}
            </Button>
          }
        />
      </FormGroup>
    </>
  );
}

/**
 * The picture of a {@link useCaptcha} field as a button that asks for another one; a blank of the
 * same size while none is shown.
 */
export function CaptchaPicture(props: { picture: CaptchaImageResponse | null; onRenew(): void; label: string; refreshLabel: string; testId: string }) {
  const { picture } = props;
  return (
    <button type="button" className="dc-captcha" onClick={props.onRenew} title={props.refreshLabel} aria-label={props.refreshLabel} data-testid={props.testId}>
      {picture ? <img src={picture.image} width={picture.width} height={picture.height} alt={props.label} /> : <span style={{ display: 'inline-block', width: 150, height: 50 }} />}
    </button>
  );
}
