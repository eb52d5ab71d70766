import { useId, useRef } from 'react';
import toast from 'react-hot-toast';
import { messages } from '@terrafund/contracts';
import { Button } from '@/components/ui/button';
import { CopyIcon } from '@/components/ui/icons';
import { Input } from '@/components/ui/input';

/**
 * The platform's crypto deposit address (DEPOSIT_ADDRESS, via GET /api/config) with a copy button. Where
 * the browser refuses the clipboard (no secure context, permission denied) the address is selected
 * instead, so the member can copy it by hand.
 */
export function DepositAddress({ address, isLoading }: { address: string | undefined; isLoading: boolean }) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);

  const labelClasses = 'mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-200';
  if (!address) {
    return (
      <div>
        <p className={labelClasses}>Crypto deposit address</p>
        {isLoading ? (
          <div aria-hidden="true" className="h-11 animate-pulse rounded-lg bg-slate-200 dark:bg-slate-800" />
        ) : (
          <p className="text-sm text-slate-500 dark:text-slate-400">
            The deposit address is not available right now. Please contact support.
          </p>
        )}
      </div>
    );
  }

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(address);
      toast.success(messages.wallet.addressCopied, { id: 'address-copied' });
    } catch {
      inputRef.current?.focus();
      inputRef.current?.select();
    }
  };

  return (
    <div>
      <label htmlFor={id} className={labelClasses}>
        Crypto deposit address
      </label>
      <div className="flex gap-2">
        <Input
          ref={inputRef}
          id={id}
          readOnly
          value={address}
          onFocus={(event) => event.currentTarget.select()}
          className="font-mono text-xs sm:text-sm"
        />
        <Button variant="outline" onClick={() => void copy()} aria-label="Copy deposit address">
          <CopyIcon className="h-4 w-4" />
          <span className="hidden sm:inline">Copy</span>
        </Button>
      </div>
    </div>
  );
}
