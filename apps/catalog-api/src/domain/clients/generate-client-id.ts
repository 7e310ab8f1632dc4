import { randomInt } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const LENGTH = 26;

/** A new client ID: 26 characters drawn uniformly from [A-Za-z0-9] (spec 2.4), about 155 bits. */
export function generateClientId(): string {
  let id = '';
  for (let i = 0; i < LENGTH; i += 1) id += ALPHABET[randomInt(ALPHABET.length)];
  return id;
}
