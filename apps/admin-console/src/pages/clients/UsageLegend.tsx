export const USAGE_LEGEND_ID = 'clients-usage-legend';

/**
 * What the two usage figures count, which differ: a token request moves "Last token" and not
 * "API calls", so a client can show a token today and no call at all.
 */
export function UsageLegend({ id = USAGE_LEGEND_ID }: { readonly id?: string }) {
  return (
    <p className="hint usage-legend" id={id}>
      <strong>API calls</strong>: requests made to the catalogue with the client’s access tokens (counted
      within seconds). <strong>Last token</strong>: when the client last obtained an access token from the
      token server; calls made with a token do not change it. Dates are in your time zone.
    </p>
  );
}
