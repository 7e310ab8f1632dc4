import { openDeploymentSigningKeys } from '@catalog/engines';
import { type RotationReport, rotateSigningKeys, StoreAuditTrail } from '@catalog/identity';
import { openCatalog } from '../../open-catalog.ts';
import { OPERATOR_AUDIT } from '../../operator-audit.ts';
import type { Output } from '../../output.ts';
import type { AdminEnv } from '../config/admin-env.ts';

/**
 * One step of the two-step key rotation, where the token servers read the keys: DATA_DIR's key file
 * on the embedded default, the set they share in PostgreSQL when DATABASE_URL is set (sealed with
 * the client-secret pepper, so it must be theirs). Every running token server reloads the keys by
 * itself; the step is recorded in the audit trail here, since the servers only see new keys.
 */
export async function runKeysRotate(env: AdminEnv, input: { force: boolean }, output: Output) {
  const store = await openCatalog(env.storage);
  let report: RotationReport;
  try {
    const keys = await openDeploymentSigningKeys({
      storage: env.storage,
      clientSecretPepper: env.clientSecretPepper,
    });
    try {
      report = await rotateSigningKeys({
        keys,
        force: input.force,
        audit: { trail: new StoreAuditTrail(store.audit), context: OPERATOR_AUDIT },
      });
    } finally {
      await keys.close();
    }
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
