import type { WebhookEventType } from '../../api/webhook-types.ts';
import { describedBy, FieldErrorText } from '../../components/FieldError.tsx';
import { EVENT_TYPE_TEXT, EVENT_TYPES, eventTypeRefusal } from './webhook-rules.ts';

/**
 * One checkbox per event type; a type the client's scopes do not allow is disabled, with the reason
 * next to it (the API would refuse it): product.* needs products.read, brand.changed brands.read.
 */
export function EventTypeCheckboxes({
  idPrefix,
  value,
  onChange,
  scopes,
  errors,
}: {
  readonly idPrefix: string;
  readonly value: readonly WebhookEventType[];
  readonly onChange: (eventTypes: WebhookEventType[]) => void;
  /** The client's scopes; null while no client is chosen (nothing is disabled then). */
  readonly scopes: readonly string[] | null;
  readonly errors?: readonly string[] | undefined;
}) {
  const errorId = `${idPrefix}-events-error`;
  const toggle = (eventType: WebhookEventType, checked: boolean) => {
    const next = new Set(value);
    if (checked) next.add(eventType);
    else next.delete(eventType);
    onChange(EVENT_TYPES.filter((t) => next.has(t)));
  };
  return (
    <fieldset className="checkbox-group">
      <legend>Event types</legend>
      {EVENT_TYPES.map((eventType) => {
        const id = `${idPrefix}-event-${eventType.replace('.', '-')}`;
        const refusal = scopes === null ? null : eventTypeRefusal(eventType, scopes);
        const noteId = `${id}-note`;
        const described = describedBy(errorId, errors, noteId);
        return (
          <div className="checkbox event-type" key={eventType}>
            <input
              id={id}
              type="checkbox"
              checked={value.includes(eventType)}
              disabled={refusal !== null}
              onChange={(event) => toggle(eventType, event.target.checked)}
              {...described}
            />
            <label htmlFor={id}>
              <code>{eventType}</code>
            </label>
            <span
              className={refusal === null ? 'hint event-note' : 'hint event-note event-refused'}
              id={noteId}
            >
              {refusal ?? EVENT_TYPE_TEXT[eventType]}
            </span>
          </div>
        );
      })}
      <FieldErrorText id={errorId} messages={errors} />
    </fieldset>
  );
}
