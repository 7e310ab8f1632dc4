import { MemoryRequestLimiter } from '../../src/limits/memory/memory-request-limiter.ts';
import { requestLimiterContract } from './request-limiter.contract.ts';

requestLimiterContract('memory', async (limits, now) => new MemoryRequestLimiter(limits, now));
