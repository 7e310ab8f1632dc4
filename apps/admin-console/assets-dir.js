// Where the built console lives, for the catalog API that serves it (the package ships no server code).
import { fileURLToPath } from 'node:url';

export const adminConsoleAssetsDir = fileURLToPath(new URL('./dist/', import.meta.url));
