// Issue 31: kill -9 of the API instance that is delivering loses no event on a cluster. The outbox is
// in the shared PostgreSQL database; the killed instance's claims are taken over when their leases
// end (by the other instance, or by the killed one once its supervisor has started it again), and the
// receiver gets every event. Which instance holds the deliveries under way is read off the sockets of
// each instance's process (Linux /proc): the requests the receiver holds open came from its ports.
import { readdir, readFile, readlink } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractCall } from '../conformance/support/contract.ts';
import { adminToken } from '../conformance/support/people.ts';
import { clusterStack, type E2EStack } from '../support/stack.ts';
import { expectEveryEventDelivered, holdDeliveriesUnderWay } from '../support/webhook-kill-scenario.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';
import { type Cluster, type ClusterInstance, startCluster } from './support/cluster.ts';

const PRODUCTS = 12;
const IN_FLIGHT = 4;

let cluster: Cluster;
let stack: E2EStack;
let receiver: WebhookReceiver;

beforeAll(async () => {
  cluster = await startCluster({
    demoProducts: 10,
    env: {
      RATE_LIMIT_RPS: '0',
      RATE_LIMIT_IP_PER_5MIN: '0',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_POLL_MS: '50',
      // The held requests must still be under way when the test kills their sender, however slow
      // the machine; the lease (twice these, and a 10 s margin) then ends under a minute after the kill.
      WEBHOOK_CONNECT_TIMEOUT_MS: '1000',
      WEBHOOK_RESPONSE_TIMEOUT_MS: '20000',
      WEBHOOK_CONCURRENCY_PER_ENDPOINT: String(IN_FLIGHT),
    },
  });
  stack = clusterStack(cluster);
  receiver = await startWebhookReceiver(cluster.dir);
});
afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

/** The local TCP ports of a process's sockets, from /proc/<pid>/fd and the kernel's socket tables. */
async function localPortsOf(pid: number): Promise<Set<number>> {
  const inodes = new Set<string>();
  for (const fd of await readdir(`/proc/${pid}/fd`)) {
    const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    if (inode !== undefined) inodes.add(inode);
  }
  const ports = new Set<number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const lines = (await readFile(table, 'utf8').catch(() => '')).split('\n').slice(1);
    for (const line of lines) {
      const fields = line.trim().split(/\s+/);
      const local = fields[1];
      if (local === undefined || !inodes.has(fields[9] ?? '')) continue;
      ports.add(Number.parseInt(local.split(':').at(-1) as string, 16));
    }
  }
  return ports;
}

async function holderOf(ports: readonly number[]): Promise<ClusterInstance | undefined> {
  for (const instance of cluster.api) {
    const pid = instance.service().child.pid;
    if (pid === undefined) continue;
    const own = await localPortsOf(pid);
    if (ports.some((port) => own.has(port))) return instance;
  }
  return undefined;
}

describe('webhooks on a cluster: kill -9 of the delivering instance', () => {
  it('loses no event: the deliveries under way in the killed instance are sent again once their leases end, every event verified', async () => {
    const call = contractCall(stack);
    const admin = await adminToken(stack);
    // The endpoint holds every request: deliveries are under way in one or both instances, the
    // rest wait in the outbox (at most IN_FLIGHT at once over the cluster).
    const held = await holdDeliveriesUnderWay({
      stack,
      call,
      admin,
      receiver,
      path: '/takeover',
      products: PRODUCTS,
      inFlight: IN_FLIGHT,
    });
    const victim = await holderOf(receiver.heldPorts());
    expect(victim, 'an API instance holds the requests under way').toBeDefined();
    const { restarted } = await (victim as ClusterInstance).kill();
    receiver.answerWith(() => ({ status: 204 }));
    await expectEveryEventDelivered(call, admin, receiver, held);
    await restarted();
  });
});
