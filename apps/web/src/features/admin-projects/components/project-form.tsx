import type { ReactNode } from 'react';
import { Controller, FormProvider, useForm, type DefaultValues, type UseFormSetError } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import { createProjectBody, PAYMENT_SCHEDULES, PROJECT_STATUSES, PROJECT_TYPES } from '@terrafund/contracts';
import { paths } from '@/config/paths';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { Textarea } from '@/components/ui/textarea';
import { isApiError } from '@/lib/api-client';
import { useT } from '@/lib/i18n';
import { scheduleLabel, statusLabel, typeLabel } from '../utils/labels';
import { firstMessage, formFieldFor, type ProjectFormInput, type ProjectFormOutput } from '../utils/project-form';
import { DocumentsField } from './documents-field';
import { FeaturesField } from './features-field';
import { ImagesField } from './images-field';

/** An empty date field is "no date" (null), not an empty string the API would refuse. */
const dateOrNull = (value: unknown) => (value === '' || value === undefined ? null : value);

function Section({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <Card className="p-5 sm:p-6">
      <h2 className="font-semibold text-slate-900 dark:text-white">{title}</h2>
      {description && <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{description}</p>}
      <div className="mt-5">{children}</div>
    </Card>
  );
}

/** Puts each of the server's field messages under its field; says whether any landed. */
function applyServerErrors(error: unknown, setError: UseFormSetError<ProjectFormInput>): boolean {
  if (!isApiError(error) || !error.fields) return false;
  let first = true;
  for (const [path, message] of Object.entries(error.fields)) {
    const field = formFieldFor(path);
    if (!field) continue;
    setError(field, { type: 'server', message }, { shouldFocus: first });
    first = false;
  }
  return !first;
}

type ProjectFormProps = {
  defaultValues: DefaultValues<ProjectFormInput>;
  submitLabel: string;
  /** Saves the checked values; a rejection with the server's field messages puts them under the fields. */
  onSubmit: (values: ProjectFormOutput) => Promise<unknown>;
};

/**
 * The admin project form (docs/product.md §6.1 A project; docs/product.md §6 Projects and investing), for adding and for editing. Its rules
 * and messages are the API's own body schema, so the form refuses exactly what the server would.
 */
