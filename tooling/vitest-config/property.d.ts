import type { IRawProperty } from 'fast-check';

/** Runs of one property test: the default run, and the TEST_HEAVY one. No time budget: see property.js. */
export interface PropertyBudget {
  /** Runs made by default. */
  readonly runs: number;
  /** Runs made with TEST_HEAVY=1. */
  readonly heavyRuns: number;
  /** The seed unless TEST_SEED gives one. */
  readonly seed: number;
}

export interface PropertyReport {
  readonly runs: number;
  readonly seed: number;
}

export function checkProperty<Ts extends unknown[]>(
  property: IRawProperty<Ts>,
  budget: PropertyBudget,
): Promise<PropertyReport>;
