/**
 * The verification-code field shared by the screens that prove an e-mail or mobile number (sign
 * up, password reset, contact change, student certification): a server-drawn captcha picture with
 * its answer, the code input and a "send code" button with a resend countdown. The captcha is used
 * up by every send, so a fresh picture loads after each one.
 *
 * Texts come from the calling plugin's namespace, keys `verify.*`: `captcha`, `captchaRefresh`,
 * `code`, `send`, `resend` (`{{seconds}}` placeholder), `sent` (`{{to}}`), `codeHelpEmail`,
 * `codeHelpSms`.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { Button, FormGroup, InputGroup } from '@blueprintjs/core';
import type { CaptchaAnswer, CaptchaImageResponse, CodeChannel, GenerateCodeResponse } from '@decisio/domain';
import { isApiError } from './api';
import { useService } from './react';
import { localeServiceRef } from './services';

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
  const [captcha, setCaptcha] = useState<CaptchaImageResponse | null>(null);
  const [answer, setAnswer] = useState('');
  const [captchaError, setCaptchaError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [wait, setWait] = useState(0);
  const [busy, setBusy] = useState(false);
  const timer = useRef<ReturnType<typeof setInterval> | null>(null);

  const refresh = useCallback(async () => {
    setAnswer('');
    try {
      setCaptcha(await loadCaptcha());
    } catch (err) {
      setCaptchaError(isApiError(err) ? err.message : String(err));
    }
  }, [loadCaptcha]);

  useEffect(() => {
    void refresh();
    return () => {
      if (timer.current) clearInterval(timer.current);
    };
    // Load once; later pictures come from `refresh`.
  }, []);

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
    if (!captcha) return;
    if (!answer.trim()) {
      setCaptchaError(t('captchaMissing'));
      return;
    }
    setBusy(true);
    setCaptchaError(null);
    try {
      const res = await send({ captchaId: captcha.captchaId, captchaCode: answer.trim() });
      setSentTo(res.sentTo);
      countdown(res.resendSeconds);
    } catch (err) {
      if (!isApiError(err) || !err.handled) setCaptchaError(isApiError(err) ? err.message : String(err));
    } finally {
      setBusy(false);
      // A captcha answers one send, right or wrong.
      void refresh();
    }
  };

  return (
    <>
      <FormGroup label={t('captcha')} labelFor={`${testId}-captcha`} intent={captchaError ? 'danger' : 'none'} helperText={captchaError ? <span data-testid={`${testId}-captcha-error`}>{captchaError}</span> : undefined}>
        <div className="dc-row-between" style={{ gap: 8 }}>
          <InputGroup
            id={`${testId}-captcha`}
            value={answer}
            maxLength={8}
            autoComplete="off"
            intent={captchaError ? 'danger' : 'none'}
            onValueChange={(v) => (setAnswer(v), setCaptchaError(null))}
            data-testid={`${testId}-captcha`}
            data-captcha-id={captcha?.captchaId ?? ''}
          />
          <button type="button" className="dc-captcha" onClick={() => void refresh()} title={t('captchaRefresh')} aria-label={t('captchaRefresh')} data-testid={`${testId}-captcha-image`}>
            {captcha ? <img src={captcha.image} width={captcha.width} height={captcha.height} alt={t('captcha')} /> : <span style={{ display: 'inline-block', width: 150, height: 50 }} />}
          </button>
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
          id={`${testId}-code`}
          value={code}
          maxLength={6}
          autoComplete="one-time-code"
          intent={error ? 'danger' : 'none'}
          onValueChange={onCodeChange}
          data-testid={`${testId}-code`}
          rightElement={
            <Button variant="minimal" intent="primary" disabled={!canSend || wait > 0 || !captcha} loading={busy} onClick={() => void onSend()} data-testid={`${testId}-send`}>
              {wait > 0 ? t('resend', { seconds: wait }) : t('send')}
            </Button>
          }
        />
      </FormGroup>
    </>
  );
}
