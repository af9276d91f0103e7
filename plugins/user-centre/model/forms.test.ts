import { describe, expect, it } from 'vitest';
import { avatarProblem, passwordFormErrors } from './forms';

describe('password change form', () => {
  it('requires the current password and a new one meeting the rule, typed twice', () => {
    expect(passwordFormErrors({ oriPassword: '', password: '', confirmPassword: '' })).toEqual({ oriPassword: 'validation.required', password: 'validation.required' });
    expect(passwordFormErrors({ oriPassword: 'x', password: 'alllower1', confirmPassword: 'alllower1' })).toEqual({ password: 'validation.passwordUpper' });
    expect(passwordFormErrors({ oriPassword: 'x', password: 'NewSecret456', confirmPassword: 'NewSecret457' })).toEqual({ confirmPassword: 'validation.passwordMismatch' });
    expect(passwordFormErrors({ oriPassword: 'x', password: 'NewSecret456', confirmPassword: 'NewSecret456' })).toEqual({});
  });
});

describe('avatar picture', () => {
  it('takes PNG, JPEG or WebP up to 256 KB', () => {
    expect(avatarProblem({ type: 'image/png', size: 1000 })).toBeNull();
    expect(avatarProblem({ type: 'image/gif', size: 1000 })).toBe('type');
    expect(avatarProblem({ type: 'image/jpeg', size: 256 * 1024 + 1 })).toBe('size');
  });
});
