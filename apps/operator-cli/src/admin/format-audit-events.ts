import type { AuditActor, AuditEvent } from '@catalog/store';

// Events carry text administrators typed (client names, product codes): a control character in it
// must not reach the operator's terminal as one (an escape sequence could rewrite the screen, a
// bidirectional override reorder a line).
const CONTROL = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;
const escapeControl = (text: string) =>
  text.replace(CONTROL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** One event as one line of JSON (NDJSON), the fields as the store returns them. */
export function auditJsonLine(event: AuditEvent): string {
  // JSON.stringify escapes C0 controls only; the others escaped as \uXXXX leave the JSON valid and equal.
  return escapeControl(JSON.stringify(event));
}

function actorText(actor: AuditActor): string {
  switch (actor.kind) {
    case 'admin':
      return actor.email;
    case 'operator':
    case 'service':
      return actor.name;
    case 'unknown':
      return 'unknown';
  }
}

const valueText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** `field: old → new` per change (or `field changed` when only the name is kept), then `key=value` per detail. */
function factsText(event: AuditEvent): string {
  const changes = Object.entries(event.changes ?? {}).map(([field, change]) =>
    'from' in change || 'to' in change
      ? `${field}: ${valueText(change.from ?? null)} → ${valueText(change.to ?? null)}`
      : `${field} changed`,
  );
  const details = Object.entries(event.details ?? {}).map(([key, value]) => `${key}=${valueText(value)}`);
  return [...changes, ...details].join('; ');
}

const HEADER = ['TIME', 'ACTION', 'ACTOR', 'TARGET', 'SOURCE IP', 'REQUEST ID', 'CHANGES / DETAILS'];

/** The events as an aligned table with a header line; the last column is not padded. */
export function auditTable(events: readonly AuditEvent[]): string[] {
  const rows = [
    HEADER,
    ...events.map((event) =>
      [
        event.occurredAt,
        event.action,
        actorText(event.actor),
        `${event.target.type}:${event.target.id ?? '-'}`,
        event.sourceIp ?? '-',
        event.requestId ?? '-',
        factsText(event),
      ].map(escapeControl),
    ),
  ];
  const widths = HEADER.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0)));
  return rows.map((row) =>
    row
      .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}
