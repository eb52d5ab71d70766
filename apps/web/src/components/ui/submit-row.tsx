import type { ReactNode } from 'react';
import { Button } from './button';

/** A card form's submit button: at the right from sm up, the full width below, as the profile cards show it. */
export function SubmitRow({ isLoading, children }: { isLoading: boolean; children: ReactNode }) {
  return (
    <div className="flex justify-end">
      <Button type="submit" isLoading={isLoading} className="w-full sm:w-auto">
        {children}
      </Button>
    </div>
  );
}
