import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import toast from 'react-hot-toast';
import { messages, PAYMENT_REDIRECT_MS } from '@terrafund/contracts';
import { localizeMessage } from '@terrafund/contracts/i18n';
import { paths } from '@/config/paths';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { CheckCircleIcon, ClockIcon } from 'lucide-react';
import { cn } from '@/lib/cn';
import { i18n, useT } from '@/lib/i18n';

const outcomes = {
  success: {
    toast: () => toast.success(localizeMessage(i18n.t, messages.toasts.paymentSuccess), { id: 'payment-result' }),
    icon: CheckCircleIcon,
    iconClasses: 'bg-emerald-50 text-emerald-600 dark:bg-emerald-500/10 dark:text-emerald-400',
  },
  timeout: {
    toast: () => toast.error(localizeMessage(i18n.t, messages.toasts.paymentTimeout), { id: 'payment-result' }),
    icon: ClockIcon,
    iconClasses: 'bg-amber-50 text-amber-600 dark:bg-amber-500/10 dark:text-amber-400',
  },
} as const;

/**
 * Where the payment provider sends the browser back (docs/product.md §2.4 Public screens). It settles nothing (only the
 * provider's signed notification does, docs/product.md §5.3 Buying a pack): it says what happened and returns to the wallet.
 */
export function PaymentResult({ outcome }: { outcome: keyof typeof outcomes }) {
  const navigate = useNavigate();
  const { t } = useT('wallet');
  const { toast: notify, icon: Icon, iconClasses } = outcomes[outcome];
  const title = t(`result.${outcome}.title`);
  const text = t(`result.${outcome}.text`);

  const [secondsLeft, setSecondsLeft] = useState(Math.ceil(PAYMENT_REDIRECT_MS / 1000));

  useEffect(() => {
    notify();
    const timer = setTimeout(() => navigate(paths.wallet.getHref(), { replace: true }), PAYMENT_REDIRECT_MS);
    const tick = setInterval(() => setSecondsLeft((left) => Math.max(left - 1, 1)), 1000);
    return () => {
      clearTimeout(timer);
      clearInterval(tick);
    };
  }, [notify, navigate]);

  return (
    <div className="flex justify-center py-8 sm:py-16">
      <title>{`${title} · Terrafund`}</title>
      <Card className="w-full max-w-md px-6 py-10 text-center sm:px-10">
        <span className={cn('mx-auto flex h-14 w-14 items-center justify-center rounded-full', iconClasses)}>
          <Icon className="h-7 w-7" />
        </span>
        <h1 className="mt-5 text-2xl font-semibold tracking-tight text-slate-900 dark:text-white">{title}</h1>
        <p className="mt-2 text-sm text-slate-500 dark:text-slate-400">{text}</p>
        <p className="mt-6 text-sm text-slate-500 dark:text-slate-400" role="status">
          {t('result.redirect', { count: secondsLeft })}
        </p>
        <Link to={paths.wallet.getHref()} replace className={buttonClasses({ className: 'mt-4' })}>
          {t('result.goNow')}
        </Link>
      </Card>
    </div>
  );
}
