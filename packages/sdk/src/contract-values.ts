// Runtime values the SDK takes from the contract. The published build inlines them (see tsup.config.ts),
// so the package never loads the private @catalog/contracts at run time.
export { REPORTED_TOTAL_CAP, SEARCH_SIZE_MAX, SYNC_OVERLAP_SECONDS } from '@catalog/contracts';
