import type { WebChannel } from '../api/types.ts';
import { describedBy, FieldErrorText } from './FieldError.tsx';

export interface ChannelSelectProps {
  readonly id: string;
  readonly label?: string;
  readonly channels: readonly WebChannel[];
  /** '' = unbound. */
  readonly value: string;
  readonly onChange: (slug: string) => void;
  readonly errors?: readonly string[] | undefined;
}

export function ChannelSelect({
  id,
  label = 'Channel',
  channels,
  value,
  onChange,
  errors,
}: ChannelSelectProps) {
  const known = value === '' || channels.some((channel) => channel.slug === value);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        {...describedBy(`${id}-error`, errors)}
      >
        <option value="">Unbound</option>
        {channels.map((channel) => (
          <option key={channel.slug} value={channel.slug}>
            {channel.slug} — {channel.name}
          </option>
        ))}
        {!known && <option value={value}>{value}</option>}
      </select>
      <FieldErrorText id={`${id}-error`} messages={errors} />
    </div>
  );
}
