import type { UseFormRegisterReturn } from 'react-hook-form';
import { FormField } from './form-field';
import { Input } from './input';
import { useT } from '@/lib/i18n';

type NameFieldsProps = {
  register: (name: 'firstName' | 'lastName') => UseFormRegisterReturn;
  errors: { firstName?: { message?: string }; lastName?: { message?: string } };
};

/** First and last name, side by side from sm up in the caller's grid, as every form that asks for them shows them. */
export function NameFields({ register, errors }: NameFieldsProps) {
  const { t } = useT();
  return (
    <>
      <FormField label={t('fields.firstName')} error={errors.firstName?.message}>
        {(control) => <Input {...control} {...register('firstName')} autoComplete="given-name" />}
      </FormField>
      <FormField label={t('fields.lastName')} error={errors.lastName?.message}>
        {(control) => <Input {...control} {...register('lastName')} autoComplete="family-name" />}
      </FormField>
    </>
  );
}
