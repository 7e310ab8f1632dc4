// Dates as administrators read them: the day and the time in their own time zone, named, e.g.
// "28 Nov 2026, 14:05 UTC". The exact instant stays available as ISO 8601 (the element's title).

const OPTIONS: Intl.DateTimeFormatOptions = {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZoneName: 'short',
};

const LOCAL = new Intl.DateTimeFormat('en-GB', OPTIONS);

/** Date and time with the zone's abbreviation (the browser's zone unless given); the text itself when it is no date. */
export function formatDateTime(iso: string, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const format = timeZone === undefined ? LOCAL : new Intl.DateTimeFormat('en-GB', { ...OPTIONS, timeZone });
  return format.format(date);
}
