import { describe, expect, it } from 'vitest';
import { resetFormErrors, type ResetValues } from './reset-password';

const base: ResetValues = { channel: 'email', email: 'a@example.com', mobile: '', code: 'ABC123', password: 'Secret123', confirmPassword: 'Secret123' };

describe('reset password form', () => {
  it('accepts a complete e-mail form and an SMS form with 6 digits', () => {
    expect(resetFormErrors(base)).toEqual({});
    expect(resetFormErrors({ ...base, channel: 'sms', email: '', mobile: '13800000000', code: '123456' })).toEqual({});
  });

  it('names each wrong field with its validation key', () => {
    expect(resetFormErrors({ ...base, email: 'x', code: '12', password: 'weak', confirmPassword: '' })).toEqual({
      email: 'validation.email',
      code: 'validation.emailCode',
      password: 'validation.passwordLength',
    });
    expect(resetFormErrors({ ...base, channel: 'sms', mobile: '', code: 'ABCDEF' })).toMatchObject({ mobile: 'validation.required', code: 'validation.smsCode' });
    expect(resetFormErrors({ ...base, confirmPassword: 'Secret1234' })).toEqual({ confirmPassword: 'validation.passwordMismatch' });
  });
});
