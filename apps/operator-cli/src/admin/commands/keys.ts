import { type RotationReport, rotateSigningKeys, StoreAuditTrail } from '@catalog/auth-server/admin';
import { openCatalog } from '../../open-catalog.ts';
import { OPERATOR_AUDIT } from '../../operator-audit.ts';
import type { Output } from '../../output.ts';
import type { AdminEnv } from '../config/admin-env.ts';

/**
 * One step of the two-step key rotation; the running token server reloads the key file by itself.
 * The step is recorded in the audit trail here, since the token server only sees a new file.
 */
export async function runKeysRotate(env: AdminEnv, input: { force: boolean }, output: Output) {
  const store = await openCatalog(env.storage);
  let report: RotationReport;
  try {
    report = await rotateSigningKeys({
      dataDir: env.dataDir,
      force: input.force,
      audit: { trail: new StoreAuditTrail(store.audit), context: OPERATOR_AUDIT },
    });
  } finally {
    await store.close();
  }
  if (report.step === 'staged') {
    output.out(`staged ${report.stagedKid}`);
    output.err(
      `step 1 of 2: key ${report.stagedKid} is now published but does not sign yet.\n` +
        `Run \`pnpm admin keys rotate\` again after ${report.promoteAfter} to make it the signing key.`,
    );
  } else {
    output.out(`active ${report.activeKid}`);
    output.err(
      `step 2 of 2: key ${report.activeKid} now signs; ${report.retiredKid} is retired and stays published until ${report.retiredUntil}.`,
    );
  }
  if (report.pruned.length > 0) output.err(`removed expired retired keys: ${report.pruned.join(', ')}`);
}
