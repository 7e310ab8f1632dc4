export { generateClientSecret, hashClientSecret, verifyClientSecret } from './client-secret.ts';
export {
  clientSecretPepperEnv,
  clientSecretPepperFile,
  loadClientSecretPepper,
} from './pepper.ts';
