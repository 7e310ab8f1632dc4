import type { Middleware } from 'koa';

/** One condition of readiness: true when met; false or a thrown error when not. */
export type ReadinessCheck = () => Promise<boolean> | boolean;

/** Whether the process has begun to stop (SIGTERM or SIGINT): from then on it is no longer ready. */
export class ShutdownState {
  #draining = false;

  get draining(): boolean {
    return this.#draining;
  }

  startDraining(): void {
    this.#draining = true;
  }
}

export interface ReadinessBody {
  readonly status: 'ready' | 'not-ready';
  /** Each check's name and 'ok' or 'failing'; `shutdown` is 'draining' once the process stops. */
  readonly checks: Record<string, 'ok' | 'failing' | 'running' | 'draining'>;
}

async function passes(check: ReadinessCheck): Promise<boolean> {
  try {
    return await check();
  } catch {
    return false;
  }
}

/** Runs the checks (concurrently) and says whether the server may be sent traffic. */
export async function readiness(
  checks: Readonly<Record<string, ReadinessCheck>>,
  shutdown: ShutdownState,
): Promise<ReadinessBody> {
  if (shutdown.draining) return { status: 'not-ready', checks: { shutdown: 'draining' } };
  const names = Object.keys(checks);
  const results = await Promise.all(names.map((name) => passes(checks[name] as ReadinessCheck)));
  const outcome: ReadinessBody['checks'] = {};
  names.forEach((name, index) => {
    outcome[name] = results[index] ? 'ok' : 'failing';
  });
  outcome.shutdown = shutdown.draining ? 'draining' : 'running';
  const ready = results.every(Boolean) && !shutdown.draining;
  return { status: ready ? 'ready' : 'not-ready', checks: outcome };
}

/**
 * The operators' readiness probe, without authentication: 200 when every check passes and the
 * process is not stopping, 503 otherwise, with the name of each check and whether it passed (never
 * why: no error text, path or address). /health stays the liveness probe: a process that is alive but
 * not ready (store unreachable, keys not loaded, draining) should be taken out of rotation, not restarted.
 * `describe` adds what an operator waiting for readiness wants to know beyond a check's name (how far
 * a build that takes minutes has come), never an error.
 */
export function readinessCheck(
  path: string,
  checks: Readonly<Record<string, ReadinessCheck>>,
  shutdown: ShutdownState,
  describe: () => Record<string, unknown> = () => ({}),
): Middleware {
  return async (ctx, next) => {
    if (ctx.path !== path || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    const body = { ...(await readiness(checks, shutdown)), ...describe() };
    ctx.set('Cache-Control', 'no-store');
    ctx.status = body.status === 'ready' ? 200 : 503;
    ctx.body = body;
  };
}
