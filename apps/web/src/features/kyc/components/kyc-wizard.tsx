import { useEffect, useRef, useState } from 'react';
import { useForm, type FieldErrors } from 'react-hook-form';
import toast from 'react-hot-toast';
import type { KycInfo, User } from '@terrafund/contracts';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ArrowLeftIcon } from 'lucide-react';
import { isApiError } from '@/lib/api-client';
import { useT } from '@/lib/i18n';
import type { useSubmitKyc } from '../api/submit-kyc';
import {
  initialKycValues,
  KYC_STEPS,
  LAST_STEP,
  stepOf,
  stepResolver,
  stepToastMessage,
  toSubmitBody,
  validateStep,
  type KycFieldName,
  type KycFormValues,
  type KycStepIndex,
} from '../utils/kyc-form';
import { sayKycMessage } from '../utils/documents';
import { DocumentsStep } from './documents-step';
import { AddressStep, IdentityStep, PersonalStep } from './kyc-step-fields';
import { StepIndicator } from './step-indicator';

/** One toast for "this step is incomplete", replaced on each attempt and gone once the step is done. */
const STEP_TOAST = 'kyc-step';

type KycWizardProps = {
  user: Pick<User, 'firstName' | 'lastName'>;
  /** The previous submission, to start a resubmission from. */
  kyc: KycInfo | null | undefined;
  submission: ReturnType<typeof useSubmitKyc>;
};

/**
 * The four-step KYC form (docs/product.md §4.2 The wizard). Next checks the step on screen with its schema from the
 * contracts; the step icons jump freely, so submitting checks every step again and returns to the
 * first one that is incomplete.
 */
export function KycWizard({ user, kyc, submission }: KycWizardProps) {
  const [step, setStep] = useState<KycStepIndex>(0);
  const { t } = useT('kyc');
  // The resolver runs outside render and must see the step on screen now, not the one it was created with.
  const stepRef = useRef<KycStepIndex>(0);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);

  const form = useForm<KycFormValues>({
    defaultValues: initialKycValues(user, kyc),
    resolver: stepResolver(() => stepRef.current),
  });
  const { handleSubmit, setError, getValues, watch } = form;

  const goTo = (index: KycStepIndex) => {
    stepRef.current = index;
    moved.current = true;
    setStep(index);
  };

  useEffect(() => {
    // Moving to another step puts focus on its heading, so the change is announced and Tab starts there.
    if (moved.current) headingRef.current?.focus();
  }, [step]);

  const showErrors = (errors: FieldErrors<KycFormValues>) => {
    for (const [name, error] of Object.entries(errors)) {
      if (error?.message) setError(name as KycFieldName, { type: 'validate', message: String(error.message) });
    }
  };

  const onInvalid = (errors: FieldErrors<KycFormValues>) => {
    toast.error(sayKycMessage(stepToastMessage(errors), getValues()), { id: STEP_TOAST });
  };

  const onNext = handleSubmit(() => {
    toast.dismiss(STEP_TOAST);
    goTo((step + 1) as KycStepIndex);
  }, onInvalid);

  const onSubmit = handleSubmit(() => {
    const values = getValues();
    for (const [i] of KYC_STEPS.entries()) {
      const index = i as KycStepIndex;
      const errors = validateStep(index, values);
      if (Object.keys(errors).length > 0) {
        goTo(index);
        showErrors(errors);
        onInvalid(errors);
        return;
      }
    }
    toast.dismiss(STEP_TOAST);
    submission.mutate(toSubmitBody(values), {
      onError: (error) => {
        // Field messages from the server go under their fields, on the first step that has one.
        const fields = isApiError(error) ? Object.entries(error.fields ?? {}) : [];
        const known = fields.filter(([name]) => stepOf(name) !== null);
        if (known.length === 0) return;
        const first = Math.min(...known.map(([name]) => stepOf(name) as number)) as KycStepIndex;
        goTo(first);
        for (const [name, message] of known) setError(name as KycFieldName, { type: 'server', message });
      },
    });
  }, onInvalid);

  const values = watch();
  const complete = KYC_STEPS.map((_, i) => Object.keys(validateStep(i as KycStepIndex, values)).length === 0);
  const current = KYC_STEPS[step];
  const isLast = step === LAST_STEP;

  return (
    <Card className="overflow-hidden">
      <div className="border-b border-slate-200 px-4 py-5 sm:px-8 sm:py-6 dark:border-slate-800">
        <StepIndicator current={step} complete={complete} onSelect={goTo} />
      </div>

      <form onSubmit={isLast ? onSubmit : onNext} noValidate aria-labelledby="kyc-step-title">
        <div className="px-4 py-6 sm:px-8 sm:py-8">
          <div className="mb-6">
            <p className="text-xs font-semibold tracking-wide text-emerald-600 uppercase dark:text-emerald-400">
              {t('wizard.stepOf', { step: step + 1, total: KYC_STEPS.length })}
            </p>
            <h2
              id="kyc-step-title"
              ref={headingRef}
              tabIndex={-1}
              className="mt-1 text-xl font-semibold text-slate-900 focus:outline-none dark:text-white"
            >
              {t(`steps.${current.id}.title`)}
            </h2>
            <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{t(`steps.${current.id}.description`)}</p>
          </div>

          {step === 0 && <PersonalStep form={form} />}
          {step === 1 && <AddressStep form={form} />}
          {step === 2 && <IdentityStep form={form} />}
          {step === 3 && <DocumentsStep form={form} />}
        </div>

        <div className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 bg-slate-50/60 px-4 py-4 sm:px-8 dark:border-slate-800 dark:bg-slate-900/40">
          <Button variant="outline" onClick={() => goTo((step - 1) as KycStepIndex)} disabled={step === 0}>
            <ArrowLeftIcon className="h-4 w-4" />
            {t('wizard.previous')}
          </Button>
          {isLast ? (
            <Button type="submit" isLoading={submission.isPending}>
              {t('wizard.submit')}
            </Button>
          ) : (
            <Button type="submit">{t('wizard.next')}</Button>
          )}
        </div>
      </form>
    </Card>
  );
}
