// Ports a cluster is given before anything listens on them: nginx's URLs are every instance's
// configuration, and an instance killed with -9 comes back on its own port. They are picked outside
// the kernel's ephemeral range, which every `listen(0)` of the suites running beside this one and
// every outgoing connection draw from, so nothing but another cluster picking at random can take
// one between the check here and the bind; the check is a real bind.
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

const LOWEST = 10_000;

/** Linux's ephemeral range (net.ipv4.ip_local_port_range), or its default. */
function ephemeralRange(): readonly [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    return [Number(low), Number(high)];
  } catch {
    return [32_768, 60_999];
  }
}

async function bindable(port: number): Promise<boolean> {
  const server = createServer();
  server.listen(port, '127.0.0.1');
  const [outcome] = await Promise.race([once(server, 'listening'), once(server, 'error')]);
  if (outcome instanceof Error) return false;
  await new Promise((resolve) => server.close(resolve));
  return true;
}

const handedOut = new Set<number>();

/** A free loopback port outside the ephemeral range, never the same twice in this process. */
export async function reservePort(): Promise<number> {
  const [low, high] = ephemeralRange();
  const span = low - LOWEST > 1_000 ? { from: LOWEST, to: low } : { from: high + 1, to: 65_536 };
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const port = span.from + Math.floor(Math.random() * (span.to - span.from));
    if (handedOut.has(port) || !(await bindable(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`no free port between ${span.from} and ${span.to - 1}`);
}
