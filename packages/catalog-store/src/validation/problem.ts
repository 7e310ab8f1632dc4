/** One invalid field, as VALIDATION_ERROR details carry it. */
export interface Problem {
  field: string;
  reason: string;
}
