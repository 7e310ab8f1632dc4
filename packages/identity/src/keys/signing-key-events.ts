import type { AuditContext, NewAuditEvent } from '@catalog/store';
import type { RotationReport } from './rotate-signing-keys.ts';

/** The event of one rotation step, naming key ids only (never key material). */
export function rotationEvent(context: AuditContext, report: RotationReport): NewAuditEvent {
  const who = { actor: context.actor, sourceIp: context.sourceIp, requestId: context.requestId };
  const pruned = report.pruned.length === 0 ? {} : { pruned: report.pruned.join(',') };
  if (report.step === 'staged') {
    return {
      ...who,
      action: 'signing-key.stage',
      target: { type: 'signing-key', id: report.stagedKid },
      details: { promoteAfter: report.promoteAfter, ...pruned },
    };
  }
  return {
    ...who,
    action: 'signing-key.promote',
    target: { type: 'signing-key', id: report.activeKid },
    details: { retiredKid: report.retiredKid, retiredUntil: report.retiredUntil, ...pruned },
  };
}
