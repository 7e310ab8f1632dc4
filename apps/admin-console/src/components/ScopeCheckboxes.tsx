import type { GrantableScope } from '../api/types.ts';
import { GRANTABLE_SCOPES } from '../domain/scopes.ts';
import { describedBy, FieldErrorText } from './FieldError.tsx';

export interface ScopeCheckboxesProps {
  readonly idPrefix: string;
  readonly value: readonly GrantableScope[];
  readonly onChange: (scopes: GrantableScope[]) => void;
  readonly errors?: readonly string[] | undefined;
  readonly legend?: string;
}

export function ScopeCheckboxes({
  idPrefix,
  value,
  onChange,
  errors,
  legend = 'Scopes',
}: ScopeCheckboxesProps) {
  const errorId = `${idPrefix}-scopes-error`;
  const toggle = (scope: GrantableScope, checked: boolean) => {
    const next = new Set(value);
    if (checked) next.add(scope);
    else next.delete(scope);
    onChange(GRANTABLE_SCOPES.filter((s) => next.has(s)));
  };
  return (
    <fieldset className="checkbox-group">
      <legend>{legend}</legend>
      {GRANTABLE_SCOPES.map((scope) => {
        const id = `${idPrefix}-scope-${scope.replace('.', '-')}`;
        return (
          <div className="checkbox" key={scope}>
            <input
              id={id}
              type="checkbox"
              checked={value.includes(scope)}
              onChange={(event) => toggle(scope, event.target.checked)}
              {...describedBy(errorId, errors)}
            />
            <label htmlFor={id}>{scope}</label>
          </div>
        );
      })}
      <FieldErrorText id={errorId} messages={errors} />
    </fieldset>
  );
}
