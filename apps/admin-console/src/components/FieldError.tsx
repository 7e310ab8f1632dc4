/** The messages of one field, referenced by the field's aria-describedby. */
export function FieldErrorText({
  id,
  messages,
}: {
  readonly id: string;
  readonly messages: readonly string[] | undefined;
}) {
  if (messages === undefined || messages.length === 0) return null;
  return (
    <p className="field-error" id={id}>
      {messages.join(' ')}
    </p>
  );
}

/** Props that tie a control to its error message (and its hint, when it has one). */
export function describedBy(
  errorId: string,
  messages: readonly string[] | undefined,
  hintId?: string,
): { 'aria-describedby'?: string; 'aria-invalid'?: true } {
  const hasError = messages !== undefined && messages.length > 0;
  const ids = [hasError ? errorId : undefined, hintId].filter((id): id is string => id !== undefined);
  return {
    ...(ids.length > 0 ? { 'aria-describedby': ids.join(' ') } : {}),
    ...(hasError ? { 'aria-invalid': true as const } : {}),
  };
}
