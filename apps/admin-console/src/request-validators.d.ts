// The validators `vite/request-validators.ts` compiles from the contract, one per operation's body.
declare module 'virtual:request-validators' {
  import type { BodyValidator } from './domain/form-checks.ts';

  export const createM2MClient: BodyValidator;
  export const updateM2MClient: BodyValidator;
  export const createWebChannel: BodyValidator;
  export const updateWebChannel: BodyValidator;
  export const rotateWebhookSecret: BodyValidator;
}
