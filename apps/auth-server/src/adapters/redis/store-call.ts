import type { ChainableCommander } from 'ioredis';
import { SignInStoreUnavailable } from '../../errors/sign-in-store-unavailable.ts';

/** A call to Redis whose failure (down, slower than the command time-out) is SignInStoreUnavailable. */
export async function storeCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (cause) {
    throw new SignInStoreUnavailable({ cause });
  }
}

/** Runs a MULTI; a command failing inside it fails the call as the connection would. */
export function execute(transaction: ChainableCommander): Promise<void> {
  return storeCall(async () => {
    const replies = await transaction.exec();
    const failed = replies?.find(([error]) => error !== null)?.[0];
    if (failed) throw failed;
  });
}
