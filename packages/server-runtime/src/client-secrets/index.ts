export { generateClientSecret, hashClientSecret, verifyClientSecret } from './client-secret.ts';
export {
  ClientSecretPepperError,
  clientSecretPepperEnv,
  clientSecretPepperFile,
  loadClientSecretPepper,
} from './pepper.ts';
