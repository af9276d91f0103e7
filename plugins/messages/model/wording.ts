/**
 * How a message reads and where it leads, from its kind and parameters (headless: the panel and
 * the tests use it). Texts are translation keys of this plugin with their parameters.
 */
import type { MessageItem } from '@decisio/domain';

/** The translation key and parameters of a message's text, and the page it links to. */
export function wordingOf(m: MessageItem): { key: string; params: Record<string, string | number>; to: string | null } {
  const p = m.params;
  const s = (v: unknown) => (v === null || v === undefined ? '' : String(v));
  switch (m.kind) {
    case 'trainingEnded':
    case 'trainingFailed':
      return { key: `kinds.${m.kind}`, params: { name: s(p.name), kind: s(p.trainingKind) }, to: '/dashboard' };
    case 'licenceExpiring':
      return { key: 'kinds.licenceExpiring', params: { days: Number(p.days ?? 0), edition: s(p.edition) }, to: '/sdk-licence' };
    case 'licenceExpired':
      return { key: 'kinds.licenceExpired', params: { edition: s(p.edition) }, to: '/sdk-licence' };
    case 'licenceReviewed':
      return { key: p.approved ? 'kinds.licenceApproved' : 'kinds.licenceRefused', params: { edition: s(p.edition), opinion: s(p.opinion) }, to: '/sdk-licence' };
    case 'serviceReviewed':
      return { key: p.approved ? 'kinds.serviceApproved' : 'kinds.serviceRefused', params: { opinion: s(p.opinion) }, to: '/user-center/service' };
    case 'ticketAnswered':
      return { key: 'kinds.ticketAnswered', params: { excerpt: s(p.excerpt) }, to: '/support' };
    case 'projectShared':
      return { key: 'kinds.projectShared', params: { project: s(p.projectName), by: s(p.by), permission: s(p.permission) }, to: '/all-project' };
    case 'policyUpdated': {
      const score = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? Number(v.toPrecision(4)) : '?');
      const outcome = ['swapped', 'kept', 'skipped', 'failed'].includes(String(p.outcome)) ? String(p.outcome) : 'failed';
      return { key: `kinds.policyUpdated_${outcome}`, params: { service: s(p.service), policy: s(p.policy), before: score(p.scoreBefore), after: score(p.scoreAfter), calls: Number(p.calls ?? 0) }, to: '/job' };
    }
    default:
      return { key: 'kinds.unknown', params: {}, to: null };
  }
}
