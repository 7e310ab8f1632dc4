// Vitest global set-up of an E2E_ENGINE=cluster run: nginx is looked for once, before any cluster
// starts, so that a machine without it fails the run with one line saying what to install.
import { settings } from './settings.ts';

export default function setup(): void {
  if (settings.nginx === '')
    throw new Error(
      "nginx is not installed: E2E_ENGINE=cluster runs Debian's nginx (apt-get install nginx; `npm test` installs it as root) or the one NGINX_PATH names",
    );
}
