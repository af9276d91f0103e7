import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { EMPTY_SIGN_UP, serverErrorsToFields, toSignUpRequest, validateStep, type SignUpValues } from './sign-up';

const v = (over: Partial<SignUpValues>): SignUpValues => ({ ...EMPTY_SIGN_UP, ...over });

describe('sign-up step 1 (basic info)', () => {
  it('requires username and e-mail', () => {
    expect(validateStep(0, v({}))).toMatchObject({ username: 'validation.required', email: 'validation.required' });
  });
  it('checks username length and characters', () => {
    expect(validateStep(0, v({ username: 'abc', email: 'a@b.co' })).username).toBe('validation.usernameLength');
    expect(validateStep(0, v({ username: 'a'.repeat(21), email: 'a@b.co' })).username).toBe('validation.usernameLength');
    expect(validateStep(0, v({ username: 'bad name!', email: 'a@b.co' })).username).toBe('validation.usernameChars');
  });
  it('checks the e-mail and the optional mobile', () => {
    expect(validateStep(0, v({ username: 'alice_1', email: 'nope' })).email).toBe('validation.email');
    expect(validateStep(0, v({ username: 'alice_1', email: 'a@b.co', mobile: '123' })).mobile).toBe('validation.mobile');
    expect(validateStep(0, v({ username: 'alice_1', email: 'a@b.co', mobile: '13812345678', code: 'ABC123' }))).toEqual({});
    expect(validateStep(0, v({ username: 'alice_1', email: 'a@b.co', code: 'abc123' }))).toEqual({});
  });
  it('requires the code of the chosen channel (6 letters or digits by e-mail, 6 digits and a mobile by SMS)', () => {
    expect(validateStep(0, v({ username: 'alice_1', email: 'a@b.co' })).code).toBe('validation.required');
    expect(validateStep(0, v({ username: 'alice_1', email: 'a@b.co', code: 'AB12' })).code).toBe('validation.emailCode');
    expect(validateStep(0, v({ username: 'alice_1', email: 'a@b.co', codeChannel: 'sms', code: 'ABC123' }))).toMatchObject({ mobile: 'validation.required', code: 'validation.smsCode' });
    expect(validateStep(0, v({ username: 'alice_1', email: 'a@b.co', codeChannel: 'sms', mobile: '13812345678', code: '123456' }))).toEqual({});
  });
  it('puts code errors of the server under the code field on step 1', () => {
    const m = serverErrorsToFields({ kind: 'api', code: ErrorCode.verifyCodeExpired, message: 'expired', handled: false });
    expect(m).toEqual({ fields: { code: 'expired' }, step: 0, general: null });
  });
});

describe('sign-up step 2 (personal info)', () => {
  it('requires an occupation', () => {
    expect(validateStep(1, v({})).occupation).toBe('validation.required');
    expect(validateStep(1, v({ occupation: 'teacher' }))).toEqual({});
  });
  it('checks the nickname characters', () => {
    expect(validateStep(1, v({ occupation: 'other', nickname: 'no spaces!' })).nickname).toBe('validation.nickname');
  });
  it('asks students for university, major and an edu.cn campus e-mail', () => {
    expect(validateStep(1, v({ occupation: 'student' }))).toMatchObject({
      university: 'validation.required',
      major: 'validation.required',
      campusEmail: 'validation.required',
    });
    expect(validateStep(1, v({ occupation: 'student', university: 'U', major: 'M', campusEmail: 'x@gmail.com' })).campusEmail).toBe(
      'validation.campusEmail',
    );
    expect(validateStep(1, v({ occupation: 'student', university: 'U', major: 'M', campusEmail: 'x@pku.edu.cn' }))).toEqual({});
  });
});

describe('sign-up step 3 (password)', () => {
  it('checks the password rules', () => {
    expect(validateStep(2, v({ password: 'Ab1', confirmPassword: 'Ab1', agreement: true })).password).toBe('validation.passwordLength');
    expect(validateStep(2, v({ password: 'abcdefgh1', confirmPassword: 'abcdefgh1', agreement: true })).password).toBe('validation.passwordUpper');
    expect(validateStep(2, v({ password: 'ABCDEFGH1', confirmPassword: 'ABCDEFGH1', agreement: true })).password).toBe('validation.passwordLower');
    expect(validateStep(2, v({ password: 'Abcdefghi', confirmPassword: 'Abcdefghi', agreement: true })).password).toBe('validation.passwordDigit');
  });
  it('requires matching passwords and the agreement', () => {
    const e = validateStep(2, v({ password: 'Abcdefg1', confirmPassword: 'Abcdefg2', agreement: false }));
    expect(e.agreement).toBe('validation.agreement');
    expect(validateStep(2, v({ password: 'Abcdefg1', confirmPassword: 'Abcdefg2', agreement: true })).confirmPassword).toBe(
      'validation.passwordMismatch',
    );
    expect(validateStep(2, v({ password: 'Abcdefg1', confirmPassword: 'Abcdefg1', agreement: true }))).toEqual({});
  });
});

describe('request and server errors', () => {
  it('builds the request without student fields for non-students', () => {
    const r = toSignUpRequest(v({ username: 'alice_1', email: 'a@b.co', occupation: 'teacher', university: 'U', code: ' ABC123 ' }), 'x'.repeat(20));
    expect(r).toMatchObject({ username: 'alice_1', email: 'a@b.co', occupation: 'teacher', agreement: true, codeChannel: 'email', code: 'ABC123' });
    expect(r.university).toBeUndefined();
    expect(r.mobile).toBeUndefined();
  });
  it('sends a registered username back to step 1', () => {
    const m = serverErrorsToFields({ kind: 'api', code: ErrorCode.usernameRegistered, message: 'taken', handled: false });
    expect(m).toEqual({ fields: { username: 'taken' }, step: 0, general: null });
  });
  it('uses field errors of the envelope', () => {
    const m = serverErrorsToFields({ kind: 'api', code: ErrorCode.paramInvalid, message: 'bad', errors: { password: 'weak' }, handled: false });
    expect(m.step).toBe(2);
    expect(m.fields.password).toBe('weak');
  });
  it('keeps other messages general', () => {
    expect(serverErrorsToFields({ kind: 'api', code: ErrorCode.failure, message: 'oops', handled: false }).general).toBe('oops');
  });
});
