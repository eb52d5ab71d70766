import type { UseFormRegisterReturn } from 'react-hook-form';
import { FormField } from './form-field';
import { Input } from './input';

type NameFieldsProps = {
  register: (name: 'firstName' | 'lastName') => UseFormRegisterReturn;
  errors: { firstName?: { message?: string }; lastName?: { message?: string } };
};

/** First and last name, side by side from sm up in the caller's grid, as every form that asks for them shows them. */
export function NameFields({ register, errors }: NameFieldsProps) {
  return (
    <>
      <FormField label="First name" error={errors.firstName?.message}>
        {(control) => <Input {...control} {...register('firstName')} autoComplete="given-name" />}
      </FormField>
      <FormField label="Last name" error={errors.lastName?.message}>
        {(control) => <Input {...control} {...register('lastName')} autoComplete="family-name" />}
      </FormField>
    </>
  );
}
