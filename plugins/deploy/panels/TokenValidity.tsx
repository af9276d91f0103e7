/**
 * How long an access token stays valid (`tokenExpiresAt` of `modeldeploy/create` and
 * `rotateToken`): never, 30 days, 90 days, 1 year, or through a chosen day (local time). The
 * field, the expiry it gives, and how a service's expiry is shown.
 */
import { Classes, FormGroup, HTMLSelect, Tag } from '@blueprintjs/core';
import { DEPLOY_LIMITS, tokenExpiryAllowed, type ModelServiceItem } from '@decisio/domain';
import { useTheme } from '@decisio/sdk-plugin';
import { useDeployT } from '../i18n';

const DAY_MS = 86_400_000;

/** The choices of the field. */
export const VALIDITY_CHOICES = ['never', 'days30', 'days90', 'year1', 'date'] as const;
export type ValidityChoice = (typeof VALIDITY_CHOICES)[number];

/** The field's value: a choice, and the day (`YYYY-MM-DD`) when the choice is `date`. */
export interface Validity {
  choice: ValidityChoice;
  date: string;
}

/** The default: the token never expires. */
export const NEVER: Validity = { choice: 'never', date: '' };

/** `YYYY-MM-DD` of a local date. */
function dayOf(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The end (23:59:59.999, local time) of a `YYYY-MM-DD` day, or null when it is not one. */
function endOfDay(day: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return null;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 23, 59, 59, 999);
  return d.getDate() === Number(m[3]) ? d : null;
}

/**
 * The `tokenExpiresAt` a validity gives at `now`: an ISO time, `null` (never), or `undefined`
 * when the chosen day is missing, past or more than 10 years ahead.
 */
export function expiryOf(v: Validity, now: Date): string | null | undefined {
  if (v.choice === 'never') return null;
  let at: Date | null;
  if (v.choice === 'date') at = endOfDay(v.date);
  else if (v.choice === 'year1') {
    at = new Date(now);
    at.setFullYear(at.getFullYear() + 1);
  } else at = new Date(now.getTime() + (v.choice === 'days30' ? 30 : 90) * DAY_MS);
  return at && tokenExpiryAllowed(at.getTime(), now.getTime()) ? at.toISOString() : undefined;
}

/**
 * The validity field: a select of the choices and, for "until a date", a date input limited to
 * today .. 10 years ahead. `error` is a message to show under it (the server's or the caller's).
 */
export function TokenValidityField({ id, value, onChange, error }: { id: string; value: Validity; onChange(v: Validity): void; error?: string | undefined }) {
  const { t } = useDeployT();
  const theme = useTheme();
  const now = new Date();
  return (
    <FormGroup label={t('validity.label')} labelFor={id} intent={error ? 'danger' : 'none'} helperText={error ?? t('validity.help')}>
      <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap' }}>
        <HTMLSelect
          id={id}
          // wide enough for the longest choice in either language beside the select's arrow
          style={{ minWidth: '11em' }}
          value={value.choice}
          onChange={(e) => onChange({ ...value, choice: e.currentTarget.value as ValidityChoice })}
          options={VALIDITY_CHOICES.map((c) => ({ value: c, label: t(`validity.${c}`) }))}
        />
        {value.choice === 'date' && (
          <input
            type="date"
            className={`${Classes.INPUT}${error ? ` ${Classes.INTENT_DANGER}` : ''}`}
            aria-label={t('validity.dateLabel')}
            // the browser's own calendar follows the workbench theme
            style={{ colorScheme: theme === 'dark' ? 'dark' : 'light' }}
            data-testid={`${id}-date`}
            min={dayOf(now)}
            max={dayOf(new Date(now.getTime() + (DEPLOY_LIMITS.tokenValidityMaxDays - 1) * DAY_MS))}
            value={value.date}
            onChange={(e) => onChange({ ...value, date: e.currentTarget.value })}
          />
        )}
      </div>
    </FormGroup>
  );
}

/** A service's token expiry: the time (or "never expires"), and an "expired" tag with the hint to rotate. */
export function TokenExpiry({ service }: { service: Pick<ModelServiceItem, 'tokenExpiresAt' | 'tokenExpired'> }) {
  const { t, locale } = useDeployT();
  if (!service.tokenExpiresAt) return <span>{t('validity.never')}</span>;
  return (
    <span data-testid="deploy-token-expiry">
      {new Date(service.tokenExpiresAt).toLocaleString(locale)}{' '}
      {service.tokenExpired && (
        <>
          <Tag intent="danger" minimal round icon="time">
            {t('validity.expired')}
          </Tag>
          <div className={Classes.TEXT_MUTED}>{t('validity.expiredHint')}</div>
        </>
      )}
    </span>
  );
}
