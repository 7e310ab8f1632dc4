import { readFile } from 'node:fs/promises';
import { obtainAdminIdToken } from '@catalog/identity';
import type { Output } from '../../output.ts';
import type { AdminEnv } from '../config/admin-env.ts';
import { readPassword } from '../read-password.ts';

/** Prints only the ID token on stdout, so `pnpm --silent admin token` can be captured as is. */
export async function runToken(env: AdminEnv, input: { email: string; caFile?: string }, output: Output) {
  const password = await readPassword(env.password);
  const caFile = input.caFile ?? env.caFile;
  const idToken = await obtainAdminIdToken({
    authUrl: env.authUrl,
    ca: caFile === undefined ? undefined : await readFile(caFile, 'utf8'),
    email: input.email,
    password,
  });
  output.out(idToken);
}
