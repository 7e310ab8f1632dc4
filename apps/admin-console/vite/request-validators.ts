// The virtual module `virtual:request-validators`: the catalog API's own request-body validators,
// compiled from the contract at build time, so that a form is checked in the browser exactly as the
// API will check it (same schema, same reasons) before anything is sent.
import { standaloneBodyValidators } from '@catalog/contracts/standalone-body-validators';
import type { Plugin } from 'vite';

const VIRTUAL_ID = 'virtual:request-validators';
const RESOLVED_ID = `\0${VIRTUAL_ID}`;

export function requestValidators(operationIds: readonly string[]): Plugin {
  return {
    name: 'catalog-request-validators',
    resolveId: (id) => (id === VIRTUAL_ID ? RESOLVED_ID : undefined),
    load: (id) => (id === RESOLVED_ID ? standaloneBodyValidators(operationIds) : undefined),
  };
}
