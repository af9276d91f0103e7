import { StrictMode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ErrorCode, type CaptchaAnswer, type CaptchaImageResponse, type GenerateCodeResponse } from '@decisio/domain';
import type { ApiError } from './api';
import { createTestHost, pressBusy, withHost } from './testing';
import { VerificationCodeField } from './verification';

afterEach(() => cleanup());

const FAR = '2030-01-01T00:00:00Z';
const picture = (id: string, expiresAt = FAR): CaptchaImageResponse => ({ captchaId: id.repeat(32), image: `data:image/svg+xml;base64,${id}`, width: 150, height: 50, expiresAt });

/** Captcha loads answered by the test, in the order they were asked. */
function loads() {
  const pending: Array<{ resolve(p: CaptchaImageResponse): void; reject(e: unknown): void }> = [];
  return {
    pending,
    load: () => new Promise<CaptchaImageResponse>((resolve, reject) => pending.push({ resolve, reject })),
    /** Answers the `i`-th load. */
    answer: async (i: number, p: CaptchaImageResponse) => act(async () => pending[i]!.resolve(p)),
  };
}

/** Renders the field; `sent` collects what each send carried. */
function show(load: () => Promise<CaptchaImageResponse>, options: { strict?: boolean; send?(c: CaptchaAnswer): Promise<GenerateCodeResponse> } = {}) {
  const host = createTestHost({ locale: 'en-US' });
  const sent: CaptchaAnswer[] = [];
  const send = async (c: CaptchaAnswer) => {
    sent.push(c);
    return options.send ? options.send(c) : { sentTo: 'a***@example.com', expiresAt: FAR, resendSeconds: 60 };
  };
  const field = <VerificationCodeField ns="test" channel="email" canSend code="" onCodeChange={() => undefined} loadCaptcha={load} send={send} testId="v" />;
  render(options.strict ? <StrictMode>{withHost(host, field)}</StrictMode> : withHost(host, field));
  return { sent };
}

const input = () => screen.getByTestId('v-captcha') as HTMLInputElement;
/** The id of the picture on screen ('' while none is), and the input must carry the same. */
const shownId = () => {
  const src = screen.getByTestId('v-captcha-image').querySelector('img')?.getAttribute('src');
  const id = src ? src.slice(src.indexOf(',') + 1).repeat(32) : '';
  expect(input().getAttribute('data-captcha-id')).toBe(id);
  return id;
};
const typeAnswer = (v: string) => fireEvent.change(input(), { target: { value: v } });

describe('VerificationCodeField captcha', () => {
  it('sends the answer with the picture it was typed for: renewing drops the old picture at once, and what was typed meanwhile goes with it', async () => {
    const l = loads();
    const { sent } = show(l.load);
    await l.answer(0, picture('a'));
    expect(shownId()).toBe('a'.repeat(32));
    typeAnswer('AAAAA');
    // The user asks for another picture, then types while it loads.
    fireEvent.click(screen.getByTestId('v-captcha-image'));
    expect(shownId()).toBe('');
    typeAnswer('XXXXX');
    await l.answer(1, picture('b'));
    expect(shownId()).toBe('b'.repeat(32));
    expect(input().value).toBe('');
    typeAnswer('BBBBB');
    fireEvent.click(screen.getByTestId('v-send'));
    await waitFor(() => expect(sent).toEqual([{ captchaId: 'b'.repeat(32), captchaCode: 'BBBBB' }]));
  });

  it('never shows a picture whose load was overtaken (React mounting twice in development, a double click)', async () => {
    const l = loads();
    const { sent } = show(l.load, { strict: true });
    expect(l.pending.length).toBe(2);
    await l.answer(1, picture('b'));
    typeAnswer('BBBBB');
    // The first load answers late: it must not replace the picture the answer was typed for.
    await l.answer(0, picture('a'));
    expect(shownId()).toBe('b'.repeat(32));
    expect(input().value).toBe('BBBBB');
    fireEvent.click(screen.getByTestId('v-captcha-image'));
    fireEvent.click(screen.getByTestId('v-captcha-image'));
    await l.answer(3, picture('d'));
    typeAnswer('DDDDD');
    await l.answer(2, picture('c'));
    expect(shownId()).toBe('d'.repeat(32));
    fireEvent.click(screen.getByTestId('v-send'));
    await waitFor(() => expect(sent).toEqual([{ captchaId: 'd'.repeat(32), captchaCode: 'DDDDD' }]));
  });

  it('replaces a picture that expires on screen and says so, instead of sending a stale one', async () => {
    const l = loads();
    const { sent } = show(l.load);
    await l.answer(0, picture('a', new Date(Date.now() + 150).toISOString()));
    typeAnswer('AAAAA');
    await waitFor(() => expect(l.pending.length).toBe(2));
    expect(shownId()).toBe('');
    expect(screen.getByTestId('v-captcha-error').textContent).toBe('The picture has expired; type the characters of the new picture');
    await l.answer(1, picture('b'));
    expect(shownId()).toBe('b'.repeat(32));
    expect(input().value).toBe('');
    typeAnswer('BBBBB');
    expect(screen.queryByTestId('v-captcha-error')).toBeNull();
    fireEvent.click(screen.getByTestId('v-send'));
    await waitFor(() => expect(sent).toEqual([{ captchaId: 'b'.repeat(32), captchaCode: 'BBBBB' }]));
  });

  it('shows the server\'s expired answer beside a fresh picture', async () => {
    const l = loads();
    const expired: ApiError = { kind: 'api', code: ErrorCode.captchaExpired, codeName: 'captchaExpired', message: 'The picture has expired; type the characters of the new picture', handled: false };
    const { sent } = show(l.load, { send: () => Promise.reject(expired) });
    await l.answer(0, picture('a'));
    typeAnswer('AAAAA');
    fireEvent.click(screen.getByTestId('v-send'));
    await waitFor(() => expect(l.pending.length).toBe(2));
    expect(sent).toEqual([{ captchaId: 'a'.repeat(32), captchaCode: 'AAAAA' }]);
    expect(screen.getByTestId('v-captcha-error').textContent).toBe(expired.message);
    await l.answer(1, picture('b'));
    expect(shownId()).toBe('b'.repeat(32));
    expect(input().value).toBe('');
  });
});

describe('VerificationCodeField focus', () => {
  it('gives the focus the busy Send dropped to the code once one is sent, and back to the captcha when the send fails', async () => {
    const l = loads();
    const expired: ApiError = { kind: 'api', code: ErrorCode.captchaExpired, codeName: 'captchaExpired', message: 'The picture has expired', handled: false };
    let answer: (failing: boolean) => void = () => undefined;
    const send = () =>
      new Promise<GenerateCodeResponse>((resolve, reject) => {
        answer = (failing) => (failing ? reject(expired) : resolve({ sentTo: 'a***@example.com', expiresAt: FAR, resendSeconds: 60 }));
      });
    show(l.load, { send });
    await l.answer(0, picture('a'));
    for (const [failing, expected] of [[true, 'v-captcha'], [false, 'v-code']] as const) {
      typeAnswer('AAAAA');
      const button = screen.getByTestId('v-send') as HTMLButtonElement;
      await pressBusy(button);
      await act(async () => answer(failing));
      await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId(expected)));
      await l.answer(l.pending.length - 1, picture(failing ? 'b' : 'c'));
    }
  });
});
