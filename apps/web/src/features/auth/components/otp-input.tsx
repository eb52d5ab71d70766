import { useId, useRef, type ClipboardEvent, type KeyboardEvent, type Ref } from 'react';
import { OTP_LENGTH } from '@terrafund/contracts';
import { cn } from '@/lib/cn';
import { useT } from '@/lib/i18n';

type OtpInputProps = {
  /** OTP_LENGTH characters, a space for an empty box; '' means all empty. */
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  /** Given the first box, so the form can focus it. */
  ref?: Ref<HTMLInputElement>;
  invalid?: boolean;
  describedBy?: string;
  disabled?: boolean;
};

const toSlots = (value: string) => Array.from({ length: OTP_LENGTH }, (_, i) => (value[i] ?? '').trim());
const fromSlots = (slots: string[]) => slots.map((digit) => digit || ' ').join('');
const digitsOf = (text: string) => text.replace(/\D/g, '');

/**
 * Six one-digit boxes (docs/product.md §2.4 Public screens): typing moves to the next box, Backspace in an empty box goes
 * back to the previous one, arrow keys move, and a pasted or autofilled code fills every box.
 */
export function OtpInput({ value, onChange, onBlur, ref, invalid, describedBy, disabled }: OtpInputProps) {
  const { t } = useT('auth');
  const inputs = useRef<Array<HTMLInputElement | null>>([]);
  const idPrefix = useId();
  const slots = toSlots(value);

  const focusBox = (index: number) => {
    const box = inputs.current[Math.max(0, Math.min(OTP_LENGTH - 1, index))];
    box?.focus();
    box?.select();
  };

  /** Writes digits from `start` on; a whole code lands in the boxes from the first, wherever it was put. */
  const fill = (start: number, digits: string) => {
    const from = digits.length >= OTP_LENGTH ? 0 : start;
    const next = [...slots];
    const written = digits.slice(0, OTP_LENGTH - from);
    for (let i = 0; i < written.length; i++) next[from + i] = written[i]!;
    onChange(fromSlots(next));
    focusBox(from + written.length);
  };

  const handleChange = (index: number, raw: string) => {
    const digits = digitsOf(raw);
    const current = slots[index] ?? '';
    if (!digits) {
      const next = [...slots];
      next[index] = '';
      onChange(fromSlots(next));
      return;
    }
    // A digit typed beside the one already in the box replaces it.
    if (digits.length === 2 && current && digits.includes(current)) {
      const typed = digits[0] === current ? digits[1]! : digits[0]!;
      fill(index, typed);
      return;
    }
    fill(index, digits);
  };

  const handleKeyDown = (index: number, event: KeyboardEvent<HTMLInputElement>) => {
    const current = slots[index] ?? '';
    switch (event.key) {
      case 'Backspace':
        if (!current && index > 0) {
          event.preventDefault();
          const next = [...slots];
          next[index - 1] = '';
          onChange(fromSlots(next));
          focusBox(index - 1);
        }
        break;
      case 'ArrowLeft':
        event.preventDefault();
        focusBox(index - 1);
        break;
      case 'ArrowRight':
        event.preventDefault();
        focusBox(index + 1);
        break;
      case 'Home':
        event.preventDefault();
        focusBox(0);
        break;
      case 'End':
        event.preventDefault();
        focusBox(OTP_LENGTH - 1);
        break;
      default:
        // Typing the digit a box already holds changes nothing, so no change event: move on anyway.
        if (/^\d$/.test(event.key) && event.key === current) {
          event.preventDefault();
          focusBox(index + 1);
        }
    }
  };

  const handlePaste = (index: number, event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    const digits = digitsOf(event.clipboardData.getData('text'));
    if (digits) fill(index, digits);
  };

  return (
    <fieldset>
      <legend className="sr-only">{t('verify.code')}</legend>
      <div className="flex justify-between gap-2 sm:gap-3">
        {slots.map((digit, index) => {
          const id = `${idPrefix}-${index}`;
          return (
            <div key={id} className="flex-1">
              <label htmlFor={id} className="sr-only">
                {t('verify.digit', { position: index + 1, total: OTP_LENGTH })}
              </label>
              <input
                id={id}
                ref={(element) => {
                  inputs.current[index] = element;
                  if (index === 0 && ref) {
                    if (typeof ref === 'function') ref(element);
                    else ref.current = element;
                  }
                }}
                type="text"
                inputMode="numeric"
                pattern="[0-9]*"
                // Every box: a code offered by the phone's keyboard fills all six from whichever box has focus.
                autoComplete="one-time-code"
                value={digit}
                disabled={disabled}
                aria-invalid={invalid || undefined}
                aria-describedby={describedBy}
                onChange={(event) => handleChange(index, event.target.value)}
                onKeyDown={(event) => handleKeyDown(index, event)}
                onPaste={(event) => handlePaste(index, event)}
                onFocus={(event) => event.target.select()}
                onBlur={onBlur}
                className={cn(
                  'block h-12 w-full min-w-0 rounded-lg border bg-white text-center text-xl font-semibold text-slate-900 shadow-sm sm:h-14 sm:text-2xl',
                  'border-slate-300 focus:border-emerald-500 focus:ring-2 focus:ring-emerald-500/25 focus:outline-none',
                  'aria-invalid:border-rose-500 dark:border-slate-700 dark:bg-slate-900 dark:text-white dark:aria-invalid:border-rose-400',
                  'disabled:opacity-60',
                )}
              />
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}
