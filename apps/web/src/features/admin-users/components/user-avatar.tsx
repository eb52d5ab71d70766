import { cn } from '@/lib/cn';
import { getInitials } from '@/lib/format';

/** The user's initials in a circle; decorative, the name is always written beside it. */
export function UserAvatar({ firstName, lastName, size = 'md' }: { firstName: string; lastName: string; size?: 'md' | 'lg' }) {
  return (
    <span
      aria-hidden="true"
      className={cn(
        'flex shrink-0 items-center justify-center rounded-full bg-gradient-to-br from-emerald-500 to-teal-600 font-semibold text-white',
        size === 'lg' ? 'h-14 w-14 text-lg' : 'h-9 w-9 text-xs',
      )}
    >
      {getInitials(firstName, lastName)}
    </span>
  );
}
