/** The "expired" and "expires in N days" notices of the licence page (headless). */
import { LICENCE_NOTICE_DAYS, type SdkLicenceItem } from '@decisio/domain';

/** A notice about one licence. */
export type LicenceNotice = { kind: 'expired'; licence: SdkLicenceItem } | { kind: 'expiring'; licence: SdkLicenceItem; days: number };

/**
 * Notices for issued licences: expired ones that were not renewed, and those in their last
 * {@link LICENCE_NOTICE_DAYS} days. A licence with a renewal on review or issued says nothing.
 */
export function licenceNotices(rows: readonly SdkLicenceItem[]): LicenceNotice[] {
  const renewed = new Set(rows.filter((r) => r.renewalOf && (r.status === 'audit' || r.status === 'success')).map((r) => r.renewalOf!));
  const out: LicenceNotice[] = [];
  for (const r of rows) {
    if (renewed.has(r.id)) continue;
    if (r.status === 'expired') out.push({ kind: 'expired', licence: r });
    else if (r.status === 'success' && r.daysLeft !== null && r.daysLeft <= LICENCE_NOTICE_DAYS) out.push({ kind: 'expiring', licence: r, days: r.daysLeft });
  }
  return out;
}
