import type { ComponentType, SVGProps } from 'react';
import { CheckIcon, FileTextIcon, IdCardIcon, MapPinIcon, UserIcon } from 'lucide-react';
import { cn } from '@/lib/cn';
import { useT } from '@/lib/i18n';
import { KYC_STEPS, type KycStepIndex } from '../utils/kyc-form';

const stepIcons: Record<(typeof KYC_STEPS)[number]['id'], ComponentType<SVGProps<SVGSVGElement>>> = {
  personal: UserIcon,
  address: MapPinIcon,
  identity: IdCardIcon,
  documents: FileTextIcon,
};

type StepIndicatorProps = {
  current: KycStepIndex;
  /** Which steps are fully answered, in order. */
  complete: readonly boolean[];
  onSelect: (index: KycStepIndex) => void;
};

/** The four named steps; each icon jumps to its step (docs/product.md §4.2 The wizard). */
export function StepIndicator({ current, complete, onSelect }: StepIndicatorProps) {
  const { t } = useT('kyc');
  return (
    <nav aria-label={t('wizard.navigation')}>
      <ol className="flex items-start">
        {KYC_STEPS.map((step, i) => {
          const index = i as KycStepIndex;
          const Icon = stepIcons[step.id];
          const isCurrent = index === current;
          const isComplete = complete[index] && !isCurrent;
          return (
            <li key={step.id} className="relative flex flex-1 flex-col items-center">
              {index > 0 && (
                <span
                  aria-hidden="true"
                  className={cn(
                    'absolute top-5 right-[calc(50%+1.75rem)] left-[calc(-50%+1.75rem)] h-0.5 rounded-full',
                    complete[index - 1] ? 'bg-emerald-500' : 'bg-slate-200 dark:bg-slate-700',
                  )}
                />
              )}
              <button
                type="button"
                onClick={() => onSelect(index)}
                aria-current={isCurrent ? 'step' : undefined}
                className="group flex flex-col items-center gap-2 rounded-lg px-1 text-center focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-500"
              >
                <span
                  className={cn(
                    'flex h-10 w-10 items-center justify-center rounded-full border-2 transition-colors',
                    isCurrent &&
                      'border-emerald-600 bg-emerald-600 text-white shadow-md shadow-emerald-600/20 dark:border-emerald-500 dark:bg-emerald-500 dark:text-slate-950',
                    isComplete &&
                      'border-emerald-500 bg-emerald-50 text-emerald-600 dark:border-emerald-500/70 dark:bg-emerald-500/10 dark:text-emerald-400',
                    !isCurrent &&
                      !isComplete &&
                      'border-slate-200 bg-white text-slate-400 group-hover:border-slate-300 group-hover:text-slate-600 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-500 dark:group-hover:border-slate-600 dark:group-hover:text-slate-300',
                  )}
                >
                  {isComplete ? <CheckIcon className="h-5 w-5" /> : <Icon className="h-5 w-5" />}
                </span>
                <span
                  className={cn(
                    'sr-only text-xs font-medium sm:not-sr-only sm:max-w-32 sm:text-sm',
                    isCurrent ? 'text-slate-900 dark:text-white' : 'text-slate-500 dark:text-slate-400',
                  )}
                >
                  {t(`steps.${step.id}.title`)}
                  {isComplete && <span className="sr-only">{t('wizard.completed')}</span>}
                </span>
              </button>
            </li>
          );
        })}
      </ol>
      <p aria-hidden="true" className="mt-4 text-center text-sm font-medium text-slate-700 sm:hidden dark:text-slate-200">
        <span className="text-slate-400 dark:text-slate-500">
          {t('wizard.stepOf', { step: current + 1, total: KYC_STEPS.length })} ·{' '}
        </span>
        {t(`steps.${KYC_STEPS[current].id}.title`)}
      </p>
    </nav>
  );
}
