import type { ReactNode } from 'react';

/**
 * A form's submit button while its request may be under way: marked busy and inert (aria-disabled)
 * rather than disabled, so the focus stays on it instead of falling to the page when it is pressed.
 * The submission itself ignores a second press (useSubmission).
 */
export function SubmitButton({
  busy,
  disabled = false,
  className = 'button-primary',
  children,
}: {
  readonly busy: boolean;
  /** Not sendable for another reason (nothing loaded yet, a confirmation not typed). */
  readonly disabled?: boolean;
  readonly className?: string;
  readonly children: ReactNode;
}) {
  return (
    <button type="submit" className={className} disabled={disabled} aria-disabled={busy || undefined}>
      {busy && <span className="spinner" aria-hidden="true" />}
      {children}
    </button>
  );
}
