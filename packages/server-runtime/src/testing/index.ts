// Test helpers for the servers' own suites; not used at run time.
export { describeServiceProcess } from './service-process-suite.ts';
export {
  type RawReply,
  rawRequest,
  runEntry,
  runToExit,
  type SpawnedService,
  spawnService,
} from './spawn-service.ts';