export function ProjectForm({ defaultValues, submitLabel, onSubmit }: ProjectFormProps) {
  const form = useForm<ProjectFormInput, unknown, ProjectFormOutput>({ resolver: zodResolver(createProjectBody), defaultValues });
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = form;
  const thisYear = new Date().getFullYear();
  const { t, say } = useT('admin');
  const typeOptions = PROJECT_TYPES.map((value) => ({ value, label: typeLabel(value) }));
  const statusOptions = PROJECT_STATUSES.map((value) => ({ value, label: statusLabel(value) }));
  const scheduleOptions = PAYMENT_SCHEDULES.map((value) => ({ value, label: scheduleLabel(value) }));
  const said = (message: string | undefined) => (message ? say(message) : undefined);

  const submit = handleSubmit(async (values) => {
    try {
      await onSubmit(values);
    } catch (error) {
      // The toast (the server's message, or "Failed to ... project") comes from the mutation.
      applyServerErrors(error, setError);
    }
  });

  const number = (step: string, extra: { min?: number; max?: number } = {}) => ({ type: 'number', inputMode: 'decimal' as const, step, ...extra });

  return (
    <FormProvider {...form}>
      <form onSubmit={submit} noValidate aria-label={submitLabel} className="space-y-6">
        <Section title={t('projects.form.basic')}>
          <div className="grid gap-5 sm:grid-cols-2">
            <FormField label={t('projects.form.title')} error={said(errors.title?.message)}>
              {(c) => <Input {...c} {...register('title')} maxLength={200} />}
            </FormField>
            <FormField label={t('projects.form.location')} error={said(errors.location?.message)}>
              {(c) => <Input {...c} {...register('location')} maxLength={200} placeholder={t('projects.form.locationPlaceholder')} />}
            </FormField>
            <FormField label={t('projects.form.type')} error={said(errors.type?.message)}>
              {(c) => <Select {...c} {...register('type')} defaultValue="" placeholder={t('projects.form.typePlaceholder')} options={typeOptions} />}
            </FormField>
            <FormField label={t('projects.form.status')} error={said(errors.status?.message)}>
              {(c) => <Select {...c} {...register('status')} options={statusOptions} />}
            </FormField>
            <div className="sm:col-span-2">
              <FormField label={t('projects.form.description')} error={said(errors.description?.message)}>
                {(c) => <Textarea {...c} {...register('description')} rows={5} maxLength={5000} />}
              </FormField>
            </div>
          </div>
        </Section>

        <Section title={t('projects.form.terms')}>
          <div className="grid gap-5 sm:grid-cols-2">
            <FormField label={t('projects.form.target')} error={said(errors.target?.message)}>
              {(c) => <Input {...c} {...number('0.01', { min: 0 })} {...register('target', { valueAsNumber: true })} />}
            </FormField>
            <FormField label={t('projects.form.minInvestment')} error={said(errors.minInvestment?.message)}>
              {(c) => <Input {...c} {...number('0.01', { min: 0 })} {...register('minInvestment', { valueAsNumber: true })} />}
            </FormField>
            <FormField label={t('projects.form.roi')} error={said(errors.roi?.message)}>
              {(c) => <Input {...c} {...number('0.1', { min: 0 })} {...register('roi', { valueAsNumber: true })} />}
            </FormField>
            <FormField label={t('projects.form.term')} error={said(errors.term?.message)}>
              {(c) => <Input {...c} {...number('1', { min: 1 })} inputMode="numeric" {...register('term', { valueAsNumber: true })} />}
            </FormField>
            <FormField label={t('projects.form.startDate')} error={said(errors.startDate?.message)}>
              {(c) => <Input {...c} type="date" {...register('startDate', { setValueAs: dateOrNull })} />}
            </FormField>
            <FormField label={t('projects.form.endDate')} error={said(errors.endDate?.message)}>
              {(c) => <Input {...c} type="date" {...register('endDate', { setValueAs: dateOrNull })} />}
            </FormField>
          </div>
        </Section>

        <Section title={t('projects.form.pictures')} description={t('projects.form.picturesDescription')}>
          <Controller
            control={control}
            name="images"
            render={({ field, fieldState }) => (
              <ImagesField value={field.value ?? []} onChange={field.onChange} error={said(firstMessage(fieldState.error))} />
            )}
          />
        </Section>

        <Section title={t('projects.form.property')}>
          <div className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
            <FormField label={t('projects.form.propertyType')} error={said(errors.details?.propertyType?.message)}>
              {(c) => <Input {...c} {...register('details.propertyType')} maxLength={100} placeholder={t('projects.form.propertyTypePlaceholder')} />}
            </FormField>
            <FormField label={t('projects.form.size')} error={said(errors.details?.size?.message)}>
              {(c) => <Input {...c} {...register('details.size')} maxLength={100} placeholder={t('projects.form.sizePlaceholder')} />}
            </FormField>
            <FormField label={t('projects.form.units')} error={said(errors.details?.units?.message)}>
              {(c) => <Input {...c} {...number('1', { min: 1 })} inputMode="numeric" {...register('details.units', { valueAsNumber: true })} />}
            </FormField>
            <FormField label={t('projects.form.yearBuilt')} error={said(errors.details?.yearBuilt?.message)}>
              {(c) => (
                <Input {...c} {...number('1', { min: 1800, max: thisYear })} inputMode="numeric" {...register('details.yearBuilt', { valueAsNumber: true })} />
              )}
            </FormField>
            <FormField label={t('projects.form.occupancyRate')} error={said(errors.details?.occupancyRate?.message)}>
              {(c) => <Input {...c} {...number('any', { min: 0, max: 100 })} {...register('details.occupancyRate', { valueAsNumber: true })} />}
            </FormField>
            <FormField label={t('projects.form.paymentSchedule')} error={said(errors.details?.paymentSchedule?.message)}>
              {(c) => (
                <Select {...c} {...register('details.paymentSchedule')} defaultValue="" placeholder={t('projects.form.schedulePlaceholder')} options={scheduleOptions} />
              )}
            </FormField>
          </div>
        </Section>

        <Section title={t('projects.form.features')}>
          <Controller
            control={control}
            name="details.features"
            render={({ field, fieldState }) => (
              <FeaturesField value={field.value ?? []} onChange={field.onChange} error={firstMessage(fieldState.error)} />
            )}
          />
        </Section>

        <Section title={t('projects.form.documents')} description={t('projects.form.documentsDescription')}>
          <DocumentsField />
        </Section>

        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Link to={paths.adminProjects.getHref()} className={buttonClasses({ variant: 'outline' })}>
            {t('projects.form.cancel')}
          </Link>
          <Button type="submit" isLoading={isSubmitting}>
            {submitLabel}
          </Button>
        </div>
      </form>
    </FormProvider>
  );
}
