import { generateClientId } from '../clients/generate-client-id.ts';

/** A new subscription id: 26 characters of [A-Za-z0-9], drawn as a client id is (the contract's pattern). */
export const generateSubscriptionId = (): string => generateClientId();
