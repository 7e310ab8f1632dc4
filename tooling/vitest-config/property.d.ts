import type { IRawProperty } from 'fast-check';

/** Runs and time budget of one property test: the default run, and the TEST_HEAVY one. */
export interface PropertyBudget {
  /** Runs asked for by default. */
  readonly runs: number;
  /** No run beyond `minRuns` starts after this long (`interruptAfterTimeLimit`). */
  readonly budgetMs: number;
  readonly heavyRuns: number;
  readonly heavyBudgetMs: number;
  /**
   * Runs made first, whatever the budget (within a hard 20 s): fewer fails the test instead of
   * passing on a handful.
   */
  readonly minRuns: number;
  /** The seed unless TEST_SEED gives one. */
  readonly seed: number;
}

export interface PropertyReport {
  readonly runs: number;
  readonly seed: number;
  readonly interrupted: boolean;
}

export function checkProperty<Ts extends unknown[]>(
  property: IRawProperty<Ts>,
  budget: PropertyBudget,
): Promise<PropertyReport>;
