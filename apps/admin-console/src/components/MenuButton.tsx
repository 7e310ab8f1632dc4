import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';

export interface MenuAction {
  readonly label: string;
  readonly onSelect: () => void;
  readonly danger?: boolean;
}

/**
 * The WAI-ARIA menu button: Enter, Space or ArrowDown open the menu on its first item (ArrowUp on
 * its last), the arrow keys, Home and End move, Escape closes it and puts the focus back on the
 * button, Tab or a click elsewhere closes it. One tab stop per row instead of one per action.
 */
export function MenuButton({
  label,
  labelSuffix,
  actions,
}: {
  readonly label: string;
  /** Said after the label by screen readers only, e.g. which client's actions these are. */
  readonly labelSuffix?: ReactNode;
  readonly actions: readonly MenuAction[];
}) {
  const id = useId();
  const [open, setOpen] = useState<false | 'first' | 'last'>(false);
  const wrapper = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const items = useRef<(HTMLButtonElement | null)[]>([]);

  useEffect(() => {
    if (open === false) return;
    items.current[open === 'first' ? 0 : actions.length - 1]?.focus();
    const closeOutside = (event: PointerEvent) => {
      if (!wrapper.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', closeOutside);
    return () => document.removeEventListener('pointerdown', closeOutside);
  }, [open, actions.length]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };

  const onButtonKey = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    setOpen(event.key === 'ArrowDown' ? 'first' : 'last');
  };

  const onMenuKey = (event: KeyboardEvent) => {
    const at = items.current.indexOf(document.activeElement as HTMLButtonElement);
    const count = actions.length;
    const moves: Record<string, number> = {
      ArrowDown: (at + 1) % count,
      ArrowUp: (at - 1 + count) % count,
      Home: 0,
      End: count - 1,
    };
    if (event.key === 'Escape') {
      event.preventDefault();
      close();
    } else if (event.key === 'Tab') {
      setOpen(false);
    } else if (moves[event.key] !== undefined) {
      event.preventDefault();
      items.current[moves[event.key] as number]?.focus();
    }
  };

  return (
    <div className="menu-button" ref={wrapper}>
      <button
        ref={button}
        type="button"
        className="button-small"
        id={`${id}-button`}
        aria-haspopup="menu"
        aria-expanded={open !== false}
        aria-controls={open !== false ? `${id}-menu` : undefined}
        onClick={() => setOpen((current) => (current === false ? 'first' : false))}
        onKeyDown={onButtonKey}
      >
        {label}
        {labelSuffix !== undefined && <span className="visually-hidden"> {labelSuffix}</span>}
      </button>
      {open !== false && (
        <div
          className="menu"
          role="menu"
          id={`${id}-menu`}
          aria-labelledby={`${id}-button`}
          onKeyDown={onMenuKey}
        >
          {actions.map((action, index) => (
            <button
              key={action.label}
              ref={(element) => {
                items.current[index] = element;
              }}
              type="button"
              role="menuitem"
              tabIndex={-1}
              className={action.danger ? 'menu-item menu-item-danger' : 'menu-item'}
              onClick={() => {
                close();
                action.onSelect();
              }}
            >
              {action.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
