/** 200 → "2xx": a bounded label value however many statuses the server answers with. */
export function statusClass(status: number): string {
  return status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : 'other';
}
